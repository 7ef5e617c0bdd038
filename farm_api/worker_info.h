// A worker as the tracker knows it and its clients list it: what it registered as, its state and
// counts (`tunefarm workers`, the dashboard's fleet page, the API).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tunefarm::farm_api {

// What a worker registered as; the tracker's dispatcher keeps it for ListWorkers and metrics.
// The GPU a worker serves, as its driver describes it (runtime/gpu's DeviceAttributes); `api`
// empty for a CPU worker.
struct GpuDescription {
  std::string api;  // "opencl", "cuda"
  std::string vendor;
  std::string driver_version;
  std::string arch;        // OpenCL: its OpenCL C version; CUDA: "sm_90"
  std::string extensions;  // OpenCL: space-separated
  int compute_units = 0;
  int64_t max_threads_per_block = 0;
  std::vector<int64_t> max_block_dims;  // x, y, z
  int64_t max_shared_bytes = 0;
};

struct WorkerDescription {
  std::string worker_id;  // assigned by the caller (the service), unique
  std::string device_key;
  std::string target;
  std::string cpu_model;
  int cores = 0;
  int64_t memory_bytes = 0;
  std::string gpu_model;
  int64_t gpu_memory_bytes = 0;
  bool can_build = false;
  // A builder for the key's devices (`tunefarm worker --build-only`): it takes only build-only
  // work, in a queue of its own beside the key's measurement queue, and measures nothing.
  bool build_only = false;
  std::string tunefarm_version;
  std::string hostname;
  std::string peer;
  // The id this worker had before it reconnected, as it claims. AddWorker keeps it only when the
  // claim is honoured (an id this dispatcher had, whose worker left and that nobody continued
  // yet; see worker_identities.h), and clears it otherwise.
  std::string previous_worker_id;
  std::vector<std::string> cpu_features;  // "neon", "dotprod", "avx512_vnni", ...
  bool emulated = false;                  // under qemu-user: its times are not a device's
  // How many times longer than the tracker it takes over the same work (runtime/measure/
  // speed_probe.h), in [1, 100]: its leases' run timeouts and deadlines are this much longer.
  double slowness = 1;
  GpuDescription gpu;  // with gpu_model and gpu_memory_bytes
};

// kBusy is named "measuring"; kGone is only in RecentlyGone() snapshots.
enum class WorkerState { kIdle, kBusy, kSession, kDraining, kGone };
std::string_view WorkerStateName(WorkerState state);

struct WorkerSnapshot {
  WorkerDescription description;
  WorkerState state = WorkerState::kIdle;
  int64_t connected_ms = 0;
  int64_t last_heartbeat_ms = 0;
  int64_t measured = 0;  // leases completed by this worker
  int64_t failures = 0;  // of those, not ok
  std::optional<int64_t> lease_id;
  std::optional<std::string> job_id;  // the job of the work under lease_id
  int64_t gone_ms = 0;                // when it left (state kGone only)
};

}  // namespace tunefarm::farm_api
