// `tunefarm tracker --listen 127.0.0.1:9190 --db farm.db`: runs the farm's tracker (workers
// connect to it, clients submit jobs to it) until Ctrl-C or SIGTERM; unfinished jobs resume on
// the next start with the same database.
#pragma once

#include <atomic>
#include <cstdint>
#include <ostream>
#include <string>

namespace tunefarm::tools {

struct TrackerCommandOptions {
  std::string listen = "127.0.0.1:9190";  // port 0: an ephemeral port
  std::string db = "farm.db";
  std::string token_file;  // workers and clients must present this token
  std::string tls_cert;    // PEM; with tls_key: serve TLS
  std::string tls_key;
  int max_jobs = 1000;
  int build_threads = 0;        // candidates compiled at once across all jobs; 0: the cores
  std::string builds = "auto";  // where candidates are compiled: auto, workers or tracker
  int max_trials = 100000;
  int64_t max_artifact_mb = 64;
  std::string port_file;  // the bound port is written here once listening (scripts, tests)
  std::string http;       // the web dashboard and /metrics, HOST:PORT (port 0: any); empty: off
};

// 0 after a clean stop (`stop` set); 1 with "tunefarm: ..." when the tracker cannot start (the
// address is taken, the database cannot be opened); 2 for bad options.
int RunTrackerCommand(const TrackerCommandOptions& options, const std::atomic<bool>* stop,
                      std::ostream& out, std::ostream& err);

}  // namespace tunefarm::tools
