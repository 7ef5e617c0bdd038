#include "compiler/schedule/message_passing.h"

#include "compiler/ir/arith/analyzer.h"
#include "compiler/ir/check.h"
#include "compiler/ir/op.h"

namespace tunefarm::schedule {
namespace {

ir::Expr CeilDiv(const ir::Expr& a, const ir::Expr& b) { return ir::FloorDiv(a + b - 1, b); }

const ir::Range& RangeOf(const RangeMap& ranges, const ir::IterVar& iv) {
  auto it = ranges.find(iv.get());
  TF_CHECK(it != ranges.end()) << "no range for axis " << iv->var.name();
  return it->second;
}

}  // namespace

void PassDownDomain(const Stage& stage, RangeMap* ranges, arith::Analyzer* analyzer) {
  for (const Relation& rel : stage.relations()) {
    if (const auto* split = std::get_if<SplitRelation>(&rel)) {
      ir::Expr extent = RangeOf(*ranges, split->parent).extent;
      ir::DataType t = extent.dtype();
      ir::Expr inner, outer;
      if (split->factor.defined()) {
        inner = split->factor;
        outer = CeilDiv(extent, inner);
      } else {
        outer = split->nparts;
        inner = CeilDiv(extent, outer);
      }
      (*ranges)[split->outer.get()] = {ir::MakeZero(t), analyzer->Simplify(outer)};
      (*ranges)[split->inner.get()] = {ir::MakeZero(t), analyzer->Simplify(inner)};
    } else {
      const auto& fuse = std::get<FuseRelation>(rel);
      ir::Expr extent = RangeOf(*ranges, fuse.outer).extent * RangeOf(*ranges, fuse.inner).extent;
      (*ranges)[fuse.fused.get()] = {ir::MakeZero(extent.dtype()), analyzer->Simplify(extent)};
    }
  }
}

void PassUpIndex(const Stage& stage, const RangeMap& ranges, ValueMap* values) {
  const auto& relations = stage.relations();
  for (auto it = relations.rbegin(); it != relations.rend(); ++it) {
    if (const auto* split = std::get_if<SplitRelation>(&*it)) {
      const ir::Expr& inner_extent = RangeOf(ranges, split->inner).extent;
      (*values)[split->parent.get()] =
          values->at(split->outer.get()) * inner_extent + values->at(split->inner.get());
    } else {
      const auto& fuse = std::get<FuseRelation>(*it);
      const ir::Expr& fused = values->at(fuse.fused.get());
      const ir::Expr& inner_extent = RangeOf(ranges, fuse.inner).extent;
      (*values)[fuse.outer.get()] = ir::FloorDiv(fused, inner_extent);
      (*values)[fuse.inner.get()] = ir::FloorMod(fused, inner_extent);
    }
  }
}

std::vector<ir::Expr> SplitGuards(const Stage& stage, const RangeMap& ranges,
                                  const ValueMap& values, arith::Analyzer* analyzer) {
  std::vector<ir::Expr> guards;
  for (const Relation& rel : stage.relations()) {
    const auto* split = std::get_if<SplitRelation>(&rel);
    if (split == nullptr) continue;
    ir::Expr extent = RangeOf(ranges, split->parent).extent;
    ir::Expr covered = RangeOf(ranges, split->outer).extent * RangeOf(ranges, split->inner).extent;
    if (analyzer->CanProve(covered <= extent)) continue;
    guards.push_back(values.at(split->parent.get()) < extent);
  }
  return guards;
}

}  // namespace tunefarm::schedule
