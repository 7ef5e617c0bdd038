#include "farm_api/job_proto.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "farm_api/tuning_request_proto.h"
#include "proto/mapping/measure_options_proto.h"
#include "proto/mapping/or_default.h"
#include "runtime/core/abbreviate.h"
#include "runtime/measure_limits.h"
#include "tuner/record.h"

namespace tunefarm::farm_api {
using proto_mapping::OrDefault;

absl::StatusOr<JobSpec> JobSpecFromProto(const v1::SubmitJobRequest& r) {
  if (r.workload().empty() == r.script_source().empty()) {
    return absl::InvalidArgumentError(
        "exactly one of workload and script_source must be set (got " +
        std::string(r.workload().empty() ? "neither" : "both") + ")");
  }
  JobSpec spec;
  spec.workload = r.workload();
  spec.script_source = r.script_source();
  spec.script_name = r.script_name();
  for (const auto& [name, value] : r.bindings()) spec.bindings[name] = value;
  spec.dtype = r.dtype().empty() ? "float32" : r.dtype();
  if (absl::Status st = ReadTuningRequestProto(r, spec); !st.ok()) return st;
  spec.early_stopping = r.early_stopping();
  spec.transfer = r.transfer();
  return spec;
}

v1::JobState JobStateToProto(JobState state) {
  switch (state) {
    case JobState::kQueued:
      return v1::JOB_STATE_QUEUED;
    case JobState::kRunning:
      return v1::JOB_STATE_RUNNING;
    case JobState::kSucceeded:
      return v1::JOB_STATE_SUCCEEDED;
    case JobState::kFailed:
      return v1::JOB_STATE_FAILED;
    case JobState::kCancelled:
      return v1::JOB_STATE_CANCELLED;
    case JobState::kPaused:
      return v1::JOB_STATE_PAUSED;
  }
  return v1::JOB_STATE_UNSPECIFIED;
}

v1::Job JobStatusToProto(const JobStatus& s) {
  v1::Job j;
  j.set_id(s.id);
  j.set_state(JobStateToProto(s.state));
  j.set_workload_key(s.workload_key);
  j.set_target(s.target);
  j.set_device_key(s.device_key);
  j.set_trials(s.trials);
  j.set_trials_done(s.progress.trials_done);
  j.set_errors(s.progress.errors);
  j.set_best_seconds(s.progress.best_seconds);
  j.set_best_gflops(s.progress.best_gflops);
  j.set_best_config_json(s.progress.best_config_json);
  j.set_message(s.message);
  j.set_created_ms(s.created_ms);
  j.set_updated_ms(s.updated_ms);
  j.set_priority(s.priority);
  j.set_tuner(s.tuner);
  for (const auto& [kind, count] : s.progress.error_counts)
    (*j.mutable_error_counts())[kind] = count;
  j.set_model_job_id(s.model_job_id);
  j.set_model_task(s.model_task);
  return j;
}

v1::Record RecordToProto(const tuner::Record& r, double flops) {
  v1::Record p;
  p.set_workload_key(r.workload_key);
  p.set_target(r.target);
  p.set_device_key(r.device_key);
  p.set_config_json(r.config_json);
  for (double s : r.repeat_seconds) p.add_repeat_seconds(s);
  p.set_error_kind(std::string(tuner::ErrorKindName(r.error_kind)));
  p.set_error_message(r.error_message);
  p.set_build_seconds(r.build_seconds);
  p.set_measured_by(r.measured_by);
  p.set_built_by(r.built_by);
  p.set_cache_flush(static_cast<v1::CacheFlush>(proto_mapping::CacheFlushToProto(r.cache_flush)));
  p.set_cold_cache(r.cache_flush != tuner::CacheFlush::kNone);
  p.set_timestamp_ms(r.timestamp_ms);
  p.set_tunefarm_version(r.tunefarm_version);
  p.set_job_id(r.job_id);
  p.set_spread(tuner::SpreadOf(r.repeat_seconds));
  p.set_canary_ratio(r.canary_ratio);
  p.set_noisy(r.noisy);
  p.set_emulated(r.emulated);
  if (r.error_kind == tuner::ErrorKind::kOk) {
    if (auto median = tuner::MedianSeconds(r.repeat_seconds); median && *median > 0) {
      p.set_median_seconds(*median);
      if (flops > 0) p.set_gflops(flops / *median / 1e9);
    }
  }
  return p;
}

v1::WorkerInfo WorkerSnapshotToProto(const WorkerSnapshot& w) {
  const WorkerDescription& d = w.description;
  v1::WorkerInfo p;
  p.set_worker_id(d.worker_id);
  p.set_device_key(d.device_key);
  p.set_target(d.target);
  p.set_cpu_model(d.cpu_model);
  p.set_cores(d.cores);
  p.set_memory_bytes(d.memory_bytes);
  p.set_gpu_model(d.gpu_model);
  p.set_gpu_memory_bytes(d.gpu_memory_bytes);
  if (!d.gpu.api.empty()) *p.mutable_gpu() = GpuDescriptionToProto(d.gpu);
  p.set_can_build(d.can_build);
  p.set_build_only(d.build_only);
  for (const std::string& f : d.cpu_features) p.add_cpu_features(f);
  p.set_emulated(d.emulated);
  p.set_slowness(d.slowness);
  p.set_tunefarm_version(d.tunefarm_version);
  p.set_hostname(d.hostname);
  p.set_peer(d.peer);
  p.set_state(std::string(WorkerStateName(w.state)));
  p.set_connected_ms(w.connected_ms);
  p.set_last_heartbeat_ms(w.last_heartbeat_ms);
  p.set_measured(w.measured);
  p.set_failures(w.failures);
  return p;
}

v1::SubmitJobRequest JobSpecToProto(const JobSpec& s) {
  v1::SubmitJobRequest p;
  p.set_workload(s.workload);
  p.set_script_source(s.script_source);
  p.set_script_name(s.script_name);
  for (const auto& [name, value] : s.bindings) (*p.mutable_bindings())[name] = value;
  p.set_dtype(s.dtype);
  WriteTuningRequestProto(s, p);
  p.set_early_stopping(s.early_stopping);
  p.set_transfer(s.transfer);
  return p;
}

JobState JobStateFromProto(v1::JobState s) {
  switch (s) {
    case v1::JOB_STATE_RUNNING:
      return JobState::kRunning;
    case v1::JOB_STATE_SUCCEEDED:
      return JobState::kSucceeded;
    case v1::JOB_STATE_FAILED:
      return JobState::kFailed;
    case v1::JOB_STATE_CANCELLED:
      return JobState::kCancelled;
    case v1::JOB_STATE_PAUSED:
      return JobState::kPaused;
    default:
      return JobState::kQueued;
  }
}

JobStatus JobStatusFromProto(const v1::Job& p) {
  JobStatus j;
  j.id = p.id();
  j.state = JobStateFromProto(p.state());
  j.workload_key = p.workload_key();
  j.target = p.target();
  j.device_key = p.device_key();
  j.trials = p.trials();
  j.progress.trials_done = p.trials_done();
  j.progress.errors = p.errors();
  for (const auto& [kind, n] : p.error_counts()) j.progress.error_counts[kind] = n;
  j.progress.best_seconds = p.best_seconds();
  j.progress.best_gflops = p.best_gflops();
  j.progress.best_config_json = p.best_config_json();
  j.message = p.message();
  j.created_ms = p.created_ms();
  j.updated_ms = p.updated_ms();
  j.priority = p.priority();
  j.tuner = p.tuner();
  j.model_job_id = p.model_job_id();
  j.model_task = p.model_job_id().empty() ? -1 : p.model_task();
  return j;
}

v1::GpuLimits GpuDescriptionToProto(const GpuDescription& gpu) {
  v1::GpuLimits p;
  p.set_api(gpu.api);
  p.set_vendor(gpu.vendor);
  p.set_driver_version(gpu.driver_version);
  p.set_arch(gpu.arch);
  p.set_extensions(gpu.extensions);
  p.set_compute_units(gpu.compute_units);
  p.set_max_threads_per_block(gpu.max_threads_per_block);
  for (int64_t d : gpu.max_block_dims) p.add_max_block_dims(d);
  p.set_max_shared_bytes(gpu.max_shared_bytes);
  return p;
}

GpuDescription GpuDescriptionFromProto(const v1::GpuLimits& p) {
  GpuDescription gpu;
  gpu.api = p.api();
  gpu.vendor = p.vendor();
  gpu.driver_version = p.driver_version();
  gpu.arch = p.arch();
  gpu.extensions = p.extensions();
  gpu.compute_units = std::max(0, p.compute_units());
  gpu.max_threads_per_block = std::max<int64_t>(0, p.max_threads_per_block());
  // x, y, z: more is a malformed message, not more dimensions.
  for (int i = 0; i < p.max_block_dims_size() && i < 3; ++i) {
    gpu.max_block_dims.push_back(std::max<int64_t>(0, p.max_block_dims(i)));
  }
  gpu.max_shared_bytes = std::max<int64_t>(0, p.max_shared_bytes());
  return gpu;
}

WorkerSnapshot WorkerSnapshotFromProto(const v1::WorkerInfo& p) {
  WorkerSnapshot w;
  w.description.worker_id = p.worker_id();
  w.description.device_key = p.device_key();
  w.description.target = p.target();
  w.description.cpu_model = p.cpu_model();
  w.description.cores = p.cores();
  w.description.memory_bytes = p.memory_bytes();
  w.description.gpu_model = p.gpu_model();
  w.description.gpu_memory_bytes = p.gpu_memory_bytes();
  if (p.has_gpu()) w.description.gpu = GpuDescriptionFromProto(p.gpu());
  w.description.can_build = p.can_build();
  w.description.build_only = p.build_only();
  w.description.cpu_features.assign(p.cpu_features().begin(), p.cpu_features().end());
  w.description.emulated = p.emulated();
  w.description.slowness = p.slowness() >= 1 ? p.slowness() : 1;
  w.description.tunefarm_version = p.tunefarm_version();
  w.description.hostname = p.hostname();
  w.description.peer = p.peer();
  for (WorkerState state : {WorkerState::kIdle, WorkerState::kBusy, WorkerState::kSession,
                            WorkerState::kDraining, WorkerState::kGone}) {
    if (p.state() == WorkerStateName(state)) w.state = state;
  }
  w.connected_ms = p.connected_ms();
  w.last_heartbeat_ms = p.last_heartbeat_ms();
  w.measured = p.measured();
  w.failures = p.failures();
  return w;
}

tuner::Record RecordFromProto(const v1::Record& p) {
  tuner::Record r;
  r.workload_key = p.workload_key();
  r.target = p.target();
  r.device_key = p.device_key();
  r.config_json = p.config_json();
  r.repeat_seconds.assign(p.repeat_seconds().begin(), p.repeat_seconds().end());
  absl::StatusOr<tuner::ErrorKind> kind = tuner::ParseErrorKind(p.error_kind());
  r.error_kind = kind.ok() ? *kind : tuner::ErrorKind::kRuntimeError;
  r.error_message = p.error_message();
  r.build_seconds = p.build_seconds();
  r.measured_by = p.measured_by();
  r.built_by = p.built_by();
  // A tracker older than cache_flush said cold_cache for every cache flushed.
  r.cache_flush = CacheFlushOfReply(p.cache_flush(), "record.cache_flush");
  if (r.cache_flush == tuner::CacheFlush::kNone && p.cold_cache()) {
    r.cache_flush = tuner::CacheFlush::kAll;
  }
  r.timestamp_ms = p.timestamp_ms();
  r.canary_ratio = p.canary_ratio() > 0 && std::isfinite(p.canary_ratio()) ? p.canary_ratio() : 1;
  r.noisy = p.noisy();
  r.emulated = p.emulated();
  r.tunefarm_version = p.tunefarm_version();
  r.job_id = p.job_id();
  return r;
}

tuner::CacheFlush CacheFlushOfReply(int cache_flush, const char* field) {
  absl::StatusOr<tuner::CacheFlush> flush = proto_mapping::CacheFlushFromProto(cache_flush, field);
  return flush.ok() ? *flush : tuner::CacheFlush::kAll;
}

}  // namespace tunefarm::farm_api
