#include "compiler/schedule/bound_inference.h"

#include <unordered_set>

#include "absl/strings/str_cat.h"
#include "compiler/ir/arith/analyzer.h"
#include "compiler/ir/arith/interval_set.h"
#include "compiler/ir/op.h"
#include "compiler/ir/visitor.h"

namespace tunefarm::schedule {
namespace {

bool StartsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// Whether a stage in `scope` computed inside a loop bound to `tag` must cover every value of it:
// a shared buffer serves all threads of a block; a global one all blocks as well.
bool RelaxedForScope(const std::string& scope, const std::string& tag) {
  bool thread = StartsWith(tag, "threadIdx.") || tag == "vthread" || tag == "cthread";
  if (scope == "shared") return thread;
  if (scope == "global") return thread || StartsWith(tag, "blockIdx.");
  return false;
}

class BoundInferrer {
 public:
  BoundInferrer(const ScheduleGraph& graph, arith::Analyzer* analyzer)
      : graph_(graph), analyzer_(analyzer) {}

  absl::StatusOr<RangeMap> Run() {
    for (auto it = graph_.stages.rbegin(); it != graph_.stages.rend(); ++it) {
      if (absl::Status st = Visit(*it); !st.ok()) return st;
    }
    return ranges_;
  }

 private:
  // A stage's bounds need those of its consumers and of the stage it is computed in.
  absl::Status Visit(const StageInfo& info) {
    if (info.stage->op()->kind != te::OpKind::kCompute || done_.count(&info)) {
      return absl::OkStatus();
    }
    if (!visiting_.insert(&info).second) {
      return absl::InvalidArgumentError(absl::StrCat(
          "compute_at on stage ", info.stage->name(), ": it is computed inside a loop of ",
          "a stage that it feeds (directly or through others), so its inputs would not be ready"));
    }
    for (const StageInfo* consumer : info.consumers) {
      if (absl::Status st = Visit(*consumer); !st.ok()) return st;
    }
    if (info.stage->attach_type() == AttachType::kScope) {
      if (absl::Status st = Visit(*graph_.Find(info.stage->attach_stage())); !st.ok()) return st;
    }
    InferRoots(info);
    PassDownDomain(*info.stage, &ranges_, analyzer_);
    for (const auto& leaf : info.stage->leaf_iter_vars()) {
      // A loop runs over [0, extent) whatever the axis' min (a root axis adds its min later).
      ir::Var var = LoopVarOf(*info.stage, leaf);
      ir::Range loop{ir::MakeZero(var.dtype()), ranges_.at(leaf.get()).extent};
      if (loops_.emplace(var.get(), loop).second) analyzer_->Bind(var, loop);
    }
    visiting_.erase(&info);
    done_.insert(&info);
    return absl::OkStatus();
  }

  void InferRoots(const StageInfo& info) {
    const te::Operation& op = info.stage->op();
    for (const auto& iv : op->reduce_axis) ranges_[iv.get()] = iv->dom;
    if (info.is_output || info.consumers.empty()) {
      for (const auto& iv : op->axis) ranges_[iv.get()] = iv->dom;
      return;
    }
    std::vector<arith::IntervalSet> region(op->axis.size());
    std::vector<bool> touched(op->axis.size(), false);
    arith::VarIntervalMap relax = RelaxedVars(info);
    for (const StageInfo* consumer : info.consumers) {
      for (const auto& indices : ReadsOf(*consumer, op->buffer)) {
        for (size_t d = 0; d < indices.size(); ++d) {
          arith::IntervalSet s = RelaxFully(indices[d], relax);

          region[d] = touched[d] ? arith::Union(region[d], s) : s;
          touched[d] = true;
        }
      }
    }
    for (size_t d = 0; d < op->axis.size(); ++d) {
      ranges_[op->axis[d].get()] = ChooseRange(region[d], op->axis[d]->dom);
    }
  }

  // The consumer's reads of `buffer`, with its axes written as absolute leaf-derived values.
  std::vector<std::vector<ir::Expr>> ReadsOf(const StageInfo& consumer, const ir::Buffer& buffer) {
    const Stage& stage = *consumer.stage;
    ValueMap values;
    for (const auto& leaf : stage.leaf_iter_vars()) values[leaf.get()] = LoopVarOf(stage, leaf);
    PassUpIndex(stage, ranges_, &values);
    ir::VarMap root_values;
    for (const auto& list : {stage.op()->axis, stage.op()->reduce_axis}) {
      for (const auto& iv : list) {
        const ir::Expr& min = ranges_.at(iv.get()).min;
        const ir::Expr& value = values.at(iv.get());
        root_values[iv->var.get()] = ir::IsConstInt(min, 0) ? value : min + value;
      }
    }
    std::vector<std::vector<ir::Expr>> reads;
    ir::PostOrderVisit(consumer.body, [&](const ir::Expr& e) {
      const auto* load = e.As<ir::BufferLoadNode>();
      if (!load || !load->buffer.same_as(buffer)) return;
      std::vector<ir::Expr> indices;
      for (const auto& i : load->indices) indices.push_back(ir::Substitute(i, root_values));
      reads.push_back(std::move(indices));
    });
    return reads;
  }

