#include "compiler/schedule/tensorize.h"

#include <map>
#include <unordered_set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/arith/analyzer.h"
#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/structural_equal.h"
#include "compiler/ir/visitor.h"
#include "compiler/schedule/tensor_intrin.h"

namespace tunefarm::schedule {
namespace {

std::string Indices(const std::vector<ir::Expr>& indices) {
  std::vector<std::string> parts;
  for (const ir::Expr& e : indices) parts.push_back(ir::ToString(e));
  return absl::StrCat("[", absl::StrJoin(parts, ", "), "]");
}

// Walks the stage's expression and the intrinsic's side by side. Where the intrinsic reads one of
// its placeholders, the stage must read a tensor of that dtype at indices that differ from the
// placeholder's by a fixed offset (the region's origin) in the trailing dimensions and do not
// move at all in the leading ones; everything else must be the same expression.
class RegionMatcher {
 public:
  RegionMatcher(std::unordered_set<const ir::VarNode*> intrin_vars, arith::Analyzer* analyzer,
                std::string where)
      : intrin_vars_(std::move(intrin_vars)), analyzer_(analyzer), where_(std::move(where)) {}

  absl::Status Match(const ir::Expr& stage, const ir::Expr& intrin) {
    if (const auto* p = intrin.As<ir::BufferLoadNode>()) {
      const auto* x = stage.As<ir::BufferLoadNode>();
      if (x == nullptr) {
        return Fail(absl::StrCat("the stage computes ", ir::ToString(stage),
                                 " where the intrinsic reads ", p->buffer->name));
      }
      if (x->buffer->dtype != p->buffer->dtype) {
        return Fail(absl::StrCat("the stage reads ", x->buffer->name, " as ",
                                 x->buffer->dtype.ToString(), " where the intrinsic reads ",
                                 p->buffer->name, " as ", p->buffer->dtype.ToString()));
      }
      return Bind(p->buffer, x->buffer, x->indices, p->indices);
    }
    if (stage.kind() != intrin.kind() || stage.dtype() != intrin.dtype()) {
      return Mismatch(stage, intrin);
    }
    switch (stage.kind()) {
#define TF_MATCH_BINARY(Name)                                                     \
  case ir::ExprKind::k##Name: {                                                   \
    const auto *s = stage.As<ir::Name##Node>(), *i = intrin.As<ir::Name##Node>(); \
    if (absl::Status st = Match(s->a, i->a); !st.ok()) return st;                 \
    return Match(s->b, i->b);                                                     \
  }
      TF_IR_BINARY_NODES(TF_MATCH_BINARY)
#undef TF_MATCH_BINARY
      case ir::ExprKind::kCast:
        return Match(stage.As<ir::CastNode>()->value, intrin.As<ir::CastNode>()->value);
      case ir::ExprKind::kNot:
        return Match(stage.As<ir::NotNode>()->a, intrin.As<ir::NotNode>()->a);
      case ir::ExprKind::kSelect: {
        const auto *s = stage.As<ir::SelectNode>(), *i = intrin.As<ir::SelectNode>();
        for (auto [a, b] : {std::pair{s->condition, i->condition},
                            {s->true_value, i->true_value},
                            {s->false_value, i->false_value}}) {
          if (absl::Status st = Match(a, b); !st.ok()) return st;
        }
        return absl::OkStatus();
      }
      case ir::ExprKind::kCall: {
        const auto *s = stage.As<ir::CallNode>(), *i = intrin.As<ir::CallNode>();
        if (s->op != i->op) return Mismatch(stage, intrin);
        for (size_t k = 0; k < s->args.size(); ++k) {
          if (absl::Status st = Match(s->args[k], i->args[k]); !st.ok()) return st;
        }
        return absl::OkStatus();
      }
      default:
        if (!analyzer_->CanProve(stage == intrin) && !ir::StructuralEqual(stage, intrin)) {
          return Mismatch(stage, intrin);
        }
        return absl::OkStatus();
    }
  }

