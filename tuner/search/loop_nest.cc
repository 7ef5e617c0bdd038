#include "tuner/search/loop_nest.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "compiler/ir/visitor.h"
#include "tuner/search/index_evaluator.h"

namespace tunefarm::tuner {
namespace {

struct Frame {
  const ir::VarNode* var;
  int64_t min;
  int64_t extent;
  ir::ForKind kind;
  std::string thread_tag;
};

// One access as found, before merging: strides are per frame, outermost first.
struct RawAccess {
  const ir::VarNode* buffer_var;
  std::string name;
  bool is_store;
  int element_bytes;
  int lanes;
  int64_t lane_stride;
  std::vector<int64_t> strides;
};

// What the statements directly inside one loop do.
struct Accum {
  std::vector<RawAccess> accesses;
  OpCounts ops;
  bool any = false;
  int order = 0;  // program order of the loop, for stable ranking
};

int64_t TotalOps(const OpCounts& c) {
  return c.float_add + c.float_mul + c.float_fma + c.float_other + c.int_ops;
}

class NestCollector : public ir::Visitor {
 public:
  explicit NestCollector(const ir::PrimFunc& func) {
    for (const ir::Buffer& b : func.params) {
      std::optional<int64_t> n = ConstProduct(b->shape);
      if (n) buffer_elems_[b->data.get()] = *n;
    }
  }

  std::vector<std::pair<int, LoopNest>> TakeNests() { return std::move(nests_); }

 protected:
  using ir::Visitor::VisitExpr_;
  using ir::Visitor::VisitStmt_;

  void VisitStmt_(const ir::ForNode* op) override {
    VisitExpr(op->min);
    VisitExpr(op->extent);
    int64_t min = EvalOr(op->min, 0);
    int64_t extent = std::max<int64_t>(1, EvalOr(op->extent, 1));
    EnterLoop({op->loop_var.get(), min, extent, op->for_kind, op->thread_tag});
    VisitStmt(op->body);
    ExitLoop();
  }

  void VisitStmt_(const ir::AttrStmtNode* op) override {
    const auto* iv = std::get_if<ir::IterVar>(&op->node);
    bool launches = (op->key == ir::attr::kThreadExtent || op->key == ir::attr::kVirtualThread) &&
                    iv != nullptr && iv->defined();
    if (!launches) {
      ir::Visitor::VisitStmt_(op);
      return;
    }
    // A launch nested in one with the same tag reuses the running threads: its variable is the
    // enclosing one, and it multiplies nothing.
    for (const Frame& f : frames_) {
      if (!f.thread_tag.empty() && f.thread_tag == (*iv)->thread_tag) {
        aliases_.emplace_back((*iv)->var.get(), f.var);
        VisitStmt(op->body);
        aliases_.pop_back();
        return;
      }
    }
    int64_t extent = std::max<int64_t>(1, EvalOr(op->value, 1));
    EnterLoop({(*iv)->var.get(), 0, extent, ir::ForKind::kThreadBinding, (*iv)->thread_tag});
    VisitStmt(op->body);
    ExitLoop();
  }

  void VisitStmt_(const ir::LetStmtNode* op) override {
    VisitExpr(op->value);
    lets_[op->var.get()] = op->value;
    VisitStmt(op->body);
    lets_.erase(op->var.get());
  }

  void VisitStmt_(const ir::AllocateNode* op) override {
    std::optional<int64_t> n = ConstProduct(op->extents);
    if (n) buffer_elems_[op->buffer_var.get()] = *n * op->dtype.lanes();
    ir::Visitor::VisitStmt_(op);
  }

  void VisitStmt_(const ir::StoreNode* op) override {
    Record(op->buffer_var.get(), op->buffer_var.name(), true, op->value.dtype(), op->index);
    ir::Visitor::VisitStmt_(op);
  }

  void VisitExpr_(const ir::LoadNode* op) override {
    Record(op->buffer_var.get(), op->buffer_var.name(), false, op->dtype, op->index);
    ir::Visitor::VisitExpr_(op);
  }

