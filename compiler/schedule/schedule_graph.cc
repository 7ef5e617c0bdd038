#include "compiler/schedule/schedule_graph.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "compiler/ir/mutator.h"
#include "compiler/ir/visitor.h"

namespace tunefarm::schedule {
namespace {

size_t LeafPosition(const Stage* stage, const ir::IterVar& leaf) {
  const auto& leaves = stage->leaf_iter_vars();
  return std::find_if(leaves.begin(), leaves.end(),
                      [&](const ir::IterVar& x) { return x.same_as(leaf); }) -
         leaves.begin();
}

// Substitutes the definition of inlined `producer` for every read of it in `body`.
ir::Expr InlineInto(const ir::Expr& body, const Stage* producer, const ir::Expr& definition) {
  const ir::Buffer& buffer = producer->op()->buffer;
  return ir::RewriteExpr(body, [&](const ir::Expr& e) -> ir::Expr {
    const auto* load = e.As<ir::BufferLoadNode>();
    if (!load || !load->buffer.same_as(buffer)) return ir::Expr();
    ir::VarMap map;
    const auto& axis = producer->op()->axis;
    for (size_t i = 0; i < axis.size(); ++i) {
      map[axis[i]->var.get()] = InlineInto(load->indices[i], producer, definition);
    }
    return ir::Substitute(definition, map);
  });
}

bool Reads(const ir::Expr& body, const ir::Buffer& buffer) {
  bool reads = false;
  if (!body.defined()) return false;
  ir::PostOrderVisit(body, [&](const ir::Expr& e) {
    if (const auto* load = e.As<ir::BufferLoadNode>()) {
      reads = reads || load->buffer.same_as(buffer);
    }
  });
  return reads;
}

std::vector<AttachPoint> AttachPath(const Stage* stage) {
  std::vector<AttachPoint> path;
  for (const Stage* s = stage; s->attach_type() == AttachType::kScope; s = s->attach_stage()) {
    const Stage* parent = s->attach_stage();
    const auto& leaves = parent->leaf_iter_vars();
    for (size_t i = LeafPosition(parent, s->attach_ivar()) + 1; i-- > 0;) {
      path.push_back({parent, leaves[i]});
    }
  }
  return path;
}

// A consumer must run inside every loop that encloses its producer's computation.
absl::Status CheckConsumerScope(const StageInfo& producer, const StageInfo& consumer) {
  if (producer.attach_path.empty()) return absl::OkStatus();
  const AttachPoint& innermost = producer.attach_path.front();
  if (consumer.stage == innermost.stage) return absl::OkStatus();
  for (const AttachPoint& p : consumer.attach_path) {
    if (p.stage == innermost.stage && p.leaf.same_as(innermost.leaf)) return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      absl::StrCat("compute_at on stage ", producer.stage->name(), ": it is computed inside loop ",
                   innermost.leaf->var.name(), " of ", innermost.stage->name(),
                   ", but its consumer ", consumer.stage->name(), " runs outside that loop"));
}

// The loop a stage is computed at must still exist when lowering: a later split, fuse or inline
// of the parent would otherwise leave the stage computed nowhere.
absl::Status CheckAttachPoint(const Stage* stage) {
  if (stage->attach_type() != AttachType::kScope) return absl::OkStatus();
  const Stage* parent = stage->attach_stage();
  const std::string where = absl::StrCat("compute_at on stage ", stage->name(), ": ");
  if (parent->attach_type() == AttachType::kInline) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, "its parent ", parent->name(), " was inlined, so it has no loops"));
  }
  const auto& leaves = parent->leaf_iter_vars();
  if (LeafPosition(parent, stage->attach_ivar()) == leaves.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, "loop ", stage->attach_ivar()->var.name(), " of ", parent->name(),
        " was split or fused afterwards; compute it at one of the loops that replaced it"));
  }
  return absl::OkStatus();
}

}  // namespace

const StageInfo* ScheduleGraph::Find(const Stage* stage) const {
  for (const auto& info : stages) {
    if (info.stage == stage) return &info;
  }
  return nullptr;
}

std::vector<const StageInfo*> ScheduleGraph::AttachedAt(const Stage* stage,
                                                        const ir::IterVar& leaf) const {
  std::vector<const StageInfo*> out;
  for (const auto& info : stages) {
    if (info.stage->attach_type() == AttachType::kScope && info.stage->attach_stage() == stage &&
        info.stage->attach_ivar().same_as(leaf)) {
      out.push_back(&info);
    }
  }
  return out;
}

absl::StatusOr<ScheduleGraph> BuildScheduleGraph(const Schedule& schedule) {
  if (!schedule.error().ok()) return schedule.error();
  std::vector<Stage*> all = schedule.stages();
  std::unordered_set<const te::OperationNode*> outputs;
  for (const auto& op : schedule.outputs()) outputs.insert(op.get());
  std::unordered_map<const Stage*, ir::Expr> bodies;
  for (Stage* s : all) bodies[s] = s->op()->body;
  for (Stage* s : all) {
    if (absl::Status st = CheckAttachPoint(s); !st.ok()) return st;
  }
  for (Stage* s : all) {
    if (s->attach_type() != AttachType::kInline) continue;
    if (outputs.count(s->origin_op().get())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "compute_inline on stage ", s->name(), ": an output of the schedule cannot be inlined"));
    }
    for (Stage* c : all) {
      if (c != s && Reads(bodies[c], s->op()->buffer)) {
        bodies[c] = InlineInto(bodies[c], s, bodies[s]);
      }
    }
  }
  ScheduleGraph graph;
  graph.stages.reserve(all.size());
  for (Stage* s : all) {
    if (s->attach_type() == AttachType::kInline) continue;
    StageInfo info;
    info.stage = s;
    info.body = bodies[s];
    info.attach_path = AttachPath(s);
    info.is_output = outputs.count(s->origin_op().get()) > 0;
    graph.stages.push_back(std::move(info));
  }
  for (auto& producer : graph.stages) {
    for (const auto& consumer : graph.stages) {
      if (!Reads(consumer.body, producer.stage->op()->buffer)) continue;
      if (absl::Status st = CheckConsumerScope(producer, consumer); !st.ok()) return st;
      producer.consumers.push_back(&consumer);
    }
  }
  return graph;
}

}  // namespace tunefarm::schedule
