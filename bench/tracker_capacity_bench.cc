// tracker_capacity_bench: can one tracker serve a large fleet? A load generator (SimWorkerFleet,
// gRPC callback client API) registers BENCH_WORKERS simulated workers on 127.0.0.1 across
// BENCH_KEYS device keys, which answer every lease with an ok result; BENCH_JOBS jobs (weights 1
// to 3, spread over the keys) keep work queued for them. Prints registration time, leases/s, the
// dispatch latency (our result written -> the next lease received; aim: p99 under 5 ms), the
// tracker's memory, threads and CPU, and checks that every lease was completed exactly once. It
// stops by itself and tears everything down.
//
// Phases of BENCH_SECONDS each: "saturation" (every lease answered at once: the tracker's
// throughput ceiling, where latency is just workers / throughput), then one "paced" phase per
// BENCH_HOLD_MS entry (each lease held that long on average, like a measurement, so the offered
// load is workers / hold: the latency below saturation; the default holds offer 1,000 results/s).
//
// The tracker runs in a child process (this binary with --tracker-child DIR) so that its RSS and
// CPU are its own. There a feeder thread keeps each key's queue full through
// dispatcher().Submit and lease_sender(), as the job engine does for its jobs' built candidates,
// with tiny MeasureWork items (a 384-byte library with one hash, so each connection receives its
// bytes once), taking the key's jobs in turn. The parent drives it over a pipe: "port P" <- ;
// -> "feed SECONDS TARGET KEYS JOBS"; "fed ..." <- (once all fed items completed) ; -> "quit".
//   BENCH_WORKERS (10000)  BENCH_KEYS (100)  BENCH_JOBS (200)  BENCH_SECONDS (10)
//   BENCH_HOLD_MS (WORKERS ms: 1,000 results/s; "" for none)  BENCH_PER_CHANNEL (100 streams per
//   gRPC channel)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "bench/support/piped_child.h"
#include "bench/support/sim_worker_fleet.h"
#include "runtime/clock.h"
#include "runtime/measure/sha256.h"
#include "spdlog/spdlog.h"
#include "tracker/service/tracker_server.h"

namespace tunefarm {
namespace {

using Clock = std::chrono::steady_clock;

double EnvNumber(const char* name, double fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::atof(v) : fallback;
}

int64_t UnixMs() { return runtime::SystemClock().NowMs(); }

// ---------------------------------------------------------------- the tracker (child process)

// Every fed item's completions, so the benchmark can check exactly-once.
struct Completions {
  std::mutex mu;
  std::vector<int> count;  // by item
  int64_t completed = 0;
  int64_t duplicates = 0;
  int64_t not_ok = 0;