  void VisitStmt_(const ir::BufferStoreNode* op) override {
    RecordMulti(op->buffer, true, op->value.dtype(), op->indices);
    ir::Visitor::VisitStmt_(op);
  }

  void VisitExpr_(const ir::BufferLoadNode* op) override {
    RecordMulti(op->buffer, false, op->dtype, op->indices);
    ir::Visitor::VisitExpr_(op);
  }

  void VisitExpr_(const ir::AddNode* op) override {
    CountAddSub(op, op->a, op->b);
    ir::Visitor::VisitExpr_(op);
  }
  void VisitExpr_(const ir::SubNode* op) override {
    CountAddSub(op, op->a, op->b);
    ir::Visitor::VisitExpr_(op);
  }
  void VisitExpr_(const ir::MulNode* op) override {
    if (fused_muls_.erase(op) == 0) Count(op->dtype, &OpCounts::float_mul);
    ir::Visitor::VisitExpr_(op);
  }
#define TF_COUNT_OTHER(Name)                           \
  void VisitExpr_(const ir::Name##Node* op) override { \
    Count(op->dtype, &OpCounts::float_other);          \
    ir::Visitor::VisitExpr_(op);                       \
  }
  TF_COUNT_OTHER(Div)
  TF_COUNT_OTHER(Mod)
  TF_COUNT_OTHER(FloorDiv)
  TF_COUNT_OTHER(FloorMod)
  TF_COUNT_OTHER(Min)
  TF_COUNT_OTHER(Max)
  TF_COUNT_OTHER(Select)
#undef TF_COUNT_OTHER

  void VisitExpr_(const ir::CastNode* op) override {
    if (op->dtype.is_float() && Current()) Current()->ops.float_other += op->dtype.lanes();
    ir::Visitor::VisitExpr_(op);
  }

  void VisitExpr_(const ir::CallNode* op) override {
    bool math = op->op != ir::Intrinsic::kLikely && op->op != ir::Intrinsic::kIfThenElse &&
                op->op != ir::Intrinsic::kSyncThreads;
    if (math && op->dtype.is_float() && Current()) {
      Current()->ops.float_other += op->dtype.lanes();
    }
    ir::Visitor::VisitExpr_(op);
  }

 private:
  static std::optional<int64_t> ConstProduct(const std::vector<ir::Expr>& dims) {
    int64_t n = 1;
    for (const ir::Expr& d : dims) {
      std::optional<int64_t> v = ir::AsConstInt(d);
      if (!v) return std::nullopt;
      n *= *v;
    }
    return n;
  }

  Accum* Current() { return accums_.empty() ? nullptr : &accums_.back(); }

  // Every loop variable at its minimum (aliases follow their loop).
  IndexEvaluator::Values Origin() const {
    IndexEvaluator::Values values;
    for (const Frame& f : frames_) Set(values, f.var, f.min);
    return values;
  }

  void Set(IndexEvaluator::Values& values, const ir::VarNode* var, int64_t value) const {
    values[var] = value;
    for (const auto& [alias, target] : aliases_) {
      if (target == var) values[alias] = value;
    }
  }

  int64_t EvalOr(const ir::Expr& e, int64_t fallback) const {
    IndexEvaluator::Values values = Origin();
    std::optional<int64_t> v = IndexEvaluator(values, lets_).Eval(e);
    return v.value_or(fallback);
  }

  void EnterLoop(Frame frame) {
    frames_.push_back(std::move(frame));
    accums_.emplace_back();
    accums_.back().order = next_order_++;
  }

  void ExitLoop();

  // Integer arithmetic counts as index work; a float add or sub of a float product is an fma.
  void Count(ir::DataType t, int64_t OpCounts::*field) {
    Accum* acc = Current();
    if (acc == nullptr) return;
    if (t.is_float()) {
      acc->ops.*field += t.lanes();
    } else if (t.is_int() || t.is_uint()) {
      acc->ops.int_ops += t.lanes();
    }
  }

