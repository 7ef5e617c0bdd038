#include "compiler/schedule/schedule_ops.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "compiler/ir/arith/analyzer.h"
#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/structural_equal.h"
#include "compiler/ir/visitor.h"
#include "compiler/schedule/tensorize.h"

namespace tunefarm::schedule {
namespace {

// Threads launched by enclosing loops: a stage bound to the same thread reuses the launch.
struct Launch {
  ir::Var var;
  ir::Expr extent;
};
using LaunchScope = std::map<std::string, Launch>;

// A condition and the position (leaf index, -1 for "outside every loop") it is placed at.
struct Guard {
  ir::Expr condition;
  int level;
};

bool IsThreadTag(const std::string& tag) {
  return tag.rfind("threadIdx.", 0) == 0 || tag.rfind("blockIdx.", 0) == 0;
}

class StageNestBuilder;

class LoopNestBuilder {
 public:
  LoopNestBuilder(const ScheduleGraph& graph, const RangeMap& ranges,
                  const std::unordered_set<const ir::BufferNode*>& params,
                  arith::Analyzer* analyzer)
      : graph_(graph), ranges_(ranges), params_(params), analyzer_(analyzer) {}

  absl::StatusOr<ir::Stmt> Build() {
    ir::Stmt body = ir::MakeNop();
    for (auto it = graph_.stages.rbegin(); it != graph_.stages.rend(); ++it) {
      if (it->stage->op()->kind != te::OpKind::kCompute) continue;
      if (it->stage->attach_type() != AttachType::kRoot) continue;
      absl::StatusOr<ir::Stmt> s = Produce(*it, body, LaunchScope());
      if (!s.ok()) return s.status();
      body = *s;
    }
    return body;
  }

  // realize S { produce S { nest }; rest }, or without realize for a parameter.
  absl::StatusOr<ir::Stmt> Produce(const StageInfo& info, ir::Stmt rest,
                                   const LaunchScope& launched);

  const ScheduleGraph& graph() const { return graph_; }
  const RangeMap& ranges() const { return ranges_; }
  arith::Analyzer* analyzer() const { return analyzer_; }

 private:
  const ScheduleGraph& graph_;
  const RangeMap& ranges_;
  const std::unordered_set<const ir::BufferNode*>& params_;
  arith::Analyzer* analyzer_;
};

// Builds one stage's loops: leaves outermost first, attached stages inside their loop, the
// reduction's initialisation just outside its first reduction loop.
class StageNestBuilder {
 public:
  StageNestBuilder(LoopNestBuilder* parent, const StageInfo& info, LaunchScope launched)
      : parent_(parent), info_(info), stage_(*info.stage), launched_(std::move(launched)) {}

  absl::StatusOr<ir::Stmt> Build() {
    const auto& leaves = stage_.leaf_iter_vars();
    first_reduce_ = static_cast<int>(leaves.size());
    for (size_t k = 0; k < leaves.size(); ++k) {
      if (leaves[k]->iter_type == ir::IterVarType::kCommReduce) {
        first_reduce_ = static_cast<int>(k);
        break;
      }
    }
    if (absl::Status st = BindLeaves(); !st.ok()) return st;
    ValueMap values = leaf_values_;
    PassUpIndex(stage_, parent_->ranges(), &values);
    std::vector<Guard> guards = MakeGuards(values, /*data_par_only=*/false);
    guards.insert(guards.end(), thread_guards_.begin(), thread_guards_.end());
    for (size_t k = 0; k < leaves.size(); ++k) {
      const IterVarAttr* attr = stage_.attr_of(leaves[k]);
      if (attr && attr->tensor_intrin) return BuildTensorized(k, guards);
    }
    ir::Stmt body = MakeBody(values);
    std::vector<size_t> all(leaves.size());
    std::map<size_t, ir::Var> vars;
    for (size_t k = 0; k < leaves.size(); ++k) {
      all[k] = k;
      vars[k] = leaves[k]->var;
    }
    return Nest(body, guards, all, vars, /*init=*/false);
  }

