// model_tune_bench: whole models tuned through a local farm (a tracker and one worker of this
// machine, both in this process), timed after each checkpoint of tuning time against the untuned
// build, PyTorch eager and PyTorch's frozen optimized path, all measured in this run at the same
// thread count. At each checkpoint the model job is cancelled so the machine is quiet while the
// module built with the best records so far is timed (in a fresh `tunefarm model run --time`
// process, as every module here); the next model job resumes from every
// record (nothing is measured twice); the untuned module is timed again right after, so that
// one disturbed timing cannot skew every row. After the last checkpoint every checkpoint's module
// and the untuned one are timed again, 3 times each in turns, so that the rows compare under the
// same conditions (one fresh-process timing swings 7 %). The last lines compare the gradient task
// scheduler
// with round-robin on the same budget (BENCH_COMPARE_TRIALS trials each, 0: skip), both modules
// and the untuned one timed 5 times in turns. Candidates are
// timed as `tunefarm model tune` times them, the weights evicted before each call (BENCH_TIMING).
//
//   model_tune_bench [MODEL_DIR] [MODEL...]   (default /tmp/models; resnet18 mobilenet_v2 vgg16)
//   BENCH_MINUTES=5,10,20,30  checkpoints, minutes of tuning from the start
//   BENCH_THREADS=1,2         thread counts (each its own device key and records)
//   BENCH_COMPARE_TRIALS=0    trials for the scheduler comparison (per model, first thread count)
//   BENCH_KEEP=0              1: keep each run's folder (its farm.db and modules) and print it
//   BENCH_TIMING=weights      hot (back to back), weights or cold (10 one-call repeats, the
//                             weights or every cache flushed before each)
//   BENCH_LAYOUTS=0           1: tune every channel block of each conv and the transforms
//                             between them (`model tune --layouts`), the builds choosing blocks
//   BENCH_RACE=0              1: after the last checkpoint, also build with `model build --race`
//                             (each conv's close rival algorithms timed in the model) and time
//                             that module in turns with the others
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "bench/support/piped_child.h"
#include "bench/support/pytorch_reference.h"
#include "driver/model_compiler.h"
#include "driver/model_tuning_tasks.h"
#include "rpc_server/worker.h"
#include "rpc_server/worker_fleet.h"
#include "spdlog/spdlog.h"
#include "tracker/service/tracker_server.h"
#include "tuner/measure/spec_builder.h"

