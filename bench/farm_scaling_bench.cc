// farm_scaling_bench: measured candidates per second through the farm with 1, 2, 4 and 8 local
// workers on a cheap kernel, and the efficiency relative to 1 worker. Per worker count: a fresh
// in-process tracker (127.0.0.1, ephemeral port, a new database so no config is skipped as
// already measured), N in-process rpc_server::Workers on threads (each measures in its own
// child process), one random-search job timed from submit to finished.
// Also prints the tracker-side build time per candidate and how many cores those builds kept
// busy, since on a small machine the tracker's builds, not the workers, bound the rate.
//   BENCH_TRIALS (96)  BENCH_WORKER_COUNTS ("1,2,4,8")  BENCH_REPEAT (1)  BENCH_MIN_REPEAT_MS (1)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "rpc_server/worker.h"
#include "spdlog/spdlog.h"
#include "tracker/service/tracker_server.h"
#include "tuner/record_store.h"

namespace tunefarm {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kWorkload = "matmul:32,32,32:float32";
constexpr const char* kKey = "scaling";

struct RunResult {
  bool ok = false;
  std::string error;
  int batch = 0;
  double seconds = 0;
  tracker::JobStatus job;
  int64_t min_leases = 0, max_leases = 0;  // per worker
  double build_seconds = 0;                // summed over the job's records
  double rate() const { return seconds > 0 ? job.trials_done / seconds : 0; }
};

struct LocalWorker {
  std::unique_ptr<rpc_server::Worker> worker;
  std::thread thread;
};

struct Measure {
  int repeat = 1;
  int min_repeat_ms = 1;
};

RunResult RunFarm(int n, int trials, const Measure& m) {
  RunResult r;
  r.batch = std::max(16, 4 * n);
  char tmpl[] = "/tmp/farm_scaling_XXXXXX";
  if (mkdtemp(tmpl) == nullptr) {
    r.error = "mkdtemp failed";
    return r;
  }
  const std::string dir = tmpl;
  tracker::TrackerServerOptions options;
  options.listen = "127.0.0.1:0";
  options.db_path = dir + "/farm.db";
  options.jobs.work_dir_parent = dir;
  auto server = tracker::TrackerServer::Start(options);
  if (!server.ok()) {
    r.error = std::string(server.status().message());
    std::filesystem::remove_all(dir);
    return r;
  }
  std::vector<LocalWorker> workers(n);
  for (int i = 0; i < n; ++i) {
    rpc_server::WorkerOptions w;
    w.tracker = (*server)->address();
    w.device_key = kKey;
    w.hostname = "scaling-" + std::to_string(i + 1);
    w.work_dir = dir + "/worker" + std::to_string(i + 1);
    auto worker = rpc_server::Worker::Create(w);
    if (!worker.ok()) {
      r.error = std::string(worker.status().message());
      workers.resize(i);
      break;
    }
    workers[i].worker = *std::move(worker);
    rpc_server::Worker* raw = workers[i].worker.get();
    workers[i].thread = std::thread([raw] { (void)raw->Run(); });
  }
  tracker::Dispatcher& dispatcher = (*server)->dispatcher();
  for (int i = 0; i < 600 && r.error.empty() && dispatcher.WorkersFor(kKey) < n; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (r.error.empty() && dispatcher.WorkersFor(kKey) < n) r.error = "workers did not register";

  if (r.error.empty()) {
    tracker::JobSpec spec;
    spec.workload = kWorkload;
    spec.device_key = kKey;
    spec.trials = trials;
    spec.tuner = "random";
    spec.batch_size = r.batch;
    spec.measure.repeat = m.repeat;
    spec.measure.min_repeat_ms = m.min_repeat_ms;
    spec.measure.threads = 1;  // one core per kernel: the workers share the machine's cores
    const Clock::time_point t0 = Clock::now();
    auto job = (*server)->jobs().Submit(spec);
    if (!job.ok()) {
      r.error = std::string(job.status().message());
    } else {
      r.job = *job;
      while (!tracker::IsFinished(r.job.state) && Clock::now() - t0 < std::chrono::minutes(10)) {
        auto next = (*server)->jobs().WaitForChange(r.job.id, r.job.version, 1000);
        if (!next.ok()) break;
        r.job = *next;
      }
      r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
      r.ok = r.job.state == tracker::JobState::kSucceeded;
      if (!r.ok)
        r.error =
            "job ended " + std::string(tracker::JobStateName(r.job.state)) + ": " + r.job.message;
    }
  }
  r.min_leases = INT64_MAX;
  for (LocalWorker& w : workers) {
    const int64_t done = w.worker->stats().leases_done;
    r.min_leases = std::min(r.min_leases, done);
    r.max_leases = std::max(r.max_leases, done);
  }
  if (workers.empty()) r.min_leases = 0;
  for (LocalWorker& w : workers) w.worker->Stop();
  for (LocalWorker& w : workers) w.thread.join();
  (*server)->Shutdown();
  server->reset();
  if (!r.job.id.empty()) {
    if (auto store = tuner::RecordStore::Open(options.db_path); store.ok()) {
      if (auto records = (*store)->JobHistory(r.job.id); records.ok()) {
        for (const tuner::Record& rec : *records) r.build_seconds += rec.build_seconds;
      }
    }
  }
  std::filesystem::remove_all(dir);
  return r;
}

int EnvInt(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::atoi(v) : fallback;
}

int Main() {
  spdlog::set_level(spdlog::level::warn);
  setenv("TUNEFARM_LOG", "worker=warn", 0);  // the workers' own log; a user's setting wins
  const int trials = EnvInt("BENCH_TRIALS", 96);
  Measure m;
  m.repeat = EnvInt("BENCH_REPEAT", 1);
  m.min_repeat_ms = EnvInt("BENCH_MIN_REPEAT_MS", 1);
  const char* counts_env = std::getenv("BENCH_WORKER_COUNTS");
  std::vector<int> counts;
  std::istringstream list(counts_env != nullptr && *counts_env != '\0' ? counts_env : "1,2,4,8");
  for (std::string item; std::getline(list, item, ',');) {
    if (std::atoi(item.c_str()) > 0) counts.push_back(std::atoi(item.c_str()));
  }
  const unsigned cores = std::thread::hardware_concurrency();
  std::printf(
      "farm scaling: %s, random search, %d trials, repeat %d, min_repeat_ms %d, kernels on "
      "1 thread;\n  tracker and workers in this process (each worker measures in its own child), "
      "a fresh database per run\n",
      kWorkload, trials, m.repeat, m.min_repeat_ms);
  std::printf(
      "  this machine has %u cores: the tracker builds every candidate on them too, so beyond %u "
      "workers the efficiency measures the tracker's overhead under CPU contention, not the "
      "farm's scaling; timings are indicative (other work may share the machine)\n",
      cores, cores);
  std::printf("%8s %6s %7s %7s %9s %9s %11s %11s %14s %9s %11s\n", "workers", "batch", "trials",
              "errors", "seconds", "cand/s", "vs 1 worker", "efficiency", "leases/worker",
              "build ms", "build cores");
  double base = 0;
  int failures = 0;
  for (int n : counts) {
    RunResult r = RunFarm(n, trials, m);
    if (!r.error.empty()) {
      std::printf("%8d  FAILED: %s\n", n, r.error.c_str());
      ++failures;
      if (r.job.trials_done == 0) continue;
    }
    if (n == 1 && r.ok) base = r.rate();
    const double speedup = base > 0 ? r.rate() / base : 0;
    char ratio[32] = "-", eff[32] = "-";
    if (base > 0) {
      std::snprintf(ratio, sizeof ratio, "%.2fx", speedup);
      std::snprintf(eff, sizeof eff, "%.0f%%", 100 * speedup / n);
    }
    char leases[32];
    std::snprintf(leases, sizeof leases, "%lld-%lld", static_cast<long long>(r.min_leases),
                  static_cast<long long>(r.max_leases));
    std::printf("%8d %6d %7d %7d %9.2f %9.1f %11s %11s %14s %9.1f %11.2f\n", n, r.batch,
                r.job.trials_done, r.job.errors, r.seconds, r.rate(), ratio, eff, leases,
                r.job.trials_done > 0 ? 1e3 * r.build_seconds / r.job.trials_done : 0.0,
                r.seconds > 0 ? r.build_seconds / r.seconds : 0.0);
  }
  std::printf(
      "  cand/s: recorded trials / (submit -> job finished), all fixed costs included (reference "
      "build, first connection, measure child start); efficiency = rate(N) / (N * rate(1));\n"
      "  build ms: the tracker's compile time per candidate; build cores: those builds' seconds "
      "per "
      "wall second (near the core count: the builds bound the rate)\n");
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace tunefarm

int main() { return tunefarm::Main(); }