 private:
  const ir::Range& RangeOf(const ir::IterVar& iv) const { return parent_->ranges().at(iv.get()); }
  int LevelOf(const ir::Expr& e) const;
  absl::Status BindLeaves();
  absl::Status BindThread(size_t k, const ir::IterVar& leaf, const ir::IterVar& thread);
  std::vector<Guard> MakeGuards(const ValueMap& values, bool data_par_only) const;
  ir::VarMap RootValues(const ValueMap& values) const;
  ir::Stmt MakeBody(const ValueMap& values) const;
  // The loops outside leaf `t` as usual, the intrinsic's emission in place of the rest.
  absl::StatusOr<ir::Stmt> BuildTensorized(size_t t, const std::vector<Guard>& guards);
  // The reduction's initial stores, looping over the data-parallel leaves from `from` on.
  absl::StatusOr<ir::Stmt> MakeInit(size_t from);
  // Wraps `body` in the loops of `loop_leaves` (outermost first) and places each guard just
  // inside the loop of its level; `loop_vars` maps a leaf index to the variable its loop uses.
  absl::StatusOr<ir::Stmt> Nest(ir::Stmt body, const std::vector<Guard>& guards,
                                const std::vector<size_t>& loop_leaves,
                                const std::map<size_t, ir::Var>& loop_vars, bool init);
  absl::StatusOr<ir::Stmt> WrapLoop(size_t k, const ir::Var& var, ir::Stmt body);
  // Threads launched by enclosing stages and by this stage's leaves up to k.
  LaunchScope ScopeAt(size_t k) const;

  LoopNestBuilder* parent_;
  const StageInfo& info_;
  const Stage& stage_;
  LaunchScope launched_;
  int first_reduce_ = 0;
  ValueMap leaf_values_;
  std::unordered_map<const ir::VarNode*, int> var_level_;
  std::vector<Guard> thread_guards_;
  std::vector<std::string> leaf_launch_keys_;  // non-empty: leaf k opens this thread launch
};

// A guard goes just inside the innermost loop it depends on, so the loops it can skip are
// skipped whole; but one that depends on a thread index goes around the stores, because a
// branch that differs across threads must not contain the barriers of a cooperative fetch.
int StageNestBuilder::LevelOf(const ir::Expr& e) const {
  int level = -1;
  bool thread_dependent = false;
  ir::PostOrderVisit(e, [&](const ir::Expr& x) {
    const auto* v = x.As<ir::VarNode>();
    if (v == nullptr) return;
    auto it = var_level_.find(v);
    if (it != var_level_.end()) level = std::max(level, it->second);
    for (const auto& [key, launch] : launched_) {
      thread_dependent = thread_dependent || (launch.var.get() == v && IsThreadTag(key));
    }
  });
  return thread_dependent ? static_cast<int>(stage_.leaf_iter_vars().size()) : level;
}

absl::Status StageNestBuilder::BindLeaves() {
  const auto& leaves = stage_.leaf_iter_vars();
  leaf_launch_keys_.assign(leaves.size(), "");
  for (size_t k = 0; k < leaves.size(); ++k) {
    const ir::IterVar& leaf = leaves[k];
    const IterVarAttr* attr = stage_.attr_of(leaf);
    if (attr && attr->bind_thread.defined()) {
      if (absl::Status st = BindThread(k, leaf, attr->bind_thread); !st.ok()) return st;
      continue;
    }
    leaf_values_[leaf.get()] = leaf->var;
    var_level_[leaf->var.get()] = static_cast<int>(k);
    if (attr && attr->kind == ir::ForKind::kVectorized && !ir::AsConstInt(RangeOf(leaf).extent)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "vectorize on stage ", stage_.name(), ": axis ", leaf->var.name(), " has extent ",
          ir::ToString(RangeOf(leaf).extent), ", which is not a constant"));
    }
  }
  return absl::OkStatus();
}

absl::Status StageNestBuilder::BindThread(size_t k, const ir::IterVar& leaf,
                                          const ir::IterVar& thread) {
  const std::string& tag = thread->thread_tag;
  if (static_cast<int>(k) > first_reduce_) {
    return absl::InvalidArgumentError(
        absl::StrCat("bind on stage ", stage_.name(), ": axis ", leaf->var.name(), " bound to ",
                     tag, " is inside a reduction axis; move it outside with reorder"));
  }
  // Real threads are shared by tag across stages; each virtual thread axis is its own.
  std::string key = IsThreadTag(tag) ? tag : absl::StrCat(tag, "#", thread->var.name());
  ir::Expr extent = RangeOf(leaf).extent;
  auto it = launched_.find(key);
  if (it == launched_.end()) {
    ir::Expr launch = thread->dom.extent.defined() ? thread->dom.extent : extent;
    it = launched_.emplace(key, Launch{thread->var, launch}).first;
    leaf_launch_keys_[k] = key;
    parent_->analyzer()->Bind(thread->var, ir::Range{ir::MakeZero(launch.dtype()), launch});
  }
  const Launch& l = it->second;
  arith::Analyzer* analyzer = parent_->analyzer();
  if (!analyzer->CanProve(extent == l.extent)) {
    if (!analyzer->CanProve(extent <= l.extent)) {
      return absl::InvalidArgumentError(
          absl::StrCat("bind on stage ", stage_.name(), ": axis ", leaf->var.name(), " has extent ",
                       ir::ToString(extent), ", more than the ", ir::ToString(l.extent), " ", tag,
                       " threads launched"));
    }
    ir::Expr in_extent = l.var < extent;
    thread_guards_.push_back({in_extent, LevelOf(in_extent)});
  }
  leaf_values_[leaf.get()] = l.var;
  var_level_[l.var.get()] = static_cast<int>(k);
  return absl::OkStatus();
}