  void CountAddSub(const ir::ExprNode* op, const ir::Expr& a, const ir::Expr& b) {
    if (op->dtype.is_float()) {
      for (const ir::Expr* operand : {&a, &b}) {
        if (const auto* mul = operand->As<ir::MulNode>()) {
          fused_muls_.insert(mul);
          Count(op->dtype, &OpCounts::float_fma);
          return;
        }
      }
    }
    Count(op->dtype, &OpCounts::float_add);
  }

  // Element index of `indices` into a row-major buffer of constant shape.
  void RecordMulti(const ir::Buffer& buffer, bool is_store, ir::DataType t,
                   const std::vector<ir::Expr>& indices) {
    std::vector<int64_t> dim_strides(indices.size(), 0);
    int64_t s = 1;
    for (size_t d = indices.size(); d-- > 0;) {
      dim_strides[d] = s;
      std::optional<int64_t> dim =
          d < buffer->shape.size() ? ir::AsConstInt(buffer->shape[d]) : std::nullopt;
      s *= dim.value_or(1);
    }
    if (buffer_elems_.count(buffer->data.get()) == 0) {
      if (std::optional<int64_t> n = ConstProduct(buffer->shape)) {
        buffer_elems_[buffer->data.get()] = *n;
      }
    }
    auto eval = [&](const IndexEvaluator& ev) -> std::optional<int64_t> {
      int64_t sum = 0;
      for (size_t d = 0; d < indices.size(); ++d) {
        std::optional<int64_t> v = ev.Eval(indices[d]);
        if (!v) return std::nullopt;
        sum += *v * dim_strides[d];
      }
      return sum;
    };
    AddAccess(buffer->data.get(), buffer->name, is_store, t, 1, 0, eval);
  }

  void Record(const ir::VarNode* buffer_var, const std::string& name, bool is_store, ir::DataType t,
              const ir::Expr& index) {
    int lanes = 1;
    int64_t lane_stride = 0;
    ir::Expr base = index;
    if (const auto* ramp = index.As<ir::RampNode>()) {
      lanes = ramp->lanes;
      base = ramp->base;
      lane_stride = EvalOr(ramp->stride, 0);
    }
    auto eval = [&](const IndexEvaluator& ev) { return ev.Eval(base); };
    AddAccess(buffer_var, name, is_store, t, lanes, lane_stride, eval);
  }

  template <typename EvalFn>
  void AddAccess(const ir::VarNode* buffer_var, const std::string& name, bool is_store,
                 ir::DataType t, int lanes, int64_t lane_stride, const EvalFn& eval) {
    Accum* acc = Current();
    if (acc == nullptr) return;
    acc->any = true;
    IndexEvaluator::Values values = Origin();
    IndexEvaluator ev(values, lets_);
    std::optional<int64_t> origin = eval(ev);
    std::vector<int64_t> strides(frames_.size(), 0);
    for (size_t i = 0; i < frames_.size() && origin; ++i) {
      Set(values, frames_[i].var, frames_[i].min + 1);
      std::optional<int64_t> moved = eval(ev);
      Set(values, frames_[i].var, frames_[i].min);
      if (moved) strides[i] = *moved - *origin;
    }
    acc->accesses.push_back(
        {buffer_var, name, is_store, t.element_of().bytes(), lanes, lane_stride, strides});
  }

  LoopNest Finalize(const Accum& acc) const;

