#include "tools/commands/worker_command.h"

#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "client/token_file.h"
#include "compiler/target/target.h"
#include "rpc_server/worker.h"
#include "tools/commands/exit_codes.h"
#include "tuner/measure/spec_builder.h"

namespace tunefarm::tools {
namespace {

constexpr int kMaxParallelBuilders = 256;

}  // namespace

int RunWorkerCommand(const WorkerCommandOptions& o, const std::atomic<bool>* drain,
                     std::ostream& out, std::ostream& err) {
  if (o.key.empty() || o.tracker.empty()) {
    err << "tunefarm: worker needs --tracker HOST:PORT and --key KEY\n";
    return kExitUsage;
  }
  if (o.build_only && o.no_build) {
    err << "tunefarm: --build-only and --no-build exclude each other\n";
    return kExitUsage;
  }
  if (o.parallel < 1 || o.parallel > kMaxParallelBuilders || (o.parallel > 1 && !o.build_only)) {
    err << "tunefarm: --parallel must be in 1.." << kMaxParallelBuilders
        << ", and above 1 only with --build-only (measurements run one at a time)\n";
    return kExitUsage;
  }
  // Parsed before the worker registers: a target it cannot name would be leased work it fails.
  if (absl::StatusOr<target::Target> t = target::ParseTarget(o.target); !t.ok()) {
    err << "tunefarm: --target: " << t.status().message() << "\n";
    return kExitUsage;
  }
  absl::StatusOr<std::string> token = client::ReadTokenFile(o.token_file);
  if (!token.ok()) {
    err << "tunefarm: " << token.status().message() << "\n";
    return kExitUsage;
  }
  std::vector<std::unique_ptr<rpc_server::Worker>> workers;
  for (int i = 0; i < o.parallel; ++i) {
    rpc_server::WorkerOptions options;
    options.tracker = o.tracker;
    options.device_key = o.key;
    options.target = o.target;
    options.token = *token;
    options.tls_root_cert_file = o.tls_root_cert;
    // Parallel builders each keep their own libraries: a build's files live until its next one.
    options.work_dir = o.parallel > 1 && !o.work_dir.empty()
                           ? absl::StrCat(o.work_dir, "/builder", i + 1)
                           : o.work_dir;
    // This binary has the compiler: it builds the candidates it is sent as build specs.
    if (!o.no_build) options.builder = std::make_shared<tuner::SpecBuilder>(options.work_dir);
    options.build_only = o.build_only;
    options.gpu = o.device;
    absl::StatusOr<std::unique_ptr<rpc_server::Worker>> worker =
        rpc_server::Worker::Create(options);
    if (!worker.ok()) {
      err << "tunefarm: " << worker.status().message() << "\n";
      return kExitUsage;
    }
    workers.push_back(*std::move(worker));
  }
  const std::string role = o.build_only ? "builder for " : "worker ";
  out << role << o.key << " serving tracker " << o.tracker;
  if (o.parallel > 1) out << " (" << o.parallel << " builders)";
  if (!o.device.empty()) out << " with its OpenCL device " << o.device;
  out << std::endl;
  // Run blocks; a watcher turns the signal flag into a drain of every one.
  std::atomic<bool> done{false};
  std::thread watcher([&] {
    while (!done.load()) {
      if (drain != nullptr && drain->load()) {
        for (auto& w : workers) w->Drain();
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  // One builder that cannot go on (a refused token) stops the rest: they would fail alike.
  std::vector<absl::Status> statuses(workers.size());
  auto run = [&](size_t i) {
    statuses[i] = workers[i]->Run();
    if (!statuses[i].ok()) {
      for (auto& w : workers) w->Stop();
    }
  };
  std::vector<std::thread> runs;
  for (size_t i = 1; i < workers.size(); ++i) runs.emplace_back(run, i);
  run(0);
  for (std::thread& t : runs) t.join();
  done = true;
  watcher.join();
  int64_t leases_done = 0, leases_failed = 0;
  for (const auto& w : workers) {
    leases_done += w->stats().leases_done;
    leases_failed += w->stats().leases_failed;
  }
  out << role << o.key << " done: " << leases_done << " candidates "
      << (o.build_only ? "built" : "measured") << " (" << leases_failed << " not ok)" << std::endl;
  for (const absl::Status& status : statuses) {
    if (!status.ok()) {
      err << "tunefarm: " << status.message() << "\n";
      return 1;
    }
  }
  return 0;
}

}  // namespace tunefarm::tools