ir::VarMap StageNestBuilder::RootValues(const ValueMap& values) const {
  ir::VarMap roots;
  for (const auto& list : {stage_.op()->axis, stage_.op()->reduce_axis}) {
    for (const auto& iv : list) {
      auto it = values.find(iv.get());
      if (it == values.end()) continue;
      const ir::Expr& min = RangeOf(iv).min;
      roots[iv->var.get()] = ir::IsConstInt(min, 0) ? it->second : min + it->second;
    }
  }
  return roots;
}

std::vector<Guard> StageNestBuilder::MakeGuards(const ValueMap& values, bool data_par_only) const {
  arith::Analyzer* analyzer = parent_->analyzer();
  std::vector<Guard> guards;
  for (const ir::Expr& g : SplitGuards(stage_, parent_->ranges(), values, analyzer)) {
    guards.push_back({g, LevelOf(g)});
  }
  // A stage computed for a region (compute_at) may cover more than its tensor's domain.
  ir::VarMap roots = RootValues(values);
  for (const auto& iv : stage_.op()->axis) {
    // Computed over its whole domain, the axis stays in it (split guards cover the tail).
    const ir::Range& r = RangeOf(iv);
    if (ir::StructuralEqual(r.min, iv->dom.min) && ir::StructuralEqual(r.extent, iv->dom.extent)) {
      continue;
    }
    ir::Expr value = roots.at(iv->var.get());
    ir::Expr lo = value >= iv->dom.min, hi = value < iv->dom.min + iv->dom.extent;
    for (const ir::Expr& c : {lo, hi}) {
      if (!analyzer->CanProve(c)) guards.push_back({c, LevelOf(c)});
    }
  }
  if (data_par_only) {
    std::vector<Guard> kept;
    for (const Guard& g : guards) {
      bool uses_reduce = false;
      ir::PostOrderVisit(g.condition, [&](const ir::Expr& x) {
        for (const auto& iv : stage_.leaf_iter_vars()) {
          uses_reduce =
              uses_reduce || (iv->iter_type == ir::IterVarType::kCommReduce && x.same_as(iv->var));
        }
      });
      if (!uses_reduce) kept.push_back(g);
    }
    guards = std::move(kept);
  }
  return guards;
}

ir::Stmt StageNestBuilder::MakeBody(const ValueMap& values) const {
  ir::VarMap roots = RootValues(values);
  const te::Operation& op = stage_.op();
  std::vector<ir::Expr> indices;
  for (const auto& iv : op->axis) indices.push_back(roots.at(iv->var.get()));
  const auto* reduce = info_.body.As<ir::ReduceNode>();
  if (reduce == nullptr) {
    return ir::BufferStoreNode::Make(op->buffer, ir::Substitute(info_.body, roots), indices);
  }
  ir::Expr current = ir::BufferLoadNode::Make(op->buffer, indices);
  ir::VarMap combine{{reduce->combiner->lhs.get(), current},
                     {reduce->combiner->rhs.get(), ir::Substitute(reduce->source, roots)}};
  ir::Stmt update = ir::BufferStoreNode::Make(
      op->buffer, ir::Substitute(reduce->combiner->result, combine), indices);
  if (!ir::IsConstInt(reduce->condition, 1)) {
    update = ir::IfThenElseNode::Make(ir::Substitute(reduce->condition, roots), update);
  }
  return update;
}

