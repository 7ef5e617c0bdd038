#include "tuner/templates/gpu_matmul_template.h"

#include <utility>
#include <vector>

#include "compiler/topi/gemm.h"
#include "compiler/topi/gpu_matmul.h"
#include "compiler/topi/gpu_matmul_knobs.h"
#include "compiler/topi/gpu_reference_schedule.h"
#include "tuner/templates/template_args.h"

namespace tunefarm::tuner::templates {
namespace {

// Matmul (B is [K,N]) or dense (W is [N,K], a fully connected layer): one schedule, the shared
// tiles fetched from either layout.
class GpuMatmulTemplate final : public TaskTemplate {
 public:
  GpuMatmulTemplate(bool dense, int64_t m, int64_t n, int64_t k)
      : dense_(dense), m_(m), n_(n), k_(k) {}

  absl::Status DefineSpace(space::ConfigSpace& space) const override {
    absl::StatusOr<topi::GemmTensors> t = Compute();
    if (!t.ok()) return t.status();
    return topi::DefineGpuMatmulKnobs(space, *t);
  }

  absl::StatusOr<space::Config> DefaultConfig(const space::ConfigSpace& space) const override {
    return topi::GpuMatmulKnobsFromConfig(space, topi::DefaultGpuMatmulConfig(m_, n_, k_));
  }

  absl::StatusOr<topi::ScheduledOp> Apply(const space::Config& config) const override {
    if (absl::Status st = config.space().CheckValid(config); !st.ok()) return st;
    absl::StatusOr<topi::GpuMatmulScheduleConfig> c = topi::GpuMatmulConfigFromKnobs(config);
    if (!c.ok()) return c.status();
    absl::StatusOr<topi::GemmTensors> t = Compute();
    if (!t.ok()) return t.status();
    return topi::ScheduleGpuMatmul(*c, *t);
  }

  absl::StatusOr<topi::ScheduledOp> Reference(const space::Config& config) const override {
    (void)config;
    absl::StatusOr<topi::GemmTensors> t = Compute();
    if (!t.ok()) return t.status();
    return topi::ScheduleGpuReference(t->c, {}, {t->a, t->b, t->c});
  }

  std::optional<GpuLaunchShape> LaunchShape(const space::Config& config) const override {
    absl::StatusOr<topi::GpuMatmulScheduleConfig> c = topi::GpuMatmulConfigFromKnobs(config);
    if (!c.ok()) return std::nullopt;
    return GpuLaunchShape{c->Threads(), c->SharedBytes()};
  }

  double Flops() const override {
    return 2.0 * static_cast<double>(m_) * static_cast<double>(n_) * static_cast<double>(k_);
  }

 private:
  absl::StatusOr<topi::GemmTensors> Compute() const {
    if (dense_) {
      return topi::DenseCompute(Float32Placeholder({m_, k_}, "X"),
                                Float32Placeholder({n_, k_}, "W"));
    }
    return topi::MatmulCompute(Float32Placeholder({m_, k_}, "A"),
                               Float32Placeholder({k_, n_}, "B"));
  }

  bool dense_;
  int64_t m_, n_, k_;
};

}  // namespace

TemplateInfo GpuDenseTemplateInfo() {
  return {"dense", "M,N,K",
          "Y[M,N] = X[M,K] * W[N,K]^T on the GPU: the matmul's shared-memory and register tiles "
          "(float32)",
          target::Target::Kind::kCuda};
}

TemplateInfo GpuMatmulTemplateInfo() {
  return {"matmul", "M,N,K",
          "C[M,N] = A[M,K] * B[K,N] on the GPU: shared-memory and register tiles (float32)",
          target::Target::Kind::kCuda};
}

static std::unique_ptr<TaskTemplate> MakeGpuGemm(bool dense, const TemplateInfo& info,
                                                 const Workload& workload, absl::Status& error) {
  error = CheckWorkloadArgs(workload, info);
  if (!error.ok()) return nullptr;
  const int64_t m = workload.args[0], n = workload.args[1], k = workload.args[2];
  for (const auto& [name, shape] : std::vector<std::pair<std::string, std::vector<int64_t>>>{
           {dense ? "X" : "A", {m, k}},
           {dense ? "W" : "B", dense ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n}},
           {dense ? "Y" : "C", {m, n}}}) {
    error = CheckTensorSize(workload, name, shape);
    if (!error.ok()) return nullptr;
  }
  return std::make_unique<GpuMatmulTemplate>(dense, m, n, k);
}

std::unique_ptr<TaskTemplate> MakeGpuMatmulTemplate(const Workload& workload,
                                                    const topi::CpuInfo& cpu, absl::Status& error) {
  (void)cpu;
  return MakeGpuGemm(/*dense=*/false, GpuMatmulTemplateInfo(), workload, error);
}

std::unique_ptr<TaskTemplate> MakeGpuDenseTemplate(const Workload& workload,
                                                   const topi::CpuInfo& cpu, absl::Status& error) {
  (void)cpu;
  return MakeGpuGemm(/*dense=*/true, GpuDenseTemplateInfo(), workload, error);
}

}  // namespace tunefarm::tuner::templates
