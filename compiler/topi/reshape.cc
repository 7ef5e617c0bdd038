#include "compiler/topi/reshape.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {
namespace {

int64_t Product(const std::vector<int64_t>& shape, size_t begin, size_t end) {
  int64_t p = 1;
  for (size_t d = begin; d < end; ++d) p *= shape[d];
  return p;
}

}  // namespace

absl::StatusOr<te::Tensor> ReshapeCompute(const te::Tensor& x, const std::vector<int64_t>& shape) {
  absl::StatusOr<std::vector<int64_t>> xs = StaticShape("reshape", x);
  if (!xs.ok()) return xs.status();
  bool valid = true;
  for (int64_t d : shape) valid = valid && d >= 0;
  if (!valid || Product(shape, 0, shape.size()) != Product(*xs, 0, xs->size())) {
    return absl::InvalidArgumentError(absl::StrCat("reshape: cannot reshape ", x.name(), " ",
                                                   ShapeString(*xs), " to ", ShapeString(shape)));
  }
  // Axes equal at the front (a prefix) and at the back (a suffix) of both shapes map directly;
  // only the middle goes through a flat index.
  size_t prefix = 0;
  while (prefix < shape.size() && prefix < xs->size() && shape[prefix] == (*xs)[prefix]) ++prefix;
  size_t suffix = 0;
  while (suffix + prefix < shape.size() && suffix + prefix < xs->size() &&
         shape[shape.size() - 1 - suffix] == (*xs)[xs->size() - 1 - suffix]) {
    ++suffix;
  }
  std::vector<ir::Expr> out_shape;
  for (int64_t d : shape) out_shape.push_back(Imm(d));
  auto body = [&](const std::vector<ir::Var>& i) {
    std::vector<ir::Expr> index(xs->size());
    for (size_t d = 0; d < prefix; ++d) index[d] = i[d];
    for (size_t d = 0; d < suffix; ++d) index[xs->size() - 1 - d] = i[shape.size() - 1 - d];
    // The middle: flatten the output's middle axes, then split over the input's.
    ir::Expr flat = Imm(0);
    for (size_t d = prefix; d + suffix < shape.size(); ++d) {
      flat = ir::FoldConstants(flat * Imm(shape[d])) + i[d];
    }
    const size_t in_end = xs->size() - suffix;
    for (size_t d = prefix; d < in_end; ++d) {
      int64_t inner = Product(*xs, d + 1, in_end);
      ir::Expr q = inner == 1 ? flat : ir::FloorDiv(flat, Imm(inner));
      index[d] = d == prefix ? q : ir::FloorMod(q, Imm((*xs)[d]));
      if ((*xs)[d] == 1) index[d] = Imm(0);
    }
    return x(index);
  };
  return te::compute(out_shape, body, "reshape");
}

}  // namespace tunefarm::topi
