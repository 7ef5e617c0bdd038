// Worker: the device-side rpc_server. It connects out to one tracker, registers what this
// device is, keeps a heartbeat, and measures each lease it gets in an isolated child process
// (checked against the reference, timed), reporting the outcome; it reconnects with backoff when
// the tracker goes away and drains (finishes its lease, takes no more) on request.
// gRPC types stay out of this header; the slim binary and `tunefarm worker` both use it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/measure/candidate_builder.h"

namespace tunefarm::rpc_server {

struct WorkerOptions {
  std::string tracker = "127.0.0.1:9190";  // HOST:PORT; the only tracker it takes work from
  std::string device_key;                  // required
  std::string target = "llvm";
  std::string token;               // sent as "authorization: Bearer <token>"
  std::string tls_root_cert_file;  // set: TLS, verifying the tracker against this CA
  // The measure child: a program serving the measure protocol on stdin/stdout, plus its args.
  // Empty: runtime::measure::FindMeasureProgram() (tunefarm-measure).
  std::string measure_program;
  std::vector<std::string> measure_program_args;
  // Remote sessions each run in a process of this program (serving --serve-sessions), after
  // its args. Empty: FindSessionProgram() (tunefarm-rpc-server).
  std::string session_program;
  std::vector<std::string> session_program_args;
  int64_t session_memory_bytes = int64_t{2} << 30;  // arrays + libraries, per session
  int max_sessions = 8;                             // open at once on this worker
  std::string work_dir;  // where artifacts are cached; empty: a fresh dir in $TMPDIR
  int64_t max_artifact_cache_bytes = 1ll << 30;
  double reconnect_initial_s = 0.2;  // backoff doubles up to reconnect_max_s, with jitter
  double reconnect_max_s = 10;
  // Give up after this long without a successful connection (0: retry forever).
  double give_up_after_s = 0;
  std::string hostname;  // empty: gethostname()
  // Set: the worker registers can_build and compiles the leases sent to it as a BuildSpec (one
  // at a time, on its executor thread, before measuring). Null: it only measures libraries.
  std::shared_ptr<runtime::measure::CandidateBuilder> builder;
  // With `builder`: a builder for the devices of `device_key` that cannot build (`tunefarm
  // worker --build-only`). It registers build_only, takes only build-only leases and sends the
  // libraries back; `target` is the one it compiles for.
  bool build_only = false;
  // Declared emulated (`--emulator`): registered so, as a detected emulator is (device_info.h).
  bool emulated = false;
  // "opencl" or "opencl:P:D": serve that OpenCL device instead of the CPU (served_gpu.h): it is
  // registered with what its driver says of it, `target` defaults to its `opencl` profile, and
  // the measure children run candidates on it.
  std::string gpu;
};

struct WorkerStats {
  int64_t leases_done = 0;
  int64_t leases_failed = 0;  // outcomes other than ok
  int64_t connections = 0;    // successful registrations
  std::string worker_id;      // of the current or last registration
};

class Worker {
 public:
  static absl::StatusOr<std::unique_ptr<Worker>> Create(WorkerOptions options);
  ~Worker();

  // Runs until Stop() or Drain() completes, or give_up_after_s passes without a tracker.
  // Returns OK after a stop or drain; Unauthenticated when the tracker refuses the token
  // (retrying cannot help); Unavailable after giving up.
  absl::Status Run();
  // Finish the lease in hand, tell the tracker, then return from Run (SIGTERM).
  void Drain();
  // Return from Run as soon as possible; a lease in hand is abandoned (the tracker re-queues it).
  void Stop();

  WorkerStats stats() const;

  struct Impl;

 private:
  explicit Worker(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace tunefarm::rpc_server