  int64_t Add() {
    std::lock_guard lock(mu);
    count.push_back(0);
    return static_cast<int64_t>(count.size()) - 1;
  }
  void Done(int64_t item, const tracker::WorkOutcome& outcome) {
    std::lock_guard lock(mu);
    if (count[item]++ > 0) ++duplicates;
    ++completed;
    if (outcome.cancelled || outcome.error_kind != tuner::ErrorKind::kOk) ++not_ok;
  }
};

// Keeps `target` items queued in all, spread over the `keys` keys ("sim-K") and their share of
// `jobs` jobs, for `seconds`; then waits (up to 60 s) until every item fed is completed. Answers
// one "fed ..." line.
std::string Feed(tracker::TrackerServer& server, int feed, double seconds, int target, int keys,
                 int jobs) {
  tracker::Dispatcher& dispatcher = server.dispatcher();
  tracker::LeaseSender& sender = server.lease_sender();
  auto done = std::make_shared<Completions>();
  tracker::Artifact library;
  std::string bytes(384, '\0');
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 131 + 7);
  library.sha256 = runtime::measure::Sha256Hex(bytes);
  library.bytes = std::make_shared<const std::string>(std::move(bytes));
  library.name = "sim.so";
  keys = std::max(keys, 1);
  jobs = std::max(jobs, 1);
  const int per_key = std::max(1, (target + keys - 1) / keys);
  std::vector<std::string> key_names;
  std::vector<std::vector<std::string>> key_jobs(keys);  // job j serves key j % keys
  for (int k = 0; k < keys; ++k) key_names.push_back(bench::SimDeviceKey("sim", keys, k));
  for (int j = 0; j < jobs; ++j) {
    const std::string id = "capacity-" + std::to_string(j);
    dispatcher.SetJobWeight(id, 1 + j % 3);
    key_jobs[j % keys].push_back(id);
  }
  std::vector<size_t> next_job(keys, 0);
  int64_t polls = 0, empty_polls = 0;
  const Clock::time_point end = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                   std::chrono::duration<double>(seconds));
  for (bool first = true; Clock::now() < end; first = false) {
    bool all_full = true;
    for (int k = 0; k < keys; ++k) {
      if (key_jobs[k].empty()) continue;
      const int queued = dispatcher.QueuedFor(key_names[k]);
      ++polls;
      if (queued == 0 && !first) ++empty_polls;
      if (queued < per_key) all_full = false;
      for (int i = queued; i < per_key; ++i) {
        tracker::MeasureWork work;
        work.job_id = key_jobs[k][next_job[k]++ % key_jobs[k].size()];
        work.device_key = key_names[k];
        work.library = library;
        const int64_t item = done->Add();
        work.function_name = "f" + std::to_string(feed) + "k" + std::to_string(item);
        work.options.repeat = 1;
        sender.Send(dispatcher.Submit(
            std::move(work), [done, item](const tracker::WorkOutcome& o) { done->Done(item, o); },
            UnixMs()));
      }
    }
    // Polled, not woken per completion: at low rates a busier feeder would cost more CPU than
    // the tracker it measures.
    if (all_full) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const Clock::time_point drain_start = Clock::now();
  bool drained = false;
  while (Clock::now() - drain_start < std::chrono::seconds(60)) {
    {
      std::lock_guard lock(done->mu);
      if (done->completed >= static_cast<int64_t>(done->count.size())) {
        drained = true;
        break;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::lock_guard lock(done->mu);
  std::ostringstream out;
  out << "fed " << done->count.size() << " " << done->completed << " " << done->duplicates << " "
      << done->not_ok << " " << polls << " " << empty_polls << " " << (drained ? 1 : 0) << " "
      << std::chrono::duration<double>(Clock::now() - drain_start).count();
  return out.str();
}

int TrackerChild(const std::string& dir) {
  spdlog::set_level(spdlog::level::warn);  // 1,000 "worker registered" lines say nothing here
  alarm(900);                              // never outlive a stuck parent for long
  tracker::TrackerServerOptions options;
  options.listen = "127.0.0.1:0";
  options.db_path = dir + "/tracker.db";
  FILE* parent = bench::TakeProtocolStdout();
  if (parent == nullptr) return 1;
  auto server = tracker::TrackerServer::Start(options);
  if (!server.ok()) {
    std::fprintf(parent, "error %s\n", std::string(server.status().message()).c_str());
    return 1;
  }
  std::fprintf(parent, "port %d\n", (*server)->port());
  std::fflush(parent);
  std::string line;
  int feeds = 0;
  while (std::getline(std::cin, line)) {  // EOF (the parent died) also ends it
    if (line.rfind("feed ", 0) == 0) {
      double seconds = 0;
      int target = 0, keys = 1, jobs = 1;
      std::istringstream(line.substr(5)) >> seconds >> target >> keys >> jobs;
      alarm(static_cast<unsigned>(seconds) + 900);
      std::fprintf(parent, "%s\n", Feed(**server, ++feeds, seconds, target, keys, jobs).c_str());
      std::fflush(parent);
    } else if (line == "quit") {
      break;
    }
  }
  (*server)->Shutdown();
  return 0;
}

// ---------------------------------------------------------------- the generator (this process)

double Percentile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  return sorted[std::min(sorted.size() - 1, static_cast<size_t>(q * sorted.size()))];
}

// One phase: `seconds` of leases, each held `hold_s` by the simulated workers.
struct Phase {
  std::string name;
  double hold_s = 0;
  int target = 0;      // items kept queued
  int64_t leases = 0;  // received in the window
  double window_s = 0;
  double cpu_s = 0;        // the tracker's, in the window
  double generator_s = 0;  // this process's, in the window
  double rss_load = 0, rss_end = 0;
  int threads_load = 0;
  std::string fed_word;
  int64_t submitted = -1, completed = -1, duplicates = -1, not_ok = -1, polls = 0, empty = 0;
  int drained = 0;
  double drain_s = 0;
  bool exactly_once() const {
    return fed_word == "fed" && drained == 1 && duplicates == 0 && completed == submitted;
  }
};

Phase RunPhase(bench::PipedChild& child, bench::SimWorkerFleet& fleet, const std::string& name,
               double hold_s, double seconds, int target, int keys, int jobs) {
  Phase p;
  p.name = name;
  p.hold_s = hold_s;
  p.target = target;
  fleet.BeginPhase(hold_s);
  const int64_t leases0 = fleet.leases();
  const double cpu0 = bench::ProcCpuSeconds(child.pid);
  const double self0 = bench::ProcCpuSeconds(getpid());
  const Clock::time_point t1 = Clock::now();
  bench::WriteLine(child, "feed " + std::to_string(seconds) + " " + std::to_string(target) + " " +
                              std::to_string(keys) + " " + std::to_string(jobs));
  std::this_thread::sleep_until(
      t1 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds)));
  p.leases = fleet.leases() - leases0;
  p.window_s = std::chrono::duration<double>(Clock::now() - t1).count();
  p.cpu_s = bench::ProcCpuSeconds(child.pid) - cpu0;
  p.generator_s = bench::ProcCpuSeconds(getpid()) - self0;
  p.rss_load = bench::ProcStatusMiB(child.pid, "VmRSS");
  p.threads_load = bench::ProcThreads(child.pid);
  std::istringstream fed(bench::ReadLine(child));  // once every fed item is completed
  fed >> p.fed_word >> p.submitted >> p.completed >> p.duplicates >> p.not_ok >> p.polls >>
      p.empty >> p.drained >> p.drain_s;
  p.rss_end = bench::ProcStatusMiB(child.pid, "VmRSS");
  return p;
}

void PrintPhase(const Phase& p, std::vector<double> lat, int workers) {
  std::sort(lat.begin(), lat.end());
  const double p99 = Percentile(lat, 0.99);
  if (p.hold_s > 0) {
    std::printf("%s: each lease held %.0f ms on average (offered %.0f leases/s)\n", p.name.c_str(),
                1e3 * p.hold_s, workers / p.hold_s);
  } else {
    std::printf("%s: every lease answered at once\n", p.name.c_str());
  }
  std::printf("  leases                %lld in %.1f s: %.0f leases/s\n",
              static_cast<long long>(p.leases), p.window_s, p.leases / p.window_s);
  std::printf(
      "  dispatch latency      p50 %.3f ms  p90 %.3f ms  p99 %.3f ms  max %.3f ms  (%zu samples; "
      "aim p99 < 5 ms: %s)\n",
      1e3 * Percentile(lat, 0.5), 1e3 * Percentile(lat, 0.9), 1e3 * p99,
      lat.empty() ? 0.0 : 1e3 * lat.back(), lat.size(),
      !lat.empty() && p99 < 5e-3 ? "OK" : "MISSED");
  std::printf(
      "  tracker               CPU %.2f s (%.0f%% of one core, %.1f us per lease); RSS %.1f MiB "
      "under load, %.1f MiB drained; %d threads\n"
      "  generator             CPU %.2f s (%.0f%% of one core)\n",
      p.cpu_s, 100 * p.cpu_s / p.window_s, p.leases > 0 ? 1e6 * p.cpu_s / p.leases : 0.0,
      p.rss_load, p.rss_end, p.threads_load, p.generator_s, 100 * p.generator_s / p.window_s);
  std::printf(
      "  queue                 kept at %d items; found empty in %lld of %lld feeder polls\n",
      p.target, static_cast<long long>(p.empty), static_cast<long long>(p.polls));
  std::printf(
      "  exactly once          %s: %lld of %lld fed items completed, %lld twice, %lld not ok "
      "(drained in %.2f s)\n",
      p.exactly_once() ? "OK" : "FAILED", static_cast<long long>(p.completed),
      static_cast<long long>(p.submitted), static_cast<long long>(p.duplicates),
      static_cast<long long>(p.not_ok), p.drain_s);
}

int Generator() {
  const int workers = static_cast<int>(EnvNumber("BENCH_WORKERS", 10000));
  const int keys = std::max(1, static_cast<int>(EnvNumber("BENCH_KEYS", 100)));
  const int jobs = std::max(1, static_cast<int>(EnvNumber("BENCH_JOBS", 200)));
  const double seconds = EnvNumber("BENCH_SECONDS", 10);
  const char* holds_env = std::getenv("BENCH_HOLD_MS");
  std::vector<double> holds_s;  // paced phases
  // By default one paced phase offering 1,000 results/s: each lease held workers ms.
  std::istringstream holds(holds_env != nullptr ? holds_env : std::to_string(workers));
  for (std::string item; std::getline(holds, item, ',');) {
    if (std::atof(item.c_str()) > 0) holds_s.push_back(std::atof(item.c_str()) / 1e3);
  }
  const int per_channel = std::max(1, static_cast<int>(EnvNumber("BENCH_PER_CHANNEL", 100)));
  // Queued: every worker finds its next lease waiting, with room for the feeder's 10 ms polls
  // (at saturation: 100k leases/s); kept small when paced, since it drains at the paced rate.
  const int saturation_target = 2 * workers + 1000, paced_target = 2 * workers;
  char tmpl[] = "/tmp/tracker_capacity_XXXXXX";
  if (mkdtemp(tmpl) == nullptr) return 1;
  const std::string dir = tmpl;
  // Before this process starts any gRPC thread.
  absl::StatusOr<bench::PipedChild> spawned = bench::SpawnPiped(
      {std::filesystem::read_symlink("/proc/self/exe").string(), "--tracker-child", dir});
  if (!spawned.ok()) {
    std::fprintf(stderr, "%s\n", std::string(spawned.status().message()).c_str());
    return 1;
  }
  bench::PipedChild child = *spawned;
  const std::string hello = bench::ReadLine(child);
  if (hello.rfind("port ", 0) != 0) {
    std::fprintf(stderr, "tracker child failed: '%s'\n", hello.c_str());
    bench::EndPiped(child, "quit", 30);
    return 1;
  }
  const std::string address = "127.0.0.1:" + hello.substr(5);
  const double rss_idle = bench::ProcStatusMiB(child.pid, "VmRSS");
  const double self_before = bench::ProcStatusMiB(getpid(), "VmRSS");

  const Clock::time_point t0 = Clock::now();
  auto fleet = bench::SimWorkerFleet::Start({address, workers, per_channel, "sim", keys, 1e-3});
  if (!fleet.ok()) {
    std::fprintf(stderr, "%s\n", std::string(fleet.status().message()).c_str());
    bench::EndPiped(child, "quit", 30);
    return 1;
  }
  const bool all_registered = (*fleet)->WaitRegistered(120);
  const double register_s = std::chrono::duration<double>(Clock::now() - t0).count();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the last registrations settle
  const double rss_registered = bench::ProcStatusMiB(child.pid, "VmRSS");
  const double self_registered = bench::ProcStatusMiB(getpid(), "VmRSS");
  // What the registered fleet costs with no work: heartbeats, the ticker's sweeps, gRPC.
  const double idle_cpu0 = bench::ProcCpuSeconds(child.pid);
  std::this_thread::sleep_for(std::chrono::seconds(2));
  const double idle_cpu = (bench::ProcCpuSeconds(child.pid) - idle_cpu0) / 2;

  std::vector<Phase> phases;
  phases.push_back(
      RunPhase(child, **fleet, "saturation", 0, seconds, saturation_target, keys, jobs));
  const double self_load = bench::ProcStatusMiB(getpid(), "VmRSS");
  for (double hold_s : holds_s) {
    phases.push_back(RunPhase(child, **fleet, "paced", hold_s, seconds, paced_target, keys, jobs));
  }
  const double rss_peak = bench::ProcStatusMiB(child.pid, "VmHWM");
  const Clock::time_point t2 = Clock::now();
  bench::SimFleetStats stats = (*fleet)->Stop(20);
  const double teardown_s = std::chrono::duration<double>(Clock::now() - t2).count();
  fleet->reset();
  bench::EndPiped(child, "quit", 30);
  std::filesystem::remove_all(dir);

  std::map<std::string, int> seen;
  for (const std::string& f : stats.lease_functions) ++seen[f];
  int64_t twice = 0, completed = 0;
  bool once = true;
  for (const auto& [f, n] : seen) twice += n > 1 ? 1 : 0;
  for (const Phase& p : phases) {
    completed += p.completed;
    once = once && p.exactly_once();
  }
  once = once && twice == 0 && stats.leases == completed &&
         static_cast<int64_t>(seen.size()) == completed;

  std::printf(
      "tracker capacity: %d simulated workers over %d device keys (%d per gRPC channel) on "
      "127.0.0.1, %d jobs feeding them (weights 1-3), %.0f s per phase\n",
      workers, keys, per_channel, jobs, seconds);
  std::printf(
      "  the tracker runs in a child process (its RSS and CPU are its own); generator and tracker "
      "share this machine's %u cores, so timings are indicative. Dispatch latency: our result "
      "written -> the next lease received on that stream\n",
      std::thread::hardware_concurrency());
  std::printf("  registered            %d / %d in %.2f s%s\n", stats.registered, workers,
              register_s, all_registered ? "" : "  (NOT ALL)");
  std::printf(
      "  tracker RSS           idle %.1f MiB; %d registered %.1f MiB (%.1f KiB per worker); "
      "peak %.1f MiB\n",
      rss_idle, workers, rss_registered, 1024 * (rss_registered - rss_idle) / workers, rss_peak);
  std::printf("  tracker CPU, no work  %.1f%% of one core with %d workers registered\n",
              100 * idle_cpu, workers);
  std::printf("  generator RSS         %.1f MiB before, %.1f registered, %.1f under load\n",
              self_before, self_registered, self_load);
  for (size_t i = 0; i < phases.size(); ++i) {
    PrintPhase(phases[i],
               i + 1 < stats.dispatch_latency_s.size() ? stats.dispatch_latency_s[i + 1]
                                                       : std::vector<double>{},
               workers);
  }
  std::printf(
      "all phases: %s exactly once: the tracker completed %lld items; the generator got %lld "
      "leases, %zu distinct, %lld twice\n",
      once ? "OK" : "FAILED", static_cast<long long>(completed),
      static_cast<long long>(stats.leases), seen.size(), static_cast<long long>(twice));
  std::printf(
      "teardown: %d streams ended ok, %d ended early%s%s; %lld cancels; library bytes received "
      "%lld (%.0f per stream); stopped in %.2f s\n",
      stats.ended_ok, stats.ended_early,
      stats.first_error.empty() ? "" : ", first error: ", stats.first_error.c_str(),
      static_cast<long long>(stats.cancels), static_cast<long long>(stats.library_bytes),
      stats.streams > 0 ? static_cast<double>(stats.library_bytes) / stats.streams : 0.0,
      teardown_s);
  std::printf(
      "  note: answered at once, the fleet is a closed loop that saturates the tracker, so its "
      "latency is about workers / throughput (Little's law); the paced phases show the latency "
      "below saturation\n");
  return all_registered && once && stats.ended_ok == stats.streams ? 0 : 1;
}

}  // namespace
}  // namespace tunefarm

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--tracker-child") == 0) {
    return tunefarm::TrackerChild(argv[2]);
  }
  return tunefarm::Generator();
}