  // Every known loop that does not enclose the stage (or encloses it but is a thread the
  // stage's scope spans) ranges over its whole extent.
  arith::VarIntervalMap RelaxedVars(const StageInfo& info) {
    std::unordered_set<const ir::VarNode*> fixed;
    for (const AttachPoint& p : info.attach_path) {
      const IterVarAttr* attr = p.stage->attr_of(p.leaf);
      bool relaxed = attr && attr->bind_thread.defined() &&
                     RelaxedForScope(info.stage->scope(), attr->bind_thread->thread_tag);
      if (!relaxed) fixed.insert(LoopVarOf(*p.stage, p.leaf).get());
    }
    arith::VarIntervalMap relax;
    for (const auto& [var, loop] : loops_) {
      if (!fixed.count(var)) relax[var] = arith::IntervalSet::FromRange(loop);
    }
    return relax;
  }

  // The variable a leaf's loop runs on: its own, or the thread it is bound to.
  static ir::Var LoopVarOf(const Stage& stage, const ir::IterVar& leaf) {
    const IterVarAttr* attr = stage.attr_of(leaf);
    return attr && attr->bind_thread.defined() ? attr->bind_thread->var : leaf->var;
  }

  // Relaxing one loop can expose another (an extent written in terms of an outer loop), so
  // relax until no relaxed variable remains; nesting depth bounds the iterations.
  arith::IntervalSet RelaxFully(const ir::Expr& e, const arith::VarIntervalMap& relax) {
    arith::IntervalSet s = arith::EvalSet(e, relax);
    for (int round = 0; round < 16 && Mentions(s, relax); ++round) {
      arith::IntervalSet lo =
          s.HasLowerBound() ? arith::EvalSet(s.min, relax) : arith::IntervalSet::Everything();
      arith::IntervalSet hi =
          s.HasUpperBound() ? arith::EvalSet(s.max, relax) : arith::IntervalSet::Everything();
      s = arith::IntervalSet{lo.min, hi.max};
    }
    return s;
  }

  static bool Mentions(const arith::IntervalSet& s, const arith::VarIntervalMap& relax) {
    bool found = false;
    for (const ir::Expr& e : {s.min, s.max}) {
      if (!e.defined()) continue;
      ir::PostOrderVisit(e, [&](const ir::Expr& x) {
        if (const auto* v = x.As<ir::VarNode>()) found = found || relax.count(v) > 0;
      });
    }
    return found;
  }

  // The region clipped to the tensor's domain, unless clipping turns a constant extent into a
  // symbolic one: then the loop keeps its constant extent and the stage guards its tail.
  ir::Range ChooseRange(const arith::IntervalSet& region, const ir::Range& domain) {
    if (!region.HasLowerBound() || !region.HasUpperBound()) return domain;
    ir::Range full = arith::ToRange(region);
    ir::Range clipped =
        arith::ToRange(arith::Intersect(region, arith::IntervalSet::FromRange(domain)));
    full = {analyzer_->Simplify(full.min), analyzer_->Simplify(full.extent)};
    clipped = {analyzer_->Simplify(clipped.min), analyzer_->Simplify(clipped.extent)};
    bool full_const = ir::AsConstInt(full.extent).has_value();
    bool clipped_const = ir::AsConstInt(clipped.extent).has_value();
    return (clipped_const || !full_const) ? clipped : full;
  }

  const ScheduleGraph& graph_;
  arith::Analyzer* analyzer_;
  RangeMap ranges_;
  // Every loop variable seen so far and its range; threads appear once however many bind them.
  std::unordered_map<const ir::VarNode*, ir::Range> loops_;
  std::unordered_set<const StageInfo*> visiting_;
  std::unordered_set<const StageInfo*> done_;
};

}  // namespace

absl::StatusOr<RangeMap> InferBound(const ScheduleGraph& graph, arith::Analyzer* analyzer) {
  return BoundInferrer(graph, analyzer).Run();
}

}  // namespace tunefarm::schedule