LaunchScope StageNestBuilder::ScopeAt(size_t k) const {
  LaunchScope scope = launched_;
  for (size_t j = k + 1; j < leaf_launch_keys_.size(); ++j) {
    if (!leaf_launch_keys_[j].empty()) scope.erase(leaf_launch_keys_[j]);
  }
  return scope;
}

absl::StatusOr<ir::Stmt> StageNestBuilder::BuildTensorized(size_t t,
                                                           const std::vector<Guard>& guards) {
  const auto& leaves = stage_.leaf_iter_vars();
  const std::string where =
      absl::StrCat("tensorize on stage ", stage_.name(), " at axis ", leaves[t]->var.name(), ": ");
  for (const Guard& g : guards) {
    if (g.level >= static_cast<int>(t)) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, "the loops inside it would need the guard ", ir::ToString(g.condition),
          " (a split that does not divide its axis); the intrinsic covers whole blocks"));
    }
  }
  for (size_t k = t; k < leaves.size(); ++k) {
    if (!parent_->graph().AttachedAt(&stage_, leaves[k]).empty()) {
      return absl::InvalidArgumentError(absl::StrCat(where, "another stage is computed at axis ",
                                                     leaves[k]->var.name(), " inside it"));
    }
  }
  absl::StatusOr<ir::Stmt> body =
      TensorizeLoops(stage_, info_.body, t, parent_->ranges(), leaf_values_, parent_->analyzer());
  if (!body.ok()) return body.status();
  if (info_.body.As<ir::ReduceNode>() && first_reduce_ >= static_cast<int>(t)) {
    // Every reduction loop is inside the intrinsic: the output block starts from the identity.
    absl::StatusOr<ir::Stmt> init = MakeInit(t);
    if (!init.ok()) return init.status();
    body = ir::SeqStmtNode::Make({*init, *body});
  }
  std::vector<size_t> loops;
  std::map<size_t, ir::Var> vars;
  for (size_t k = 0; k < t; ++k) {
    loops.push_back(k);
    vars[k] = leaves[k]->var;
  }
  return Nest(*body, guards, loops, vars, /*init=*/false);
}

// The initialisation runs over the data-parallel axes from `from` on (just after the first
// reduction axis, or a tensorized block's), with fresh loop variables; axes before it are
// already bound by the enclosing loops.
absl::StatusOr<ir::Stmt> StageNestBuilder::MakeInit(size_t from) {
  const auto& leaves = stage_.leaf_iter_vars();
  const auto* reduce = info_.body.As<ir::ReduceNode>();
  ValueMap values = leaf_values_;
  std::vector<size_t> loops;
  std::map<size_t, ir::Var> vars;
  // The fresh loop variables get their loops' ranges, as the update's do, so that guards the
  // update does not need are not emitted around the init either.
  arith::Analyzer::Scope bound_here = parent_->analyzer()->OpenScope();
  for (size_t k = from; k < leaves.size(); ++k) {
    if (leaves[k]->iter_type == ir::IterVarType::kCommReduce) continue;
    ir::Var v(leaves[k]->var.name() + ".init", leaves[k]->var.dtype());
    ir::Expr extent = RangeOf(leaves[k]).extent;
    parent_->analyzer()->Bind(v, ir::Range{ir::MakeZero(extent.dtype()), extent});
    values[leaves[k].get()] = v;
    var_level_[v.get()] = static_cast<int>(k);
    loops.push_back(k);
    vars[k] = v;
  }
  PassUpIndex(stage_, parent_->ranges(), &values);
  std::vector<Guard> guards;
  for (const Guard& g : MakeGuards(values, /*data_par_only=*/true)) {
    if (g.level >= static_cast<int>(from)) guards.push_back(g);
  }
  for (const Guard& g : thread_guards_) {
    if (g.level >= static_cast<int>(from)) guards.push_back(g);
  }
  ir::VarMap roots = RootValues(values);
  std::vector<ir::Expr> indices;
  for (const auto& iv : stage_.op()->axis) indices.push_back(roots.at(iv->var.get()));
  ir::Stmt store = ir::BufferStoreNode::Make(stage_.op()->buffer, reduce->combiner->identity,
                                             std::move(indices));
  return Nest(store, guards, loops, vars, /*init=*/true);
}

