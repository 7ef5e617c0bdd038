#include "tracker/http/lowered_ir.h"

#include "compiler/ir/printer.h"
#include "compiler/passes/lower.h"
#include "compiler/space/config_json.h"
#include "compiler/target/target.h"
#include "tuner/templates/template_registry.h"
#include "tuner/workload.h"

namespace tunefarm::tracker::http {

absl::StatusOr<std::string> LoweredIr(const tuner::Record& record) {
  absl::StatusOr<tuner::Workload> workload = tuner::ParseWorkloadKey(record.workload_key);
  if (!workload.ok()) return workload.status();
  absl::StatusOr<target::Target> target = target::ParseTarget(record.target);
  if (!target.ok()) return target.status();
  absl::StatusOr<std::unique_ptr<tuner::Task>> task = tuner::CreateTask(*workload, *target);
  if (!task.ok()) return task.status();
  absl::StatusOr<space::Config> config =
      space::ConfigFromJson((*task)->space(), record.config_json);
  if (!config.ok()) return config.status();
  absl::StatusOr<topi::ScheduledOp> op = (*task)->Apply(*config);
  if (!op.ok()) return op.status();
  // Lowered for the record's target, as its candidate was built.
  passes::PassOptions options;
  options.target = target->lowering();
  absl::StatusOr<ir::PrimFunc> func =
      passes::Lower(op->schedule, op->args, (*workload).template_name, options);
  if (!func.ok()) return func.status();
  return ir::ToString(*func);
}

}  // namespace tunefarm::tracker::http
