// TEMPORARY: a crude random + hill-climb tuner to see what the spaces can reach (deleted before
// hand-off).
#include <gtest/gtest.h>
#include <cstdio>
#include <cstdlib>
#include "compiler/space/config_json.h"
#include "absl/strings/str_split.h"
#include "runtime/time_evaluator.h"
#include "tests/unit/tuner/templates/template_harness.h"

namespace tunefarm::tuner {
namespace {

double TimeConfig(const Task& task, const space::Config& c, int threads) {
  absl::StatusOr<topi::ScheduledOp> op = task.Apply(c);
  if (!op.ok()) return 1e9;
  passes::PassOptions options;
  options.target = "llvm";
  absl::StatusOr<ir::PrimFunc> f = passes::Lower(op->schedule, op->args, "kernel", options);
  if (!f.ok()) return 1e9;
  static const codegen::Target target = *codegen::ParseTarget("llvm");
  auto module = codegen::BuildJit({*f}, target);
  if (!module.ok()) return 1e9;
  auto kernel = (*module)->GetFunction("kernel");
  if (!kernel.ok()) return 1e9;
  std::vector<runtime::NDArray> arrays = testing::MakeArgs(*op);
  std::vector<runtime::PackedArg> packed;
  for (auto& a : arrays) packed.emplace_back(&a);
  runtime::SetNumThreads(threads);
  runtime::TimeEvaluatorOptions o;
  o.repeat = 5;
  o.min_repeat_ms = 40;
  o.warmup = 1;
  auto s = runtime::TimeFunction([&] { return kernel->Call(packed); }, o);
  runtime::SetNumThreads(0);
  if (!s.ok()) return 1e9;
  return runtime::Summarize(*s).median;
}

TEST(DISABLED_TuneReport, Run) {
  const char* keys = std::getenv("TUNE_KEYS");
  const int n = std::getenv("TUNE_N") ? std::atoi(std::getenv("TUNE_N")) : 20;
  const int threads = std::getenv("TUNE_THREADS") ? std::atoi(std::getenv("TUNE_THREADS")) : 2;
  std::vector<std::string> list = absl::StrSplit(keys ? keys : "matmul:256,256,256", ';');
  for (const std::string& key : list) {
    auto task = testing::MakeTask(key);
    ASSERT_NE(task, nullptr);
    space::Config best = *task->DefaultConfig();
    const double def_t = TimeConfig(*task, best, threads);
    double best_t = def_t;
    std::mt19937_64 rng(7);
    for (int i = 0; i < n; ++i) {
      auto c = space::SampleValidConfig(task->space(), rng);
      double t = TimeConfig(*task, *c, threads);
      if (t < best_t) { best_t = t; best = *c; }
    }
    // Hill-climb: one knob at a time over all its values, two rounds.
    for (int round = 0; round < 2; ++round) {
      for (int k = 0; k < task->space().num_knobs(); ++k) {
        for (int64_t v = 0; v < task->space().knob(k).size(); ++v) {
          std::vector<int64_t> idx = best.knob_indices();
          if (idx[k] == v) continue;
          idx[k] = v;
          auto c = task->space().FromKnobIndices(idx);
          if (!c.ok() || !task->space().IsValid(*c)) continue;
          double t = TimeConfig(*task, *c, threads);
          if (t < best_t) { best_t = t; best = *c; }
        }
      }
    }
    const double def_again = TimeConfig(*task, *task->DefaultConfig(), threads);
    const double best_again = TimeConfig(*task, best, threads);
    std::printf("%s threads %d: default %.1f GFLOPS (again %.1f), tuned %.1f GFLOPS (again %.1f) %s\n",
                key.c_str(), threads, task->flops() / def_t * 1e-9, task->flops() / def_again * 1e-9,
                task->flops() / best_t * 1e-9, task->flops() / best_again * 1e-9,
                space::ConfigToJson(best).c_str());
    std::fflush(stdout);
  }
}

}  // namespace
}  // namespace tunefarm::tuner
