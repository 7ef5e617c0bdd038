#include "tuner/templates/dense_int8_template.h"

#include "absl/strings/str_cat.h"
#include "compiler/topi/dense_int8.h"
#include "compiler/topi/dense_int8_knobs.h"
#include "tuner/templates/template_args.h"

namespace tunefarm::tuner::templates {
namespace {

class DenseInt8Template final : public TaskTemplate {
 public:
  DenseInt8Template(int64_t m, int64_t n, int64_t k, topi::CpuInfo cpu)
      : m_(m), n_(n), k_(k), cpu_(std::move(cpu)) {}

  absl::Status DefineSpace(space::ConfigSpace& space) const override {
    return topi::DefineDenseInt8Knobs(space, m_, n_, k_, cpu_);
  }

  absl::StatusOr<space::Config> DefaultConfig(const space::ConfigSpace& space) const override {
    return topi::DenseInt8KnobsFromConfig(space, topi::DefaultDenseInt8Config(m_, n_, k_, cpu_));
  }

  absl::StatusOr<topi::ScheduledOp> Apply(const space::Config& config) const override {
    if (absl::Status st = config.space().CheckValid(config); !st.ok()) return st;
    absl::StatusOr<topi::DenseInt8Config> c = topi::DenseInt8ConfigFromKnobs(config, cpu_);
    if (!c.ok()) return c.status();
    absl::StatusOr<topi::DenseInt8Tensors> t = Compute();
    if (!t.ok()) return t.status();
    return topi::ScheduleDenseInt8(*c, *t);
  }

  // The same arguments (the weight packed for the same lanes), computed by the plain loop nest.
  absl::StatusOr<topi::ScheduledOp> Reference(const space::Config& config) const override {
    (void)config;  // the lanes are the CPU's, not a knob: the arguments never change
    absl::StatusOr<topi::DenseInt8Tensors> t = Compute();
    if (!t.ok()) return t.status();
    return topi::ScheduledOp{schedule::Schedule::Create({t->c.op()}), {t->a, t->packed_w, t->c}};
  }

  double Flops() const override {
    return 2.0 * static_cast<double>(m_) * static_cast<double>(n_) * static_cast<double>(k_);
  }

 private:
  absl::StatusOr<topi::DenseInt8Tensors> Compute() const {
    const int64_t lanes = topi::DefaultDenseInt8Config(m_, n_, k_, cpu_).lanes;
    const int blocks = static_cast<int>((n_ + lanes - 1) / lanes);
    te::Tensor x =
        te::placeholder({static_cast<int>(m_), static_cast<int>(k_)}, ir::DataType::UInt(8), "X");
    te::Tensor w = te::placeholder({blocks, static_cast<int>(k_ / 4), static_cast<int>(lanes), 4},
                                   ir::DataType::Int(8), "Wp");
    return topi::DenseInt8Compute(x, w, n_);
  }

  int64_t m_, n_, k_;
  topi::CpuInfo cpu_;
};

}  // namespace

TemplateInfo DenseInt8TemplateInfo() {
  return {"dense_int8", "M,N,K",
          "Y[M,N] = X[M,K] * W[N,K]^T in int8 (uint8 X, int8 W packed for the CPU's dot "
          "product, int32 Y; dtype int8, K a multiple of 4)"};
}

std::unique_ptr<TaskTemplate> MakeDenseInt8Template(const Workload& workload,
                                                    const topi::CpuInfo& cpu, absl::Status& error) {
  const TemplateInfo info = DenseInt8TemplateInfo();
  error = CheckWorkloadArgs(workload, info, "", "int8");
  if (!error.ok()) return nullptr;
  const int64_t m = workload.args[0], n = workload.args[1], k = workload.args[2];
  if (k % 4 != 0) {
    error = WorkloadError(workload, absl::InvalidArgumentError(absl::StrCat(
                                        "dense_int8 needs K a multiple of 4, not ", k)));
    return nullptr;
  }
  for (const auto& [name, shape] : std::vector<std::pair<std::string, std::vector<int64_t>>>{
           {"X", {m, k}}, {"W", {n, k}}, {"Y", {m, n}}}) {
    error = CheckTensorSize(workload, name, shape);
    if (!error.ok()) return nullptr;
  }
  return std::make_unique<DenseInt8Template>(m, n, k, cpu);
}

}  // namespace tunefarm::tuner::templates