  // `placeholder` (the intrinsic's) at `p_indices` is `tensor` at `x_indices`.
  absl::Status Bind(const ir::Buffer& placeholder, const ir::Buffer& tensor,
                    const std::vector<ir::Expr>& x_indices,
                    const std::vector<ir::Expr>& p_indices) {
    const size_t rank = x_indices.size(), p_rank = p_indices.size();
    const std::string access = absl::StrCat(tensor->name, Indices(x_indices), " (the intrinsic's ",
                                            placeholder->name, Indices(p_indices), ")");
    if (rank < p_rank) {
      return Fail(absl::StrCat(access, ": ", tensor->name, " has fewer dimensions than ",
                               placeholder->name));
    }
    std::vector<ir::Expr> origin(rank);
    for (size_t d = 0; d < rank; ++d) {
      const bool trailing = d >= rank - p_rank;
      ir::Expr offset = trailing ? x_indices[d] - p_indices[d - (rank - p_rank)] : x_indices[d];
      offset = analyzer_->Simplify(offset);
      if (MovesWithIntrinsic(offset)) {
        const std::string why =
            trailing ? absl::StrCat("does not move as dimension ", d - (rank - p_rank), " of ",
                                    placeholder->name, " does (offset ", ir::ToString(offset), ")")
                     : absl::StrCat("lies outside the ", p_rank, " dimensions ", placeholder->name,
                                    " covers but its index ", ir::ToString(offset),
                                    " changes inside the tensorized loops");
        return Fail(absl::StrCat(access, ": dimension ", d, " of ", tensor->name, " ", why));
      }
      origin[d] = offset;
    }
    auto [it, fresh] = regions_.try_emplace(placeholder.get(), TensorRegion{tensor, origin});
    if (fresh) return absl::OkStatus();
    const TensorRegion& before = it->second;
    bool same = before.buffer.same_as(tensor);
    for (size_t d = 0; same && d < rank; ++d) {
      same = analyzer_->CanProve(before.origin[d] == origin[d]);
    }
    if (!same) {
      return Fail(absl::StrCat(placeholder->name,
                               " stands for two different regions: ", before.buffer->name,
                               Indices(before.origin), " and ", tensor->name, Indices(origin)));
    }
    return absl::OkStatus();
  }

  const TensorRegion* RegionOf(const ir::Buffer& placeholder) const {
    auto it = regions_.find(placeholder.get());
    return it == regions_.end() ? nullptr : &it->second;
  }

  absl::Status Fail(const std::string& why) const {
    return absl::InvalidArgumentError(absl::StrCat(where_, why));
  }

 private:
  absl::Status Mismatch(const ir::Expr& stage, const ir::Expr& intrin) const {
    return Fail(absl::StrCat("the stage computes ", ir::ToString(stage), " (",
                             stage.dtype().ToString(), ") where the intrinsic computes ",
                             ir::ToString(intrin), " (", intrin.dtype().ToString(), ")"));
  }

  bool MovesWithIntrinsic(const ir::Expr& e) const {
    bool moves = false;
    ir::PostOrderVisit(e, [&](const ir::Expr& x) {
      const auto* v = x.As<ir::VarNode>();
      moves = moves || (v != nullptr && intrin_vars_.count(v));
    });
    return moves;
  }