absl::StatusOr<ir::Stmt> StageNestBuilder::Nest(ir::Stmt body, const std::vector<Guard>& guards,
                                                const std::vector<size_t>& loop_leaves,
                                                const std::map<size_t, ir::Var>& loop_vars,
                                                bool init) {
  auto wrap_guards = [&](int level, ir::Stmt s) {
    ir::Expr cond;
    for (const Guard& g : guards) {
      if (g.level == level) cond = cond.defined() ? (cond && g.condition) : g.condition;
    }
    return cond.defined() ? ir::IfThenElseNode::Make(ir::Likely(cond), s) : s;
  };
  const auto& leaves = stage_.leaf_iter_vars();
  body = wrap_guards(static_cast<int>(leaves.size()), body);
  for (size_t n = loop_leaves.size(); n-- > 0;) {
    size_t k = loop_leaves[n];
    if (!init) {
      std::vector<const StageInfo*> attached = parent_->graph().AttachedAt(&stage_, leaves[k]);
      for (auto it = attached.rbegin(); it != attached.rend(); ++it) {
        absl::StatusOr<ir::Stmt> s = parent_->Produce(**it, body, ScopeAt(k));
        if (!s.ok()) return s.status();
        body = *s;
      }
    }
    body = wrap_guards(static_cast<int>(k), body);
    absl::StatusOr<ir::Stmt> loop = WrapLoop(k, loop_vars.at(k), body);
    if (!loop.ok()) return loop.status();
    body = *loop;
    if (!init && static_cast<int>(k) == first_reduce_ && info_.body.As<ir::ReduceNode>()) {
      absl::StatusOr<ir::Stmt> init_nest = MakeInit(first_reduce_ + 1);
      if (!init_nest.ok()) return init_nest.status();
      body = ir::SeqStmtNode::Make({*init_nest, body});
    }
  }
  if (!init) body = wrap_guards(-1, body);
  return body;
}

absl::StatusOr<ir::Stmt> StageNestBuilder::WrapLoop(size_t k, const ir::Var& var, ir::Stmt body) {
  const ir::IterVar& leaf = stage_.leaf_iter_vars()[k];
  const IterVarAttr* attr = stage_.attr_of(leaf);
  ir::Stmt loop;
  if (attr && attr->bind_thread.defined()) {
    if (leaf_launch_keys_[k].empty()) return body;  // runs on threads an enclosing stage launched
    const ir::IterVar& thread = attr->bind_thread;
    const Launch& launch = launched_.at(leaf_launch_keys_[k]);
    const char* key =
        IsThreadTag(thread->thread_tag) ? ir::attr::kThreadExtent : ir::attr::kVirtualThread;
    loop = ir::AttrStmtNode::Make(thread, key, launch.extent, body);
  } else {
    ir::Expr extent = parent_->analyzer()->Simplify(RangeOf(leaf).extent);
    ir::ForKind kind = attr ? attr->kind : ir::ForKind::kSerial;
    loop = ir::ForNode::Make(var, ir::MakeZero(var.dtype()), extent, kind, body);
  }
  if (attr) {
    for (const auto& pragma : attr->pragmas) {
      loop = ir::AttrStmtNode::Make(leaf, ir::attr::kPragmaPrefix + pragma,
                                    ir::IntImm(ir::DataType::Int(32), 1), loop);
    }
  }
  return loop;
}

absl::StatusOr<ir::Stmt> LoopNestBuilder::Produce(const StageInfo& info, ir::Stmt rest,
                                                  const LaunchScope& launched) {
  absl::StatusOr<ir::Stmt> nest = StageNestBuilder(this, info, launched).Build();
  if (!nest.ok()) return nest.status();
  const ir::Buffer& buffer = info.stage->op()->buffer;
  ir::Stmt body = ir::SeqStmtNode::Make(
      {ir::AttrStmtNode::Make(buffer, ir::attr::kProduce, ir::Expr(), *nest), rest});
  if (params_.count(buffer.get())) return body;
  std::vector<ir::Range> bounds;
  for (const auto& iv : info.stage->op()->axis) {
    const ir::Range& r = ranges_.at(iv.get());
    bounds.push_back({analyzer_->Simplify(r.min), analyzer_->Simplify(r.extent)});
  }
  return ir::BufferRealizeNode::Make(buffer, std::move(bounds), body);
}

}  // namespace

absl::StatusOr<ir::Stmt> ScheduleOps(const ScheduleGraph& graph, const RangeMap& ranges,
                                     const std::unordered_set<const ir::BufferNode*>& params,
                                     arith::Analyzer* analyzer) {
  return LoopNestBuilder(graph, ranges, params, analyzer).Build();
}

}  // namespace tunefarm::schedule
