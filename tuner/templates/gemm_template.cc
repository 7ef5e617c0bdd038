// One class serves matmul, dense, dense_packed and batch_matmul: they share GemmScheduleConfig and
// its knobs and differ only in the weight's layout and the batch axis.
#include "tuner/templates/gemm_template.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/topi/gemm.h"
#include "compiler/topi/gemm_knobs.h"
#include "compiler/topi/gemm_schedule.h"
#include "tuner/templates/template_args.h"

namespace tunefarm::tuner::templates {
namespace {

enum class GemmOp { kMatmul, kDense, kDensePacked, kBatchMatmul };

class GemmTemplate final : public TaskTemplate {
 public:
  GemmTemplate(GemmOp op, int64_t batch, int64_t m, int64_t n, int64_t k, int64_t packed_block,
               topi::CpuInfo cpu)
      : op_(op),
        batch_(batch),
        m_(m),
        n_(n),
        k_(k),
        packed_block_(packed_block),
        cpu_(std::move(cpu)) {}

  absl::Status DefineSpace(space::ConfigSpace& space) const override {
    return topi::DefineGemmKnobs(space, batch_, m_, n_, k_, cpu_, Layout(), packed_block_);
  }

  absl::StatusOr<space::Config> DefaultConfig(const space::ConfigSpace& space) const override {
    return topi::GemmKnobsFromConfig(
        space, packed_block_ > 0 ? topi::DefaultPackedGemmConfig(m_, n_, k_, cpu_, packed_block_)
                                 : topi::DefaultGemmConfig(batch_, m_, n_, k_, cpu_, Layout()));
  }

  absl::StatusOr<topi::ScheduledOp> Apply(const space::Config& config) const override {
    if (absl::Status st = config.space().CheckValid(config); !st.ok()) return st;
    absl::StatusOr<topi::GemmScheduleConfig> c = topi::GemmConfigFromKnobs(config, cpu_);
    if (!c.ok()) return c.status();
    absl::StatusOr<topi::GemmTensors> t = Compute(c->Layout());
    if (!t.ok()) return t.status();
    return topi::ScheduleGemm(*c, *t);
  }

  absl::StatusOr<topi::ScheduledOp> Reference(const space::Config& config) const override {
    (void)config;  // packing happens inside the kernel: the arguments never change
    absl::StatusOr<topi::GemmTensors> t = Compute({});
    if (!t.ok()) return t.status();
    const te::Tensor& weight = t->b.defined() ? t->b : t->packed_b;  // dense_packed: the input
    return topi::ScheduledOp{schedule::Schedule::Create({t->c.op()}), {t->a, weight, t->c}};
  }

  double Flops() const override {
    return 2.0 * static_cast<double>(batch_) * static_cast<double>(m_) * static_cast<double>(n_) *
           static_cast<double>(k_);
  }

 private:
  topi::WeightLayout Layout() const {
    return op_ == GemmOp::kDense ? topi::WeightLayout::kNK : topi::WeightLayout::kKN;
  }

  absl::StatusOr<topi::GemmTensors> Compute(const topi::GemmLayout& layout) const {
    switch (op_) {
      case GemmOp::kMatmul:
        return topi::MatmulCompute(Float32Placeholder({m_, k_}, "A"),
                                   Float32Placeholder({k_, n_}, "B"), layout);
      case GemmOp::kDense:
        return topi::DenseCompute(Float32Placeholder({m_, k_}, "X"),
                                  Float32Placeholder({n_, k_}, "W"), layout);
      case GemmOp::kDensePacked:  // the weight's layout is the workload's, whatever `layout`
        return topi::PackedMatmulCompute(
            Float32Placeholder({m_, k_}, "X"),
            Float32Placeholder({n_ / packed_block_, k_, packed_block_}, "W"));
      case GemmOp::kBatchMatmul:
        break;
    }
    return topi::BatchMatmulCompute(Float32Placeholder({batch_, m_, k_}, "A"),
                                    Float32Placeholder({batch_, k_, n_}, "B"),
                                    /*transpose_b=*/false, layout);
  }

