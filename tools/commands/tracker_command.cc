#include "tools/commands/tracker_command.h"

#include <chrono>
#include <fstream>
#include <optional>
#include <thread>

#include "client/token_file.h"
#include "tools/commands/exit_codes.h"
#include "tracker/build_placement.h"
#include "tracker/free_memory.h"
#include "tracker/service/tracker_server.h"

namespace tunefarm::tools {
namespace {

bool StopRequested(const std::atomic<bool>* stop) {
  return stop != nullptr && stop->load(std::memory_order_relaxed);
}

}  // namespace

int RunTrackerCommand(const TrackerCommandOptions& o, const std::atomic<bool>* stop,
                      std::ostream& out, std::ostream& err) {
  if (o.db.empty() || o.max_jobs < 1 || o.max_trials < 1 || o.max_artifact_mb < 1 ||
      o.build_threads < 0) {
    err << "tunefarm: tracker needs --db, --max-jobs, --max-trials and --max-artifact-mb of at "
           "least 1 and --build-threads of at least 0\n";
    return kExitUsage;
  }
  std::optional<tracker::BuildPlacement> builds = tracker::ParseBuildPlacement(o.builds);
  if (!builds) {
    err << "tunefarm: --builds must be auto, workers or tracker, not '" << o.builds << "'\n";
    return kExitUsage;
  }
  if (o.tls_cert.empty() != o.tls_key.empty()) {
    err << "tunefarm: TLS needs both --tls-cert and --tls-key\n";
    return kExitUsage;
  }
  absl::StatusOr<std::string> token = client::ReadTokenFile(o.token_file);
  if (!token.ok()) {
    err << "tunefarm: " << token.status().message() << "\n";
    return kExitUsage;
  }
  // Engine and build threads share a few arenas, so memory one frees is there for the next.
  tracker::LimitAllocatorArenas(4);
  tracker::TrackerServerOptions options;
  options.listen = o.listen;
  options.db_path = o.db;
  options.token = *token;
  options.tls_cert_file = o.tls_cert;
  options.tls_key_file = o.tls_key;
  options.jobs.max_jobs = o.max_jobs;
  options.jobs.build_parallelism = o.build_threads;
  options.jobs.build_placement = *builds;
  options.jobs.max_trials = o.max_trials;
  options.jobs.max_artifact_bytes = o.max_artifact_mb << 20;
  options.http_listen = o.http;
  absl::StatusOr<std::unique_ptr<tracker::TrackerServer>> server =
      tracker::TrackerServer::Start(options);
  if (!server.ok()) {
    err << "tunefarm: " << server.status().message() << "\n";
    return server.status().code() == absl::StatusCode::kInvalidArgument ? kExitUsage : 1;
  }
  out << "tracker listening on " << (*server)->address() << " (records in " << o.db << ")"
      << std::endl;
  if ((*server)->http_port() != 0) {
    out << "dashboard on http://" << o.http.substr(0, o.http.rfind(':')) << ":"
        << (*server)->http_port() << "/" << std::endl;
  }
  if (!o.port_file.empty()) {
    // Written to a temporary name and renamed, so a reader never sees a half-written port.
    const std::string tmp = o.port_file + ".tmp";
    std::ofstream(tmp) << (*server)->port() << "\n";
    std::rename(tmp.c_str(), o.port_file.c_str());
  }
  while (!StopRequested(stop)) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  out << "tracker stopping; unfinished jobs resume on the next start" << std::endl;
  (*server)->Shutdown();
  return 0;
}

}  // namespace tunefarm::tools