namespace tunefarm {
namespace {

std::vector<int> IntList(const char* env, const char* fallback) {
  const char* text = std::getenv(env);
  std::vector<int> out;
  for (absl::string_view part : absl::StrSplit(text != nullptr ? text : fallback, ',')) {
    int v = 0;
    if (absl::SimpleAtoi(part, &v) && v >= 0) out.push_back(v);
  }
  return out;
}

// The module timed by `tunefarm model run --time` in a fresh process, as a user runs it. Timed
// in this process instead, after minutes of the farm compiling thousands of candidates here, the
// same tuned VGG-16 module ran 179 ms against 118-124 ms fresh; the untuned one, timed before
// the farm started, did not show it. A fresh process gives every build the same conditions.
absl::StatusOr<double> TimeInFreshProcess(const std::string& module, int threads) {
  const std::filesystem::path cli =
      std::filesystem::read_symlink("/proc/self/exe").parent_path() / "tunefarm";
  absl::StatusOr<bench::PipedChild> child = bench::SpawnPiped(
      {cli.string(), "model", "run", module, "--time", "--threads", std::to_string(threads)});
  if (!child.ok()) return child.status();
  double ms = 0;
  for (std::string line = bench::ReadLine(*child); !line.empty(); line = bench::ReadLine(*child)) {
    if (std::sscanf(line.c_str(), "median_ms=%lf", &ms) == 1) break;
  }
  bench::EndPiped(*child, "", 60);
  if (!(ms > 0)) return absl::UnavailableError(absl::StrCat(cli.string(), " timed nothing"));
  return ms;
}

// The model built into `module`, with the farm's records for `device_key` when set.
absl::Status BuildModule(const std::string& onnx, const std::string& db,
                         const std::string& device_key, const std::string& module) {
  driver::ModelCompileOptions options;
  options.input_shapes["input"] = {1, 3, 224, 224};
  if (!device_key.empty()) {
    options.db = db;
    options.device_key = device_key;
  }
  absl::StatusOr<driver::CompiledModel> compiled =
      driver::CompileModel(onnx, options, target::Target::Host());
  if (!compiled.ok()) return compiled.status();
  return driver::ExportCompiledModel(*compiled, module);
}

// BuildModule, then timed in a fresh process.
absl::StatusOr<double> BuildAndTime(const std::string& onnx, const std::string& db,
                                    const std::string& device_key, const std::string& module,
                                    int threads) {
  if (absl::Status s = BuildModule(onnx, db, device_key, module); !s.ok()) return s;
  return TimeInFreshProcess(module, threads);
}

// The median of `rounds` fresh-process timings of each module, the modules taken in turn: one
// timing swings by 10 % on this VM (an identical module read 21.7 and 23.7 ms in one run), and
// turns spread a slow spell over all of them. 0 for a module that timed nothing.
std::vector<double> TimeInTurns(const std::vector<std::string>& modules, int threads, int rounds) {
  std::vector<std::vector<double>> times(modules.size());
  for (int r = 0; r < rounds; ++r) {
    for (size_t m = 0; m < modules.size(); ++m) {
      absl::StatusOr<double> ms = TimeInFreshProcess(modules[m], threads);
      if (ms.ok()) times[m].push_back(*ms);
    }
  }
  std::vector<double> medians;
  for (std::vector<double>& t : times) {
    std::sort(t.begin(), t.end());
    medians.push_back(t.empty() ? 0 : t[t.size() / 2]);
  }
  return medians;
}

// `tunefarm model build --race` of the farm's records into `module`, in a fresh process as the
// timings are; its race lines are printed as they come.
absl::Status BuildRaced(const std::string& onnx, const std::string& db,
                        const std::string& device_key, const std::string& module, int threads) {
  const std::filesystem::path cli =
      std::filesystem::read_symlink("/proc/self/exe").parent_path() / "tunefarm";
  absl::StatusOr<bench::PipedChild> child = bench::SpawnPiped(
      {cli.string(), "model", "build", onnx, "--input-shape", "input=1,3,224,224", "--db", db,
       "--device-key", device_key, "--race", "--threads", std::to_string(threads), "-o", module});
  if (!child.ok()) return child.status();
  for (std::string line = bench::ReadLine(*child); !line.empty(); line = bench::ReadLine(*child)) {
    if (line.rfind("race", 0) == 0 || line.rfind("  conv2d", 0) == 0) {
      std::printf("  %s\n", line.c_str());
      std::fflush(stdout);
    }
  }
  bench::EndPiped(*child, "", 60);
  if (!std::filesystem::exists(module)) {
    return absl::InternalError(absl::StrCat(cli.string(), " model build --race wrote nothing"));
  }
  return absl::OkStatus();
}

// A tracker and one worker of this machine, in this process.
struct LocalFarm {
  std::unique_ptr<tracker::TrackerServer> server;
  rpc_server::WorkerFleet worker;  // declared after the server: stopped and joined before it
};

absl::Status StartFarm(const std::string& dir, const std::string& key, LocalFarm& farm) {
  tracker::TrackerServerOptions options;
  options.listen = "127.0.0.1:0";
  options.db_path = dir + "/farm.db";
  options.jobs.work_dir_parent = dir;
  absl::StatusOr<std::unique_ptr<tracker::TrackerServer>> server =
      tracker::TrackerServer::Start(options);
  if (!server.ok()) return server.status();
  farm.server = *std::move(server);
  rpc_server::WorkerOptions w;
  w.tracker = farm.server->address();
  w.device_key = key;
  w.work_dir = dir + "/worker";
  w.builder = std::make_shared<tuner::SpecBuilder>(w.work_dir);
  if (absl::Status added = farm.worker.Add(w); !added.ok()) return added;
  for (int i = 0; i < 600 && farm.server->dispatcher().WorkersFor(key) < 1; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (farm.server->dispatcher().WorkersFor(key) < 1) {
    return absl::UnavailableError("the worker did not register");
  }
  return absl::OkStatus();
}

farm_api::ModelJobSpec Spec(const driver::ModelTuning& tuning, const std::string& key, int threads,
                            int trials, bool round_robin) {
  farm_api::ModelJobSpec spec;
  spec.model_name = "bench";
  spec.tasks = farm_api::ModelTaskSpecsOf(tuning.tasks);
  spec.layout = tuning.layout;
  spec.device_key = key;
  spec.trials = trials;
  spec.batch_size = 16;
  spec.parallel_tasks = 1;  // one worker: one task's batch at a time keeps it busy
  // As `tunefarm model tune --timing hot|weights|cold` times a model's tasks (BENCH_TIMING).
  tuner::CacheFlush flush = tuner::CacheFlush::kWeights;
  const char* timing = std::getenv("BENCH_TIMING");
  if (timing != nullptr) {
    auto chosen = runtime::measure::TimingChoices().find(timing);
    if (chosen != runtime::measure::TimingChoices().end()) flush = chosen->second;
  }
  spec.measure.threads = threads;
  spec.measure.repeat = flush != tuner::CacheFlush::kNone ? 10 : 3;
  runtime::measure::ApplyTiming(flush, spec.measure);
  spec.round_robin = round_robin;
  return spec;
}

// Runs a model job until `until` (cancelling it then) or until it ends; its trials.
int RunUntil(tracker::ModelJobManager& jobs, const farm_api::ModelJobSpec& spec,
             std::chrono::steady_clock::time_point until) {
  absl::StatusOr<farm_api::ModelJobStatus> job = jobs.Submit(spec);
  if (!job.ok()) {
    std::fprintf(stderr, "model_tune_bench: %s\n", std::string(job.status().message()).c_str());
    return 0;
  }
  farm_api::ModelJobStatus now = *job;
  while (!farm_api::IsFinished(now.state) && std::chrono::steady_clock::now() < until) {
    absl::StatusOr<farm_api::ModelJobStatus> next = jobs.WaitForChange(job->id, now.version, 1000);
    if (next.ok()) now = *next;
  }
  if (!farm_api::IsFinished(now.state)) {
    absl::StatusOr<farm_api::ModelJobStatus> cancelled = jobs.Cancel(job->id);
    if (cancelled.ok()) now = *cancelled;
  }
  return now.trials_done;
}

int Run(int argc, char** argv) {
  // The table is the output: the farm's log lines (a line per job) would bury it.
  spdlog::set_level(spdlog::level::warn);
  const std::string dir = argc > 1 ? argv[1] : "/tmp/models";
  std::vector<std::string> models;
  for (int i = 2; i < argc; ++i) models.push_back(argv[i]);
  if (models.empty()) models = {"resnet18", "mobilenet_v2", "vgg16"};
  const std::vector<int> minutes = IntList("BENCH_MINUTES", "5,10,20,30");
  const std::vector<int> thread_counts = IntList("BENCH_THREADS", "1,2");
  const std::vector<int> compare = IntList("BENCH_COMPARE_TRIALS", "0");
  const char* keep_env = std::getenv("BENCH_KEEP");
  const bool keep = keep_env != nullptr && std::string_view(keep_env) == "1";
  // A run's folder goes once its lines are printed, unless BENCH_KEEP asks to look into it.
  auto dispose = [keep](const std::string& work) {
    if (keep) {
      std::printf("kept %s (farm.db and the modules)\n", work.c_str());
      return;
    }
    std::error_code ec;
    std::filesystem::remove_all(work, ec);
  };
  const char* layouts_env = std::getenv("BENCH_LAYOUTS");
  const bool layouts = layouts_env != nullptr && std::string_view(layouts_env) == "1";
  std::printf(
      "model_tune_bench: batch 1, 3x224x224, a local farm of 1 worker%s; x_* = PyTorch's "
      "time / ours (above 1: we are faster)\n",
      layouts ? ", every conv's channel blocks tuned (--layouts)" : "");
  std::printf("%-13s %3s %5s %7s %10s %10s %10s %10s %8s %8s\n", "model", "thr", "min", "trials",
              "tuned_ms", "untuned_ms", "eager_ms", "frozen_ms", "x_eager", "x_frozen");
  for (const std::string& name : models) {
    absl::StatusOr<std::string> exported_onnx = bench::ExportedModel(dir, name);
    if (!exported_onnx.ok()) {
      std::fprintf(stderr, "model_tune_bench: %s\n",
                   std::string(exported_onnx.status().message()).c_str());
      return 1;
    }
    const std::string& onnx = *exported_onnx;
    driver::ModelTuningRequest extract;
    extract.file = onnx;
    extract.compile.input_shapes["input"] = {1, 3, 224, 224};
    extract.layouts = layouts ? driver::LayoutTuning::kOn : driver::LayoutTuning::kOff;
    absl::StatusOr<driver::ModelTuning> tasks =
        driver::ModelTuningTasks(extract, tuner::TuningRequest(), target::Target::Host());
    if (!tasks.ok()) {
      std::fprintf(stderr, "model_tune_bench: %s\n", std::string(tasks.status().message()).c_str());
      return 1;
    }
    for (int threads : thread_counts) {
      char tmpl[] = "/tmp/tf-model-tune-bench-XXXXXX";
      if (mkdtemp(tmpl) == nullptr) return 1;
      const std::string work = tmpl;
      const std::string key = "bench-" + std::to_string(threads) + "t";
      const std::string untuned_module = work + "/untuned.so";
      absl::StatusOr<double> untuned = BuildAndTime(onnx, "", "", untuned_module, threads);
      absl::StatusOr<bench::PytorchTimes> torch = bench::MeasurePytorch(name, threads);
      if (!untuned.ok() || !torch.ok()) {
        std::fprintf(
            stderr, "model_tune_bench: %s: %s\n", name.c_str(),
            std::string((!untuned.ok() ? untuned.status() : torch.status()).message()).c_str());
        return 1;
      }
      std::printf("%-13s %3d %5d %7d %10s %10.2f %10.2f %10.2f %8.2f %8.2f\n", name.c_str(),
                  threads, 0, 0, "-", *untuned, torch->eager_ms, torch->frozen_ms,
                  torch->eager_ms / *untuned, torch->frozen_ms / *untuned);
      std::fflush(stdout);
      LocalFarm farm;
      if (absl::Status s = StartFarm(work, key, farm); !s.ok()) {
        std::fprintf(stderr, "model_tune_bench: %s\n", std::string(s.message()).c_str());
        return 1;
      }
      // Tuning time only: the clock stops while a checkpoint builds and times the module.
      double tuned_s = 0;
      std::vector<std::string> modules;  // each checkpoint's
      int trials = 0;
      for (int checkpoint : minutes) {
        const double left = checkpoint * 60.0 - tuned_s;
        if (left > 0) {
          const auto start = std::chrono::steady_clock::now();
          trials += RunUntil(farm.server->model_jobs(), Spec(*tasks, key, threads, 100000, false),
                             start + std::chrono::milliseconds(static_cast<int64_t>(left * 1e3)));
          tuned_s +=
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        }
        modules.push_back(absl::StrCat(work, "/model-", checkpoint, "min.so"));
        absl::StatusOr<double> tuned =
            BuildAndTime(onnx, work + "/farm.db", key, modules.back(), threads);
        // The untuned module again, right after: a disturbed timing at the start would skew
        // every row's ratio on a noisy machine.
        untuned = tuned.ok() ? TimeInFreshProcess(untuned_module, threads) : tuned.status();
        if (!untuned.ok()) {
          std::fprintf(stderr, "model_tune_bench: %s\n",
                       std::string(untuned.status().message()).c_str());
          return 1;
        }
        std::printf("%-13s %3d %5d %7d %10.2f %10.2f %10.2f %10.2f %8.2f %8.2f\n", name.c_str(),
                    threads, checkpoint, trials, *tuned, *untuned, torch->eager_ms,
                    torch->frozen_ms, torch->eager_ms / *tuned, torch->frozen_ms / *tuned);
        std::fflush(stdout);
      }
      const char* race_env = std::getenv("BENCH_RACE");
      const bool raced = race_env != nullptr && std::string_view(race_env) == "1";
      if (raced) {
        modules.push_back(work + "/raced.so");
        if (absl::Status s = BuildRaced(onnx, work + "/farm.db", key, modules.back(), threads);
            !s.ok()) {
          std::fprintf(stderr, "model_tune_bench: %s\n", std::string(s.message()).c_str());
          return 1;
        }
      }
      if (modules.size() > 1) {
        modules.push_back(untuned_module);
        constexpr int kRounds = 3;
        const std::vector<double> ms = TimeInTurns(modules, threads, kRounds);
        std::string line = absl::StrFormat(
            "%s at %d thread(s), every module again, medians of %d fresh-process timings in "
            "turns: untuned %.2f ms",
            name, threads, kRounds, ms.back());
        for (size_t i = 0; i + 1 < ms.size(); ++i) {
          const std::string label = i < minutes.size() ? absl::StrCat(minutes[i], " min")
                                                       : absl::StrCat(minutes.back(), " min raced");
          absl::StrAppendFormat(&line, ", %s %.2f ms (x_frozen %.2f)", label, ms[i],
                                ms[i] > 0 ? torch->frozen_ms / ms[i] : 0);
        }
        std::printf("%s\n", line.c_str());
        std::fflush(stdout);
      }
      dispose(work);
    }
    // The scheduler against round-robin: the same budget from an empty database each.
    if (!compare.empty() && compare[0] > 0 && !thread_counts.empty()) {
      const int threads = thread_counts[0];
      // Both modules are built first and then timed in turns (TimeInTurns), with the untuned one.
      std::vector<std::string> works, modules;
      for (int rr = 0; rr < 2; ++rr) {
        char tmpl[] = "/tmp/tf-model-tune-bench-XXXXXX";
        if (mkdtemp(tmpl) == nullptr) return 1;
        const std::string work = tmpl;
        works.push_back(work);
        const std::string key = "bench-cmp";
        {
          LocalFarm farm;
          if (absl::Status s = StartFarm(work, key, farm); !s.ok()) return 1;
          RunUntil(farm.server->model_jobs(), Spec(*tasks, key, threads, compare[0], rr == 1),
                   std::chrono::steady_clock::now() + std::chrono::hours(24));
        }
        modules.push_back(work + "/model.so");
        if (absl::Status s = BuildModule(onnx, work + "/farm.db", key, modules.back()); !s.ok()) {
          std::fprintf(stderr, "model_tune_bench: %s\n", std::string(s.message()).c_str());
          return 1;
        }
      }
      modules.push_back(works[0] + "/untuned.so");
      if (absl::Status s = BuildModule(onnx, "", "", modules.back()); !s.ok()) return 1;
      constexpr int kRounds = 5;
      const std::vector<double> ms = TimeInTurns(modules, threads, kRounds);
      for (const std::string& work : works) dispose(work);
      std::printf(
          "%s, %d trials at %d thread(s), medians of %d fresh-process timings in turns: gradient "
          "%.2f ms, round-robin %.2f ms, untuned %.2f ms; round-robin / gradient = %.3f\n",
          name.c_str(), compare[0], threads, kRounds, ms[0], ms[1], ms[2],
          ms[0] > 0 ? ms[1] / ms[0] : 0);
      std::fflush(stdout);
    }
  }
  return 0;
}

}  // namespace
}  // namespace tunefarm

int main(int argc, char** argv) { return tunefarm::Run(argc, argv); }