  std::vector<Frame> frames_;
  std::vector<Accum> accums_;
  IndexEvaluator::Lets lets_;
  // Variables of nested launches that reuse an enclosing thread index: (alias, loop variable).
  std::vector<std::pair<const ir::VarNode*, const ir::VarNode*>> aliases_;
  std::unordered_map<const ir::VarNode*, int64_t> buffer_elems_;
  std::unordered_set<const ir::ExprNode*> fused_muls_;
  std::vector<std::pair<int, LoopNest>> nests_;
  int next_order_ = 0;
};

void NestCollector::ExitLoop() {
  Accum acc = std::move(accums_.back());
  accums_.pop_back();
  if (acc.any || TotalOps(acc.ops) > 0) nests_.emplace_back(acc.order, Finalize(acc));
  frames_.pop_back();
}

// Turns the raw accesses of one loop body into its nest: loops innermost first, merged
// accesses with per-level footprints.
LoopNest NestCollector::Finalize(const Accum& acc) const {
  LoopNest nest;
  const size_t depth = frames_.size();
  for (size_t i = depth; i-- > 0;) {
    LoopInfo loop;
    loop.extent = frames_[i].extent;
    loop.depth = static_cast<int>(i) + 1;
    loop.kind = frames_[i].kind;
    for (size_t j = 0; j < i; ++j) loop.prod_above *= frames_[j].extent;
    for (size_t j = i + 1; j < depth; ++j) loop.prod_below *= frames_[j].extent;
    nest.iterations *= static_cast<double>(loop.extent);
    nest.loops.push_back(loop);
  }
  nest.ops = acc.ops;
  // Merge equal accesses; stores first, then loads, each in order of appearance.
  using Key = std::tuple<const ir::VarNode*, bool, int, int64_t, std::vector<int64_t>>;
  std::map<Key, size_t> index_of;
  for (bool stores : {true, false}) {
    for (const RawAccess& raw : acc.accesses) {
      if (raw.is_store != stores) continue;
      Key key{raw.buffer_var, raw.is_store, raw.lanes, raw.lane_stride, raw.strides};
      if (auto it = index_of.find(key); it != index_of.end()) {
        ++nest.accesses[it->second].count;
        continue;
      }
      index_of[key] = nest.accesses.size();
      AccessInfo a;
      a.buffer = raw.name;
      a.is_store = raw.is_store;
      a.element_bytes = raw.element_bytes;
      a.lanes = raw.lanes;
      auto cap = buffer_elems_.find(raw.buffer_var);
      double product = raw.lane_stride != 0 ? raw.lanes : 1;
      double span = 1 + static_cast<double>(std::llabs(raw.lane_stride)) * (raw.lanes - 1);
      double accesses = raw.lanes;
      for (size_t l = 0; l < depth; ++l) {
        const size_t f = depth - 1 - l;  // the frame of loop l (innermost first)
        const double extent = static_cast<double>(frames_[f].extent);
        const int64_t stride = raw.strides[f];
        if (stride != 0) product *= extent;
        span += static_cast<double>(std::llabs(stride)) * (extent - 1);
        accesses *= extent;
        double distinct = std::min(product, span);
        if (cap != buffer_elems_.end()) distinct = std::min(distinct, double(cap->second));
        distinct = std::max(distinct, 1.0);
        a.strides.push_back(stride);
        a.touched_bytes.push_back(distinct * a.element_bytes);
        a.reuse.push_back(accesses / distinct);
      }
      nest.accesses.push_back(std::move(a));
    }
  }
  double per_body = static_cast<double>(TotalOps(nest.ops));
  for (const AccessInfo& a : nest.accesses) per_body += static_cast<double>(a.count) * a.lanes;
  nest.cost = nest.iterations * per_body;
  return nest;
}

}  // namespace

std::vector<LoopNest> AnalyzeLoopNests(const ir::PrimFunc& func) {
  NestCollector collector(func);
  if (func.body.defined()) collector.VisitStmt(func.body);
  std::vector<std::pair<int, LoopNest>> nests = collector.TakeNests();
  std::stable_sort(nests.begin(), nests.end(), [](const auto& x, const auto& y) {
    if (x.second.cost != y.second.cost) return x.second.cost > y.second.cost;
    return x.first < y.first;
  });
  std::vector<LoopNest> out;
  out.reserve(nests.size());
  for (auto& [order, nest] : nests) out.push_back(std::move(nest));
  return out;
}

}  // namespace tunefarm::tuner
