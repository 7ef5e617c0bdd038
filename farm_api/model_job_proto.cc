#include "farm_api/model_job_proto.h"

#include "farm_api/job_proto.h"
#include "farm_api/tuning_request_proto.h"
#include "proto/mapping/measure_options_proto.h"
#include "proto/mapping/or_default.h"

namespace tunefarm::farm_api {
using proto_mapping::OrDefault;

absl::StatusOr<ModelJobSpec> ModelJobSpecFromProto(const v1::SubmitModelJobRequest& r) {
  ModelJobSpec spec;
  spec.model_name = r.model_name();
  for (const v1::ModelTask& t : r.tasks()) {
    spec.tasks.push_back({t.workload(), t.weight(), t.has_layer() ? t.layer() : -1});
  }
  if (absl::Status st = ReadTuningRequestProto(r, spec); !st.ok()) return st;
  spec.parallel_tasks = OrDefault(r.parallel_tasks(), 2);
  spec.transfer = !r.no_transfer();
  spec.round_robin = r.round_robin();
  if (!r.layout_choice().empty()) {
    absl::StatusOr<tuner::LayoutChoice> layout = tuner::LayoutChoiceFromJson(r.layout_choice());
    if (!layout.ok()) return layout.status();
    spec.layout = *std::move(layout);
  }
  return spec;
}

v1::ModelJob ModelJobStatusToProto(const ModelJobStatus& s) {
  v1::ModelJob p;
  p.set_id(s.id);
  p.set_state(JobStateToProto(s.state));
  p.set_model_name(s.model_name);
  p.set_target(s.target);
  p.set_device_key(s.device_key);
  p.set_trials(s.trials);
  p.set_trials_done(s.trials_done);
  p.set_cache_flush(static_cast<v1::CacheFlush>(proto_mapping::CacheFlushToProto(s.cache_flush)));
  p.set_estimated_seconds(s.estimated_seconds);
  p.set_message(s.message);
  p.set_created_ms(s.created_ms);
  p.set_updated_ms(s.updated_ms);
  p.set_measured_seconds(s.latency.measured_seconds);
  p.set_untuned_seconds(s.latency.untuned_seconds);
  p.set_measured_by(s.latency.measured_by);
  for (const ModelTaskStatus& t : s.tasks) {
    v1::ModelTask* task = p.add_tasks();
    task->set_workload(t.workload_key);
    task->set_weight(t.weight);
    if (t.layer >= 0) task->set_layer(t.layer);
    task->set_job_id(t.job_id);
    task->set_trials(t.trials);
    task->set_trials_done(t.trials_done);
    task->set_best_seconds(t.best_seconds);
    task->set_runs(t.runs);
    task->set_state(JobStateToProto(t.state));
  }
  return p;
}

v1::SubmitModelJobRequest ModelJobSpecToProto(const ModelJobSpec& s) {
  v1::SubmitModelJobRequest p;
  p.set_model_name(s.model_name);
  for (const ModelTaskSpec& t : s.tasks) {
    v1::ModelTask* task = p.add_tasks();
    task->set_workload(t.workload);
    task->set_weight(t.weight);
    if (t.layer >= 0) task->set_layer(t.layer);
  }
  WriteTuningRequestProto(s, p);
  p.set_parallel_tasks(s.parallel_tasks);
  p.set_no_transfer(!s.transfer);
  p.set_round_robin(s.round_robin);
  if (!s.layout.empty()) p.set_layout_choice(tuner::LayoutChoiceToJson(s.layout));
  return p;
}

ModelJobStatus ModelJobStatusFromProto(const v1::ModelJob& p) {
  ModelJobStatus s;
  s.id = p.id();
  s.state = JobStateFromProto(p.state());
  s.model_name = p.model_name();
  s.target = p.target();
  s.device_key = p.device_key();
  s.trials = p.trials();
  s.trials_done = p.trials_done();
  s.cache_flush = CacheFlushOfReply(p.cache_flush(), "model_job.cache_flush");
  s.estimated_seconds = p.estimated_seconds();
  s.message = p.message();
  s.created_ms = p.created_ms();
  s.updated_ms = p.updated_ms();
  s.latency.measured_seconds = p.measured_seconds();
  s.latency.untuned_seconds = p.untuned_seconds();
  s.latency.measured_by = p.measured_by();
  for (const v1::ModelTask& t : p.tasks()) {
    ModelTaskStatus task;
    task.workload_key = t.workload();
    task.weight = t.weight();
    task.layer = t.has_layer() ? t.layer() : -1;
    task.job_id = t.job_id();
    task.trials = t.trials();
    task.trials_done = t.trials_done();
    task.best_seconds = t.best_seconds();
    task.runs = t.runs();
    task.state = JobStateFromProto(t.state());
    s.tasks.push_back(std::move(task));
  }
  return s;
}

}  // namespace tunefarm::farm_api
