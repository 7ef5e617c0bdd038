#include "compiler/passes/lower.h"

#include <unordered_set>

#include "absl/strings/str_cat.h"
#include "compiler/ir/arith/analyzer.h"
#include "compiler/passes/pipeline.h"
#include "compiler/schedule/bound_inference.h"
#include "compiler/schedule/schedule_graph.h"
#include "compiler/schedule/schedule_ops.h"

namespace tunefarm::passes {
namespace {

// Every argument must be part of the computation, and every input it reads must be an argument.
absl::Status CheckArgs(const schedule::Schedule& schedule, const schedule::ScheduleGraph& graph,
                       const std::vector<te::Tensor>& args) {
  std::unordered_set<const ir::BufferNode*> params;
  for (const auto& t : args) {
    if (!t.defined() || !schedule.Contains(t)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "argument ", t.defined() ? t.name() : "(undefined)", " is not part of the schedule"));
    }
    if (!params.insert(t.buffer().get()).second) {
      return absl::InvalidArgumentError(absl::StrCat("argument ", t.name(), " is listed twice"));
    }
  }
  for (const auto& info : graph.stages) {
    if (info.stage->op()->kind != te::OpKind::kPlaceholder || info.consumers.empty()) continue;
    if (!params.count(info.stage->op()->buffer.get())) {
      return absl::InvalidArgumentError(
          absl::StrCat("placeholder ", info.stage->name(), " is read but not listed in args"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ir::PrimFunc> LowerToLoopNest(const schedule::Schedule& schedule,
                                             const std::vector<te::Tensor>& args,
                                             const std::string& name) {
  absl::StatusOr<schedule::ScheduleGraph> graph = schedule::BuildScheduleGraph(schedule);
  if (!graph.ok()) return graph.status();
  if (absl::Status st = CheckArgs(schedule, *graph, args); !st.ok()) return st;
  arith::Analyzer analyzer;
  absl::StatusOr<schedule::RangeMap> ranges = schedule::InferBound(*graph, &analyzer);
  if (!ranges.ok()) return ranges.status();
  std::unordered_set<const ir::BufferNode*> params;
  ir::PrimFunc func;
  func.name = name;
  for (const auto& t : args) {
    params.insert(t.buffer().get());
    func.params.push_back(t.buffer());
  }
  absl::StatusOr<ir::Stmt> body = schedule::ScheduleOps(*graph, *ranges, params, &analyzer);
  if (!body.ok()) return body.status();
  func.body = *body;
  return func;
}

absl::StatusOr<ir::PrimFunc> Lower(const schedule::Schedule& schedule,
                                   const std::vector<te::Tensor>& args, const std::string& name,
                                   const PassOptions& options) {
  absl::StatusOr<ir::PrimFunc> nest = LowerToLoopNest(schedule, args, name);
  if (!nest.ok()) return nest.status();
  return RunPasses(*std::move(nest), LoweringPipeline(), options);
}

}  // namespace tunefarm::passes
