// measure_throughput_bench: candidates built and measured per second by the local pipeline
// (LocalBuilder on 2 threads, then LocalRunner's child process) on a tiled float32 matmul whose
// candidates run in about a millisecond. Target: >= 10 candidates/s on 2 cores. Prints the rate
// with the default measure options and with lighter timing, and where a candidate's time goes:
// lowering, LLVM code generation, the lld link, and in the runner the timing repeats versus the
// rest (IPC, dlopen, the checked first run). Build and run are not pipelined here (the tuning
// loop's job) except in one pass that shows what overlapping them gives.
//   measure_throughput_bench [--n N] [--candidates C] [--batch B]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>
#include <map>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

#include "compiler/codegen/llvm/build.h"
#include "compiler/ir/op.h"
#include "compiler/passes/lower.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/cpu_info.h"
#include "tuner/measure/local_builder.h"
#include "tuner/measure/local_runner.h"
#include "tuner/task.h"

namespace tunefarm {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// C[i, j] = sum_k A[i, k] * B[k, j], n x n x n: register tiles on i and j, a split reduction,
// the tile's columns vectorized or not, the inner k unrolled or not.
class BenchMatmul final : public tuner::TaskTemplate {
 public:
  explicit BenchMatmul(int n) : n_(n) {}

  absl::Status DefineSpace(space::ConfigSpace& space) const override {
    for (auto [name, values] : {std::pair<const char*, std::vector<space::ChoiceValue>>{
                                    "tile_i", {int64_t{1}, int64_t{2}, int64_t{4}, int64_t{8}}},
                                {"tile_j", {int64_t{8}, int64_t{16}, int64_t{32}, int64_t{64}}},
                                {"tile_k", {int64_t{1}, int64_t{4}, int64_t{16}}},
                                {"vectorize", {int64_t{0}, int64_t{1}}},
                                {"unroll", {int64_t{0}, int64_t{1}}}}) {
      if (absl::Status s = space.DefineChoice(name, values); !s.ok()) return s;
    }
    return absl::OkStatus();
  }
  absl::StatusOr<space::Config> DefaultConfig(const space::ConfigSpace& space) const override {
    return space.Get(0);
  }
  absl::StatusOr<topi::ScheduledOp> Apply(const space::Config& config) const override {
    auto knob = [&](const char* name) { return *config.ChoiceInt(name); };
    auto [a, b, c] = Compute();
    schedule::Schedule s = schedule::Schedule::Create({c.op()});
    ir::IterVar io, jo, ii, ji, ko, ki;
    s[c].tile(c.op()->axis[0], c.op()->axis[1], static_cast<int>(knob("tile_i")),
              static_cast<int>(knob("tile_j")), &io, &jo, &ii, &ji);
    s[c].split(c.op()->reduce_axis[0], static_cast<int>(knob("tile_k")), &ko, &ki);
    s[c].reorder({io, jo, ko, ki, ii, ji});
    if (knob("vectorize") != 0) s[c].vectorize(ji);
    if (knob("unroll") != 0) s[c].unroll(ki);
    return topi::ScheduledOp{s, {a, b, c}};
  }
  absl::StatusOr<topi::ScheduledOp> Reference(const space::Config&) const override {
    auto [a, b, c] = Compute();
    return topi::ScheduledOp{schedule::Schedule::Create({c.op()}), {a, b, c}};
  }
  double Flops() const override { return 2.0 * n_ * n_ * n_; }

