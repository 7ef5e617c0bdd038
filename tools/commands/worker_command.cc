#include "tools/commands/worker_command.h"

#include <chrono>
#include <thread>

#include "rpc_server/worker.h"
#include "tools/commands/token_file.h"
#include "tuner/measure/spec_builder.h"

namespace tunefarm::tools {
namespace {

constexpr int kUsageError = 2;

}  // namespace

int RunWorkerCommand(const WorkerCommandOptions& o, const std::atomic<bool>* drain,
                     std::ostream& out, std::ostream& err) {
  if (o.key.empty() || o.tracker.empty()) {
    err << "tunefarm: worker needs --tracker HOST:PORT and --key KEY\n";
    return kUsageError;
  }
  if (o.build_only && o.no_build) {
    err << "tunefarm: --build-only and --no-build exclude each other\n";
    return kUsageError;
  }
  absl::StatusOr<std::string> token = ReadTokenFile(o.token_file);
  if (!token.ok()) {
    err << "tunefarm: " << token.status().message() << "\n";
    return kUsageError;
  }
  rpc_server::WorkerOptions options;
  options.tracker = o.tracker;
  options.device_key = o.key;
  options.target = o.target;
  options.token = *token;
  options.tls_root_cert_file = o.tls_root_cert;
  options.work_dir = o.work_dir;
  // This binary has the compiler: it builds the candidates it is sent as build specs.
  if (!o.no_build) options.builder = std::make_shared<tuner::SpecBuilder>(o.work_dir);
  options.build_only = o.build_only;
  absl::StatusOr<std::unique_ptr<rpc_server::Worker>> worker = rpc_server::Worker::Create(options);
  if (!worker.ok()) {
    err << "tunefarm: " << worker.status().message() << "\n";
    return kUsageError;
  }
  const std::string role = o.build_only ? "builder for " : "worker ";
  out << role << o.key << " serving tracker " << o.tracker << std::endl;
  // Run blocks; a watcher turns the signal flag into a drain.
  std::atomic<bool> done{false};
  std::thread watcher([&] {
    while (!done.load()) {
      if (drain != nullptr && drain->load()) {
        (*worker)->Drain();
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  absl::Status status = (*worker)->Run();
  done = true;
  watcher.join();
  rpc_server::WorkerStats stats = (*worker)->stats();
  out << role << o.key << " done: " << stats.leases_done << " candidates "
      << (o.build_only ? "built" : "measured") << " (" << stats.leases_failed << " not ok)"
      << std::endl;
  if (!status.ok()) {
    err << "tunefarm: " << status.message() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace tunefarm::tools
