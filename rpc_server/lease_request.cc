#include "rpc_server/lease_request.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "proto/mapping/build_spec_proto.h"
#include "proto/mapping/measure_options_proto.h"
#include "proto/tunefarm/v1/worker.pb.h"

namespace tunefarm::rpc_server {
namespace {

// Stores an artifact that came with its bytes, or finds one sent earlier. A hash-only artifact
// the cache does not have is added to `missing` (the path is then empty).
absl::StatusOr<std::string> Resolve(const v1::Artifact& artifact, ArtifactCache& cache,
                                    std::vector<std::string>& missing) {
  if (!artifact.bytes().empty()) return cache.Put(artifact.sha256(), artifact.bytes());
  absl::StatusOr<std::string> path = cache.Get(artifact.sha256());
  if (absl::IsNotFound(path.status())) {
    // A kernel checked against itself names one library twice: ask for it once.
    if (std::find(missing.begin(), missing.end(), artifact.sha256()) == missing.end()) {
      missing.push_back(artifact.sha256());
    }
    return std::string();
  }
  return path;
}

}  // namespace

absl::StatusOr<PreparedLease> PrepareLease(const v1::Lease& lease, ArtifactCache& cache,
                                           bool can_build) {
  const bool to_build = lease.has_build();
  if (to_build && !can_build) {
    return absl::FailedPreconditionError(
        "the lease asks this worker to build its candidate, but it has no compiler");
  }
  if (lease.build_only() && !to_build) {
    return absl::InvalidArgumentError("the lease is build_only but has no BuildSpec");
  }
  if (!to_build && (!lease.has_library() || lease.library().sha256().empty())) {
    return absl::InvalidArgumentError("the lease has no library");
  }
  PreparedLease prepared;
  LeaseTask& task = prepared.task;
  task.lease_id = lease.lease_id();
  // Checked before anything is stored: a lease with a bad number fails as a whole.
  absl::StatusOr<runtime::measure::MeasureOptions> options =
      proto_mapping::MeasureOptionsFromProto(lease.options());
  if (!options.ok()) return options.status();
  runtime::measure::MeasureRequest& request = task.request;
  if (to_build) {
    // The library, the kernel's name and the reference come from the worker's own build.
    absl::StatusOr<runtime::measure::BuildSpec> spec =
        proto_mapping::BuildSpecFromProto(lease.build(), *options);
    if (!spec.ok()) return spec.status();
    task.build = *std::move(spec);
    task.build_only = lease.build_only();
    request.options = *std::move(options);
    for (const auto& [name, value] : lease.bindings()) request.bindings[name] = value;
    request.best_seconds = lease.best_seconds();
    return prepared;
  }
  absl::StatusOr<std::string> library = Resolve(lease.library(), cache, prepared.missing);
  if (!library.ok()) return library.status();
  prepared.artifacts.insert(lease.library().sha256());
  request.library_path = *library;
  request.function_name = lease.function_name();
  request.options = *std::move(options);
  if (lease.has_reference_library() && !lease.reference_library().sha256().empty()) {
    absl::StatusOr<std::string> reference =
        Resolve(lease.reference_library(), cache, prepared.missing);
    if (!reference.ok()) return reference.status();
    prepared.artifacts.insert(lease.reference_library().sha256());
    request.reference_library_path = *reference;
    request.reference_function = lease.reference_function();
    request.reference_key = lease.reference_key();
  } else {
    request.options.check_correctness = false;  // nothing to check against
  }
  if (!prepared.missing.empty()) {
    PreparedLease unrunnable;
    unrunnable.task.lease_id = lease.lease_id();
    unrunnable.missing = std::move(prepared.missing);
    return unrunnable;
  }
  for (const auto& [name, value] : lease.bindings()) request.bindings[name] = value;
  request.best_seconds = lease.best_seconds();
  return prepared;
}

}  // namespace tunefarm::rpc_server