 private:
  std::tuple<te::Tensor, te::Tensor, te::Tensor> Compute() const {
    te::Tensor a = te::placeholder({n_, n_}, ir::DataType::Float(32), "A");
    te::Tensor b = te::placeholder({n_, n_}, ir::DataType::Float(32), "B");
    ir::IterVar k = te::reduce_axis({0, n_}, "k");
    te::Tensor c = *te::compute(
        {n_, n_},
        [&](const std::vector<ir::Var>& i) {
          return te::sum(a({i[0], k->var}) * b({k->var, i[1]}), {k});
        },
        "C");
    return {a, b, c};
  }
  int n_;
};

struct PassStats {
  double seconds = 0;
  int candidates = 0;
  double build_wall = 0;             // Build calls, wall time
  double run_wall = 0;               // Run calls, wall time
  std::vector<double> build_each;    // BuildResult::build_seconds
  std::vector<double> kernel;        // median repeat of each ok candidate
  std::map<std::string, int> kinds;  // outcome counts
};

std::vector<tuner::MeasureInput> BatchInputs(const tuner::Task& task,
                                             const std::vector<space::Config>& configs,
                                             size_t first, size_t batch) {
  std::vector<tuner::MeasureInput> inputs;
  for (size_t i = first; i < std::min(configs.size(), first + batch); ++i) {
    inputs.push_back({&task, configs[i]});
  }
  return inputs;
}

// Builds and measures `configs` in batches. Pipelined: batch k+1 builds (on another thread)
// while batch k is measured, as a tuning loop can overlap them; then build_wall is the time the
// runner waited for builds.
PassStats MeasurePass(const tuner::Task& task, const std::vector<space::Config>& configs,
                      size_t batch, const tuner::MeasureOptions& m, bool pipelined,
                      int parallelism = 2) {
  tuner::LocalBuilderOptions bo;
  bo.measure = m;
  bo.parallelism = parallelism;
  tuner::LocalRunnerOptions ro;
  ro.measure = m;
  auto builder = *tuner::LocalBuilder::Create(bo);
  auto runner = *tuner::LocalRunner::Create(ro);
  // Warm-up, not counted: the reference library, the child process, the reference run.
  std::vector<tuner::MeasureInput> warm = {{&task, configs[0]}};
  runner->Run(warm, builder->Build(warm), 0);

  PassStats st;
  double best = 0;
  const Clock::time_point start = Clock::now();
  std::future<std::vector<tuner::BuildResult>> next;
  auto build_async = [&](size_t first) {
    return std::async(std::launch::async, [&, first] {
      return builder->Build(BatchInputs(task, configs, first, batch));
    });
  };
  if (pipelined) next = build_async(0);
  for (size_t first = 0; first < configs.size(); first += batch) {
    std::vector<tuner::MeasureInput> inputs = BatchInputs(task, configs, first, batch);
    const Clock::time_point t0 = Clock::now();
    std::vector<tuner::BuildResult> builds = pipelined ? next.get() : builder->Build(inputs);
    if (pipelined && first + batch < configs.size()) next = build_async(first + batch);
    const Clock::time_point t1 = Clock::now();
    std::vector<tuner::MeasureResult> results = runner->Run(inputs, builds, best);
    const Clock::time_point t2 = Clock::now();
    st.build_wall += Seconds(t0, t1);
    st.run_wall += Seconds(t1, t2);
    for (size_t i = 0; i < results.size(); ++i) {
      st.build_each.push_back(builds[i].build_seconds);
      st.kinds[std::string(tuner::ErrorKindName(results[i].error_kind))]++;
      if (std::optional<double> med = tuner::MedianSeconds(results[i].repeat_seconds)) {
        st.kernel.push_back(*med);
        if (results[i].error_kind == tuner::ErrorKind::kOk && (best == 0 || *med < best)) {
          best = *med;
        }
      }
    }
    st.candidates += static_cast<int>(inputs.size());
  }
  st.seconds = Seconds(start, Clock::now());
  return st;
}

void PrintPass(const char* title, const PassStats& st, const tuner::MeasureOptions& m) {
  const double n = st.candidates;
  std::printf("%s (number=%d repeat=%d min_repeat_ms=%g):\n", title, m.number, m.repeat,
              m.min_repeat_ms);
  std::printf("  %.1f candidates/s  (%d in %.2f s)   %s\n", n / st.seconds, st.candidates,
              st.seconds, n / st.seconds >= 10 ? "OK (>= 10/s)" : "BELOW the 10/s aim");
  std::printf("  build %6.1f ms/candidate wall waited for (each build took %.1f ms)\n",
              1e3 * st.build_wall / n, 1e3 * Median(st.build_each));
  std::printf("  run   %6.1f ms/candidate wall; kernel median %.3f ms\n", 1e3 * st.run_wall / n,
              1e3 * Median(st.kernel));
  std::printf("  outcomes:");
  for (const auto& [kind, count] : st.kinds) std::printf(" %s=%d", kind.c_str(), count);
  std::printf("\n");
}

// Where one build's time goes, on this thread alone: schedule + lower, LLVM code generation
// and in-memory JIT linking (BuildJit), and the exported library (code generation, object file,
// lld's link in this process).
void BuildBreakdown(const tuner::Task& task, const std::vector<space::Config>& configs) {
  const codegen::LlvmTarget& target = task.target().llvm();
  passes::PassOptions options;
  options.target = passes::LoweringTarget::kLlvm;
  options.verify = false;
  std::vector<double> lower, jit, exported;
  const std::string path = "/tmp/measure_throughput_bench_" + std::to_string(getpid()) + ".so";
  for (size_t i = 0; i < std::min<size_t>(configs.size(), 12); ++i) {
    const Clock::time_point t0 = Clock::now();
    topi::ScheduledOp op = *task.Apply(configs[i]);
    ir::PrimFunc f = *passes::Lower(op.schedule, op.args, "candidate", options);
    const Clock::time_point t1 = Clock::now();
    (void)codegen::BuildJit({f}, target);
    const Clock::time_point t2 = Clock::now();
    (void)codegen::ExportLibrary({f}, target, path);
    const Clock::time_point t3 = Clock::now();
    lower.push_back(Seconds(t0, t1));
    jit.push_back(Seconds(t1, t2));
    exported.push_back(Seconds(t2, t3));
  }
  std::remove(path.c_str());
  std::printf("one build, alone (median of %zu):\n", lower.size());
  std::printf("  apply + lower             %6.1f ms\n", 1e3 * Median(lower));
  std::printf("  LLVM codegen + JIT link   %6.1f ms  (no file, no lld)\n", 1e3 * Median(jit));
  std::printf("  LLVM codegen + .o + lld   %6.1f ms  (ExportLibrary: lld and files ~ %.1f ms)\n",
              1e3 * Median(exported), 1e3 * (Median(exported) - Median(jit)));
}

int Main(int argc, char** argv) {
  int n = 256;  // candidates take about a millisecond here (median 1.2 ms on one core)
  int count = 48;
  size_t batch = 8;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--n") == 0) n = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--candidates") == 0) count = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--batch") == 0) batch = static_cast<size_t>(std::atoi(argv[i + 1]));
  }
  auto task = tuner::Task::FromTemplate({"bench_matmul", {n, n, n}, "float32"},
                                        std::make_unique<BenchMatmul>(n),
                                        tunefarm::target::Target::Host(), topi::DetectHostCpu());
  if (!task.ok()) {
    std::fprintf(stderr, "task: %s\n", std::string(task.status().message()).c_str());
    return 1;
  }
  std::vector<space::Config> configs;
  std::mt19937_64 rng(7);
  std::vector<int64_t> order((*task)->space().size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int64_t>(i);
  std::shuffle(order.begin(), order.end(), rng);
  for (int i = 0; i < count && i < static_cast<int>(order.size()); ++i) {
    configs.push_back(*(*task)->space().Get(order[i]));
  }
  std::printf(
      "measure throughput: matmul %d^3 float32 (%.1f MFLOP), %zu candidates in batches "
      "of %zu, builder parallelism 2, kernels on 1 thread\n",
      n, (*task)->flops() / 1e6, configs.size(), batch);

  tuner::MeasureOptions defaults;
  defaults.threads = 1;
  PassStats d = MeasurePass(**task, configs, batch, defaults, false);
  PrintPass("default options, build then run", d, defaults);
  PassStats dp = MeasurePass(**task, configs, batch, defaults, true);
  PrintPass("default options, pipelined (the next batch builds while this one runs)", dp, defaults);
  PassStats dp1 = MeasurePass(**task, configs, batch, defaults, true, 1);
  PrintPass("default options, pipelined, 1 build thread (leaves a core to the timed kernel)", dp1,
            defaults);
  tuner::MeasureOptions light = defaults;
  light.min_repeat_ms = 5;
  PassStats l = MeasurePass(**task, configs, batch, light, false);
  PrintPass("lighter timing, build then run", l, light);
  tuner::MeasureOptions bare = defaults;
  bare.number = 1;
  bare.repeat = 1;
  bare.min_repeat_ms = 0;
  PassStats b = MeasurePass(**task, configs, batch, bare, false);
  PrintPass("no timing repeats (the pipeline's own cost), build then run", b, bare);
  BuildBreakdown(**task, configs);
  return 0;
}

}  // namespace
}  // namespace tunefarm

int main(int argc, char** argv) { return tunefarm::Main(argc, argv); }