  std::unordered_set<const ir::VarNode*> intrin_vars_;
  arith::Analyzer* analyzer_;
  std::string where_;
  std::map<const ir::BufferNode*, TensorRegion> regions_;
};

// A region the emitter reads as one block: past its first dimension, the operand must span the
// tensor's whole trailing dimensions from index 0.
absl::Status CheckDense(const RegionMatcher& m, const ir::Buffer& placeholder,
                        const TensorRegion& region, arith::Analyzer* analyzer) {
  const std::vector<ir::Expr>& p_shape = placeholder->shape;
  const std::vector<ir::Expr>& x_shape = region.buffer->shape;
  const size_t skip = x_shape.size() - p_shape.size();
  for (size_t j = 1; j < p_shape.size(); ++j) {
    const size_t d = skip + j;
    if (!analyzer->CanProve(x_shape[d] == p_shape[j]) ||
        !analyzer->CanProve(region.origin[d] == 0)) {
      std::vector<std::string> dims;
      for (const ir::Expr& e : p_shape) dims.push_back(ir::ToString(e));
      return m.Fail(absl::StrCat(
          "the intrinsic reads ", placeholder->name, " as one contiguous ",
          absl::StrJoin(dims, "x"), " block, but in ", region.buffer->name, " dimension ", d,
          " spans ", ir::ToString(x_shape[d]), " elements from ", ir::ToString(region.origin[d]),
          " where it needs exactly ", ir::ToString(p_shape[j]), " from 0 (a wrong stride); ",
          "pack the tensor so the block is contiguous"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ir::Stmt> TensorizeLoops(const Stage& stage, const ir::Expr& body, size_t leaf,
                                        const RangeMap& ranges, ValueMap values,
                                        arith::Analyzer* analyzer) {
  const auto& leaves = stage.leaf_iter_vars();
  const TensorIntrinNode& intrin = *stage.attr_of(leaves[leaf])->tensor_intrin;
  const std::string where = absl::StrCat("tensorize on stage ", stage.name(), " at axis ",
                                         leaves[leaf]->var.name(), " with ", intrin.name, ": ");
  auto fail = [&](const std::string& why) { return absl::InvalidArgumentError(where + why); };

  // The loops inside pair with the intrinsic's axes in order, data-parallel and reduction apart.
  std::vector<ir::IterVar> data, reduce;
  for (size_t k = leaf; k < leaves.size(); ++k) {
    const IterVarAttr* attr = stage.attr_of(leaves[k]);
    if (attr && attr->bind_thread.defined()) {
      return fail(absl::StrCat("axis ", leaves[k]->var.name(), " inside it is bound to ",
                               attr->bind_thread->thread_tag));
    }
    (leaves[k]->iter_type == ir::IterVarType::kCommReduce ? reduce : data).push_back(leaves[k]);
  }
  const te::OperationNode& iop = *intrin.op;
  auto names = [](const std::vector<ir::IterVar>& ivs) {
    std::vector<std::string> n;
    for (const ir::IterVar& iv : ivs) n.push_back(iv->var.name());
    return absl::StrJoin(n, ", ");
  };
  if (data.size() != iop.axis.size() || reduce.size() != iop.reduce_axis.size()) {
    return fail(absl::StrCat("the loops from here in are ", data.size(), " data-parallel (",
                             names(data), ") and ", reduce.size(), " reduction (", names(reduce),
                             "); the intrinsic has ", iop.axis.size(), " (", names(iop.axis),
                             ") and ", iop.reduce_axis.size(), " (", names(iop.reduce_axis), ")"));
  }
  std::unordered_set<const ir::VarNode*> intrin_vars;
  ir::VarMap unit_axes;
  // The intrinsic's axes stand for the inner loops: the analyzer knows their ranges while the
  // indices are matched (floordiv(no * 16 + i, 16) is no for i < 16).
  arith::Analyzer::Scope intrin_ranges = analyzer->OpenScope();
  auto pair_up = [&](const std::vector<ir::IterVar>& mine,
                     const std::vector<ir::IterVar>& its) -> absl::Status {
    for (size_t k = 0; k < mine.size(); ++k) {
      ir::Expr extent = analyzer->Simplify(ranges.at(mine[k].get()).extent);
      if (!analyzer->CanProve(extent == its[k]->dom.extent)) {
        return fail(absl::StrCat("axis ", mine[k]->var.name(), " has extent ", ir::ToString(extent),
                                 " where the intrinsic's axis ", its[k]->var.name(), " has ",
                                 ir::ToString(its[k]->dom.extent)));
      }
      if (ir::IsConstInt(its[k]->dom.extent, 1)) {
        // An axis of one iteration is 0 on both sides (the simplifier would not fold it away).
        values[mine[k].get()] = ir::MakeZero(mine[k]->var.dtype());
        unit_axes[its[k]->var.get()] = ir::MakeZero(its[k]->var.dtype());
        continue;
      }
      values[mine[k].get()] = its[k]->var;
      analyzer->Bind(its[k]->var, its[k]->dom);
      intrin_vars.insert(its[k]->var.get());
    }
    return absl::OkStatus();
  };
  if (absl::Status st = pair_up(data, iop.axis); !st.ok()) return st;
  if (absl::Status st = pair_up(reduce, iop.reduce_axis); !st.ok()) return st;
  PassUpIndex(stage, ranges, &values);
  ir::VarMap roots;
  for (const auto& list : {stage.op()->axis, stage.op()->reduce_axis}) {
    for (const ir::IterVar& iv : list) {
      const ir::Expr& min = ranges.at(iv.get()).min;
      const ir::Expr& v = values.at(iv.get());
      roots[iv->var.get()] = ir::IsConstInt(min, 0) ? v : min + v;
    }
  }

  const auto* mine = body.As<ir::ReduceNode>();
  const auto* its = iop.body.As<ir::ReduceNode>();
  if ((mine == nullptr) != (its == nullptr)) {
    return fail(absl::StrCat("the stage ", mine ? "is" : "is not",
                             " a reduction and the intrinsic ", its ? "is" : "is not"));
  }
  if (mine != nullptr) {
    if (mine->combiner->name != its->combiner->name) {
      return fail(absl::StrCat("the stage reduces by ", mine->combiner->name, ", the intrinsic by ",
                               its->combiner->name));
    }
    if (!ir::IsConstInt(mine->condition, 1) || !ir::IsConstInt(its->condition, 1)) {
      return fail("a reduction with a condition (where=) cannot be tensorized");
    }
  }
  RegionMatcher matcher(intrin_vars, analyzer, where);
  const ir::Expr value = ir::Substitute(mine ? mine->source : body, roots);
  const ir::Expr intrin_value = ir::Substitute(its ? its->source : iop.body, unit_axes);
  if (absl::Status st = matcher.Match(value, intrin_value); !st.ok()) return st;
  std::vector<ir::Expr> out_indices, intrin_out_indices;
  for (const ir::IterVar& iv : stage.op()->axis) out_indices.push_back(roots.at(iv->var.get()));
  for (const ir::IterVar& iv : iop.axis) {
    intrin_out_indices.push_back(ir::Substitute(iv->var, unit_axes));
  }
  if (absl::Status st =
          matcher.Bind(iop.buffer, stage.op()->buffer, out_indices, intrin_out_indices);
      !st.ok()) {
    return st;
  }

  std::vector<TensorRegion> inputs;
  for (size_t k = 0; k < intrin.inputs.size(); ++k) {
    const ir::Buffer& p = intrin.inputs[k].buffer();
    const TensorRegion* region = matcher.RegionOf(p);
    if (region == nullptr) {
      return fail(
          absl::StrCat("the stage never reads a tensor where the intrinsic reads ", p->name));
    }
    if (intrin.dense_inputs[k]) {
      if (absl::Status st = CheckDense(matcher, p, *region, analyzer); !st.ok()) return st;
    }
    inputs.push_back(*region);
  }
  const TensorRegion& output = *matcher.RegionOf(iop.buffer);
  if (intrin.dense_output) {
    if (absl::Status st = CheckDense(matcher, iop.buffer, output, analyzer); !st.ok()) return st;
  }
  return intrin.emit(inputs, output);
}

}  // namespace tunefarm::schedule
