// farm_scaling_bench: how well the farm keeps its devices busy. Per worker count: a fresh
// in-process tracker (127.0.0.1, ephemeral port, a new database so no config is skipped as
// already measured), N in-process rpc_server::Workers on threads, one random-search job timed
// from submit to finished.
//   1. Simulated devices (1, 4, 16, 64 workers): each worker's measure child is
//      simulated-device-measure, which answers a candidate after a fixed device time without
//      running it, while the tracker's builds, dispatch and records are real. Device
//      utilization = leases x device time / (workers x wall time), against what the tracker's
//      build threads can feed at most (build-bound utilization).
//   2. Real measurement (1, 2 workers, each measuring in its own tunefarm-measure child):
//      candidates per second and the efficiency relative to 1 worker.
// Each runs per worker count and build placement (`tracker --builds`): the tracker builds every
// candidate; the workers build their own from build specs (as `tunefarm worker` does); auto, the
// tracker, and idle workers what they would otherwise wait for; builder, workers that cannot
// build (as the slim server on a board) and one `--build-only` builder. Both print the build time
// per candidate and how many cores those builds kept busy: here tracker and workers share one
// machine's cores, so either way the builds bound the rate; on a fleet each device builds on
// its own CPU.
//   BENCH_SIM_WORKER_COUNTS ("1,4,16,64")  BENCH_DEVICE_MS (200)  BENCH_SIM_SECONDS (8: device
//   seconds of work per worker)  BENCH_TRIALS (96)  BENCH_WORKER_COUNTS ("1,2")  BENCH_REPEAT (1)
//   BENCH_MIN_REPEAT_MS (1)  BENCH_BUILDS ("tracker,workers,auto,builder")
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
#include "rpc_server/worker_fleet.h"
#include "spdlog/spdlog.h"
#include "tracker/service/tracker_server.h"
#include "tuner/measure/spec_builder.h"
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
  farm_api::JobStatus job;
  int64_t min_leases = 0, max_leases = 0;  // per worker
  double build_seconds = 0;                // summed over the job's records
  double rate() const { return seconds > 0 ? job.progress.trials_done / seconds : 0; }
};

// Who builds: the tracker's placement, and whether the workers cannot build and one builder
// (`tunefarm worker --build-only`) builds for them.
struct Builds {
  tracker::BuildPlacement placement = tracker::BuildPlacement::kTracker;
  bool builder = false;
  std::string name = "tracker";
};

struct Measure {
  int repeat = 1;
  int min_repeat_ms = 1;
  double simulated_device_ms = 0;  // > 0: workers measure with simulated-device-measure
  // The workers can build unless the tracker builds everything or a builder builds for them.
  Builds builds;
};