  GemmOp op_;
  int64_t batch_, m_, n_, k_;
  int64_t packed_block_;  // dense_packed: the weight's column block, else 0
  topi::CpuInfo cpu_;
};

std::unique_ptr<TaskTemplate> MakeGemm(GemmOp op, const TemplateInfo& info,
                                       const Workload& workload, const topi::CpuInfo& cpu,
                                       absl::Status& error) {
  error = CheckWorkloadArgs(workload, info);
  if (!error.ok()) return nullptr;
  const bool batched = op == GemmOp::kBatchMatmul;
  const std::vector<int64_t>& a = workload.args;
  const int64_t batch = batched ? a[0] : 1;
  const int64_t m = a[batched ? 1 : 0], n = a[batched ? 2 : 1], k = a[batched ? 3 : 2];
  const int64_t packed_block = op == GemmOp::kDensePacked ? a[3] : 0;
  if (op == GemmOp::kDensePacked &&
      (packed_block % cpu.Lanes(4) != 0 || n % packed_block != 0 || packed_block > 256)) {
    error = absl::InvalidArgumentError(absl::StrCat(
        workload.Key(), ": the weight block ", packed_block, " must be whole vectors of ",
        cpu.Lanes(4), " lanes, at most 256, and divide N ", n));
    return nullptr;
  }
  for (const auto& [name, shape] : std::vector<std::pair<std::string, std::vector<int64_t>>>{
           {"A", {batch, m, k}}, {"B", {batch, k, n}}, {"C", {batch, m, n}}}) {
    error = CheckTensorSize(workload, name, shape);
    if (!error.ok()) return nullptr;
  }
  return std::make_unique<GemmTemplate>(op, batch, m, n, k, packed_block, cpu);
}

}  // namespace

TemplateInfo MatmulTemplateInfo() {
  return {"matmul", "M,N,K", "C[M,N] = A[M,K] * B[K,N] (row-major, float32)"};
}

TemplateInfo DenseTemplateInfo() {
  return {"dense", "M,N,K", "Y[M,N] = X[M,K] * W[N,K]^T, a fully connected layer (float32)"};
}

TemplateInfo DensePackedTemplateInfo() {
  return {"dense_packed", "M,N,K,block",
          "Y[M,N] = X[M,K] * W^T with W packed [N/block][K][block] once, as a model build packs "
          "a constant weight (float32)"};
}

TemplateInfo BatchMatmulTemplateInfo() {
  return {"batch_matmul", "B,M,N,K", "C[B,M,N] = A[B,M,K] * B[B,K,N] per batch (float32)"};
}

std::unique_ptr<TaskTemplate> MakeMatmulTemplate(const Workload& workload, const topi::CpuInfo& cpu,
                                                 absl::Status& error) {
  return MakeGemm(GemmOp::kMatmul, MatmulTemplateInfo(), workload, cpu, error);
}

std::unique_ptr<TaskTemplate> MakeDenseTemplate(const Workload& workload, const topi::CpuInfo& cpu,
                                                absl::Status& error) {
  return MakeGemm(GemmOp::kDense, DenseTemplateInfo(), workload, cpu, error);
}

std::unique_ptr<TaskTemplate> MakeDensePackedTemplate(const Workload& workload,
                                                      const topi::CpuInfo& cpu,
                                                      absl::Status& error) {
  return MakeGemm(GemmOp::kDensePacked, DensePackedTemplateInfo(), workload, cpu, error);
}

std::unique_ptr<TaskTemplate> MakeBatchMatmulTemplate(const Workload& workload,
                                                      const topi::CpuInfo& cpu,
                                                      absl::Status& error) {
  return MakeGemm(GemmOp::kBatchMatmul, BatchMatmulTemplateInfo(), workload, cpu, error);
}

}  // namespace tunefarm::tuner::templates
