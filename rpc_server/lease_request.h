// A tracker's Lease as a measure request for this worker: its libraries stored in (or found in)
// the artifact cache, its options with the proto's defaults applied.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "rpc_server/artifact_cache.h"
#include "rpc_server/lease_executor.h"

namespace tunefarm::v1 {
class Lease;
}

namespace tunefarm::rpc_server {

struct PreparedLease {
  LeaseTask task;
  std::set<std::string> artifacts;  // the hashes it uses: kept when the cache evicts
  // Hash-only artifacts the cache does not have. When there are any, the lease cannot run here
  // (`task` holds only its id): the worker asks the tracker for their bytes.
  std::vector<std::string> missing;
};

// A lease with a BuildSpec becomes a task to build first (only when `can_build`), and with
// build_only one to build and send back instead of measuring. Fails (the lease's result is then
// a runtime_error with this message) when an artifact's bytes do not match its hash, the lease
// asks this worker to build and it cannot, the spec is incomplete, or one of its options is not
// finite or outside its documented range (proto_mapping::MeasureOptionsFromProto names the
// field).
absl::StatusOr<PreparedLease> PrepareLease(const v1::Lease& lease, ArtifactCache& cache,
                                           bool can_build);

}  // namespace tunefarm::rpc_server
