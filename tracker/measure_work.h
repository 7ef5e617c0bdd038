// What the tracker sends a worker to measure (one candidate, its libraries shared by hash) and
// what comes back: the unit the dispatcher queues, leases and completes exactly once.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "runtime/measure/build_spec.h"
#include "runtime/measure/measure_options.h"
#include "tuner/record.h"

namespace tunefarm::tracker {

// A built library, held in memory and named by the SHA-256 of its bytes (lowercase hex), so a
// worker receives each distinct library once per connection.
struct Artifact {
  std::string sha256;
  std::shared_ptr<const std::string> bytes;
  std::string name;  // a file name hint ("candidate.so")
};

// Reads the file and hashes it. NotFound / ResourceExhausted (over `max_bytes`) name the file.
absl::StatusOr<Artifact> LoadArtifact(const std::string& path, int64_t max_bytes);

struct MeasureWork {
  std::string job_id;
  std::string device_key;  // only workers of this key may take it
  // Set: the worker compiles the candidate itself, so only a worker that can build may take it;
  // `library` and `reference` are then empty.
  std::optional<runtime::measure::BuildSpec> build;
  // With `build`: only a builder of the key (a worker registered build_only) may take it; it
  // compiles the candidate and sends the libraries back (WorkOutcome::built) instead of a time.
  bool build_only = false;
  // With `build`: workers that refused to build this job's task (a template they do not know).
  // Never leased to them; a worker that reconnects under a new id may take it again.
  std::set<std::string> not_for;
  Artifact library;
  std::string function_name;
  std::optional<Artifact> reference;  // absent: correctness is not checked
  std::string reference_function;
  std::string reference_key;
  std::map<std::string, int64_t> bindings;
  runtime::measure::MeasureOptions options;  // run_timeout_s: on the device, per attempt
  double best_seconds = 0;                   // for the slow-candidate cutoff
};

// What a builder sends back for build-only work: the candidate ready to be measured.
struct BuiltLibraries {
  Artifact library;
  std::string function_name;
  std::optional<Artifact> reference;  // when the work's options check correctness
  std::string reference_key;
};

struct WorkOutcome {
  tuner::ErrorKind error_kind = tuner::ErrorKind::kOk;
  std::string error_message;
  std::vector<double> repeat_seconds;
  double canary_ratio = 1;  // how far to trust them (tuner::Record)
  bool noisy = false;
  bool emulated = false;     // the worker that measured it runs under an emulator (its Register)
  std::string worker_id;     // who measured it; empty when no worker did (cancelled, quarantined)
  double build_seconds = 0;  // the worker's build, when the work had a BuildSpec
  bool cancelled = false;    // the job was cancelled before a result came: not a measurement
  // The work had a BuildSpec, and its key has no worker (for build-only work: no builder) left
  // that can build, or the worker (`worker_id`) could not make its task: nobody measured it; the
  // job builds it itself and submits it again.
  bool unbuilt = false;
  bool build_only = false;  // the work was build-only: this is no measurement
  // Build-only work the builder (`worker_id`) built: error_kind is ok, repeat_seconds empty.
  std::optional<BuiltLibraries> built;
};

}  // namespace tunefarm::tracker
