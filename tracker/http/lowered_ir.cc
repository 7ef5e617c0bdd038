#include "tracker/http/lowered_ir.h"

#include "compiler/ir/printer.h"
#include "compiler/passes/lower.h"
#include "compiler/space/config_json.h"
#include "tuner/templates/template_registry.h"
#include "tuner/workload.h"

namespace tunefarm::tracker::http {

absl::StatusOr<std::string> LoweredIr(const tuner::Record& record) {
  absl::StatusOr<tuner::Workload> workload = tuner::ParseWorkloadKey(record.workload_key);
  if (!workload.ok()) return workload.status();
  absl::StatusOr<std::unique_ptr<tuner::Task>> task = tuner::CreateTask(*workload, record.target);
  if (!task.ok()) return task.status();
  absl::StatusOr<space::Config> config =
      space::ConfigFromJson((*task)->space(), record.config_json);
  if (!config.ok()) return config.status();
  absl::StatusOr<topi::ScheduledOp> op = (*task)->Apply(*config);
  if (!op.ok()) return op.status();
  absl::StatusOr<ir::PrimFunc> func =
      passes::Lower(op->schedule, op->args, (*workload).template_name);
  if (!func.ok()) return func.status();
  return ir::ToString(*func);
}

}  // namespace tunefarm::tracker::http