RunResult RunFarm(int n, int trials, const Measure& m) {
  RunResult r;
  r.batch = 16;
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
  options.jobs.build_placement = m.builds.placement;
  auto server = tracker::TrackerServer::Start(options);
  if (!server.ok()) {
    r.error = std::string(server.status().message());
    std::filesystem::remove_all(dir);
    return r;
  }
  // The devices, then the builder (the last one, when there is one).
  const int builders = m.builds.builder ? 1 : 0;
  rpc_server::WorkerFleet workers;
  for (int i = 0; i < n + builders; ++i) {
    const bool is_builder = i >= n;
    rpc_server::WorkerOptions w;
    w.tracker = (*server)->address();
    w.device_key = kKey;
    w.hostname = "scaling-" + std::to_string(i + 1);
    w.work_dir = dir + "/worker" + std::to_string(i + 1);
    if (m.simulated_device_ms > 0) {
      w.measure_program = TUNEFARM_SIMULATED_DEVICE;
      w.measure_program_args = {std::to_string(m.simulated_device_ms)};
    }
    if (is_builder ||
        (m.builds.placement != tracker::BuildPlacement::kTracker && !m.builds.builder)) {
      w.builder = std::make_shared<tuner::SpecBuilder>(w.work_dir);
    }
    w.build_only = is_builder;
    if (absl::Status added = workers.Add(w); !added.ok()) {
      r.error = std::string(added.message());
      break;
    }
  }
  tracker::Dispatcher& dispatcher = (*server)->dispatcher();
  auto registered = [&] {
    return dispatcher.WorkersFor(kKey) >= n && dispatcher.BuildOnlyFor(kKey).builders >= builders;
  };
  for (int i = 0; i < 600 && r.error.empty() && !registered(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (r.error.empty() && !registered()) r.error = "workers did not register";

  if (r.error.empty()) {
    farm_api::JobSpec spec;
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
      while (!farm_api::IsFinished(r.job.state) && Clock::now() - t0 < std::chrono::minutes(10)) {
        auto next = (*server)->jobs().WaitForChange(r.job.id, r.job.version, 1000);
        if (!next.ok()) break;
        r.job = *next;
      }
      r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
      r.ok = r.job.state == farm_api::JobState::kSucceeded;
      if (!r.ok)
        r.error =
            "job ended " + std::string(farm_api::JobStateName(r.job.state)) + ": " + r.job.message;
    }
  }
  r.min_leases = INT64_MAX;
  const std::vector<rpc_server::WorkerStats> stats = workers.stats();
  for (int i = 0; i < std::min<int>(n, static_cast<int>(stats.size())); ++i) {
    r.min_leases = std::min(r.min_leases, stats[i].leases_done);
    r.max_leases = std::max(r.max_leases, stats[i].leases_done);
  }
  if (stats.empty()) r.min_leases = 0;
  workers.Stop();
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

// Who builds, per BENCH_BUILDS: a placement's name, or "builder".
std::vector<Builds> EnvBuilds() {
  const char* v = std::getenv("BENCH_BUILDS");
  std::istringstream list(v != nullptr && *v != '\0' ? v : "tracker,workers,auto,builder");
  std::vector<Builds> modes;
  for (std::string item; std::getline(list, item, ',');) {
    Builds b;
    b.name = item;
    if (item == "builder") {
      b.placement = tracker::BuildPlacement::kAuto;
      b.builder = true;
    } else if (auto p = tracker::ParseBuildPlacement(item)) {
      b.placement = *p;
    } else {
      continue;
    }
    modes.push_back(b);
  }
  return modes;
}

std::vector<int> EnvCounts(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  std::vector<int> counts;
  std::istringstream list(v != nullptr && *v != '\0' ? v : fallback);
  for (std::string item; std::getline(list, item, ',');) {
    if (std::atoi(item.c_str()) > 0) counts.push_back(std::atoi(item.c_str()));
  }
  return counts;
}

// Part 1: simulated devices. Returns the number of failed runs.
int SimulatedDevices() {
  Measure m;
  m.simulated_device_ms = EnvInt("BENCH_DEVICE_MS", 200);
  const double work_s = EnvInt("BENCH_SIM_SECONDS", 8);
  std::printf(
      "\n1. simulated devices: each candidate takes %.0f ms on its device (no kernel runs there); "
      "the builds are real (%s; %u cores here)\n",
      m.simulated_device_ms, kWorkload, std::thread::hardware_concurrency());
  std::printf("%8s %8s %7s %9s %9s %12s %14s %9s %11s %12s\n", "workers", "builds", "trials",
              "seconds", "cand/s", "device util", "leases/worker", "build ms", "build cores",
              "build-bound");
  int failures = 0;
  for (int n : EnvCounts("BENCH_SIM_WORKER_COUNTS", "1,4,16,64")) {
    for (const Builds& builds : EnvBuilds()) {
      m.builds = builds;
      // Enough work that each device is busy for BENCH_SIM_SECONDS if the farm keeps up.
      const int trials = std::max(16, static_cast<int>(n * work_s * 1e3 / m.simulated_device_ms));
      RunResult r = RunFarm(n, trials, m);
      if (!r.error.empty()) {
        std::printf("%8d  FAILED: %s\n", n, r.error.c_str());
        ++failures;
        if (r.job.progress.trials_done == 0) continue;
      }
      const double device_s = m.simulated_device_ms / 1e3;
      const double util =
          r.seconds > 0 ? r.job.progress.trials_done * device_s / (n * r.seconds) : 0;
      const double build_s =
          r.job.progress.trials_done > 0 ? r.build_seconds / r.job.progress.trials_done : 0;
      // What the build threads can feed at most: cores / build time candidates per second, against
      // the n / device time the devices could take.
      // A worker that builds its own candidate leaves its device idle meanwhile: at most device /
      // (build + device) per device, whatever the fleet's size.
      double bound =
          build_s > 0
              ? std::min(1.0, std::thread::hardware_concurrency() / build_s / (n / device_s))
              : 1.0;
      if (builds.placement == tracker::BuildPlacement::kWorkers && !builds.builder) {
        bound = std::min(bound, device_s / (build_s + device_s));
      }
      char leases[32];
      std::snprintf(leases, sizeof leases, "%lld-%lld", static_cast<long long>(r.min_leases),
                    static_cast<long long>(r.max_leases));
      std::printf("%8d %8s %7d %9.2f %9.1f %12.2f %14s %9.1f %11.2f %12.2f\n", n,
                  builds.name.c_str(), r.job.progress.trials_done, r.seconds, r.rate(), util,
                  leases, 1e3 * build_s, r.seconds > 0 ? r.build_seconds / r.seconds : 0.0, bound);
    }
  }
  std::printf(
      "  device util: trials x device time / (workers x wall, submit -> job finished; the first "
      "builds and the reference's are in the wall time); build-bound: the most this machine's "
      "cores can feed (cores / build time per candidate vs workers / device time), and when "
      "the workers build everything, also device / (build + device): a device idles while its "
      "worker compiles\n");
  return failures;
}

// Part 2: real measurement.
int RealMeasurement() {
  const int trials = EnvInt("BENCH_TRIALS", 96);
  Measure m;
  m.repeat = EnvInt("BENCH_REPEAT", 1);
  m.min_repeat_ms = EnvInt("BENCH_MIN_REPEAT_MS", 1);
  const unsigned cores = std::thread::hardware_concurrency();
  std::printf(
      "\n2. real measurement: %s, random search, %d trials, repeat %d, min_repeat_ms %d, kernels "
      "on 1 thread;\n  tracker and workers in this process (each worker measures in its own "
      "child), a fresh database per run\n",
      kWorkload, trials, m.repeat, m.min_repeat_ms);
  std::printf(
      "  this machine has %u cores: every candidate is built on them too (by the tracker or the "
      "workers), so beyond %u workers the efficiency measures overhead under CPU contention, not "
      "the farm's scaling; timings are indicative (other work may share the machine)\n",
      cores, cores);
  std::printf("%8s %8s %7s %7s %9s %9s %11s %11s %14s %9s %11s\n", "workers", "builds", "trials",
              "errors", "seconds", "cand/s", "vs 1 worker", "efficiency", "leases/worker",
              "build ms", "build cores");
  int failures = 0;
  for (const Builds& builds : EnvBuilds()) {
    m.builds = builds;
    double base = 0;
    for (int n : EnvCounts("BENCH_WORKER_COUNTS", "1,2")) {
      RunResult r = RunFarm(n, trials, m);
      if (!r.error.empty()) {
        std::printf("%8d  FAILED: %s\n", n, r.error.c_str());
        ++failures;
        if (r.job.progress.trials_done == 0) continue;
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
      std::printf(
          "%8d %8s %7d %7d %9.2f %9.1f %11s %11s %14s %9.1f %11.2f\n", n, builds.name.c_str(),
          r.job.progress.trials_done, r.job.progress.errors, r.seconds, r.rate(), ratio, eff,
          leases,
          r.job.progress.trials_done > 0 ? 1e3 * r.build_seconds / r.job.progress.trials_done : 0.0,
          r.seconds > 0 ? r.build_seconds / r.seconds : 0.0);
    }
  }
  std::printf(
      "  cand/s: recorded trials / (submit -> job finished), all fixed costs included (reference "
      "build, first connection, measure child start); efficiency = rate(N) / (N * rate(1));\n"
      "  build ms: compile time per candidate (the tracker's or the worker's); build cores: those "
      "builds' seconds per wall second (near the core count: the builds bound the rate)\n");
  return failures;
}

int Main() {
  spdlog::set_level(spdlog::level::warn);
  setenv("TUNEFARM_LOG", "worker=warn", 0);  // the workers' own log; a user's setting wins
  std::printf(
      "farm scaling: the job engine keeps candidates in flight (built while earlier ones "
      "are measured)\n");
  const int failures = SimulatedDevices() + RealMeasurement();
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace tunefarm

int main() { return tunefarm::Main(); }
