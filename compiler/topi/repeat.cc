#include "compiler/topi/repeat.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

using ir::Expr;

absl::StatusOr<te::Tensor> GatherCompute(const te::Tensor& data, const te::Tensor& indices,
                                         int axis) {
  absl::StatusOr<std::vector<int64_t>> ds = StaticShape("gather", data);
  if (!ds.ok()) return ds.status();
  absl::StatusOr<std::vector<int64_t>> is = StaticShape("gather", indices);
  if (!is.ok()) return is.status();
  const int rank = static_cast<int>(ds->size());
  if (axis < 0 || axis >= rank || (*ds)[axis] == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("gather: axis ", axis, " is not a non-empty axis of ", ShapeString(*ds)));
  }
  if (!indices.dtype().is_int() || (indices.dtype().bits() != 32 && indices.dtype().bits() != 64)) {
    return absl::InvalidArgumentError(
        absl::StrCat("gather: indices ", indices.name(), " must be int32 or int64"));
  }
  std::vector<Expr> shape;
  for (int d = 0; d < axis; ++d) shape.push_back(Imm((*ds)[d]));
  for (int64_t e : *is) shape.push_back(Imm(e));
  for (int d = axis + 1; d < rank; ++d) shape.push_back(Imm((*ds)[d]));
  const int64_t extent = (*ds)[axis];
  const int index_rank = static_cast<int>(is->size());
  return te::compute(
      shape,
      [&](const std::vector<ir::Var>& i) {
        std::vector<Expr> at(i.begin() + axis, i.begin() + axis + index_rank);
        Expr k = ir::Cast(ir::DataType::Int(32), indices(at));
        k = ir::Select(k < Imm(0), k + Imm(extent), k);
        k = ir::Min(ir::Max(k, Imm(0)), Imm(extent - 1));
        std::vector<Expr> source(i.begin(), i.begin() + axis);
        source.push_back(k);
        source.insert(source.end(), i.begin() + axis + index_rank, i.end());
        return data(source);
      },
      "gather");
}

absl::StatusOr<te::Tensor> GatherElementsCompute(const te::Tensor& data, const te::Tensor& indices,
                                                 int axis) {
  absl::StatusOr<std::vector<int64_t>> ds = StaticShape("gather_elements", data);
  if (!ds.ok()) return ds.status();
  absl::StatusOr<std::vector<int64_t>> is = StaticShape("gather_elements", indices);
  if (!is.ok()) return is.status();
  const int rank = static_cast<int>(ds->size());
  bool fits = static_cast<int>(is->size()) == rank && axis >= 0 && axis < rank;
  for (int d = 0; fits && d < rank; ++d) fits = d == axis || (*is)[d] <= (*ds)[d];
  if (!fits || (*ds)[axis] == 0 || !indices.dtype().is_int()) {
    return absl::InvalidArgumentError(absl::StrCat("gather_elements: integer indices ",
                                                   ShapeString(*is), " do not fit data ",
                                                   ShapeString(*ds), " along axis ", axis));
  }
  const int64_t extent = (*ds)[axis];
  std::vector<Expr> shape;
  for (int64_t e : *is) shape.push_back(Imm(e));
  return te::compute(
      shape,
      [&](const std::vector<ir::Var>& i) {
        std::vector<Expr> at(i.begin(), i.end());
        Expr k = ir::Cast(ir::DataType::Int(32), indices(at));
        k = ir::Select(k < Imm(0), k + Imm(extent), k);
        at[axis] = ir::Min(ir::Max(k, Imm(0)), Imm(extent - 1));
        return data(at);
      },
      "gather_elements");
}

absl::StatusOr<te::Tensor> ExpandCompute(const te::Tensor& x, const std::vector<int64_t>& shape) {
  absl::StatusOr<std::vector<int64_t>> xs = StaticShape("expand", x);
  if (!xs.ok()) return xs.status();
  const size_t rank = std::max(xs->size(), shape.size());
  std::vector<Expr> out(rank);
  for (size_t d = 0; d < rank; ++d) {
    const int64_t a = d + xs->size() >= rank ? (*xs)[d + xs->size() - rank] : 1;
    const int64_t b = d + shape.size() >= rank ? shape[d + shape.size() - rank] : 1;
    if (a != b && a != 1 && b != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "expand: ", ShapeString(*xs), " does not broadcast to ", ShapeString(shape)));
    }
    out[d] = Imm(a == 1 ? b : a);
  }
  return te::compute(
      out,
      [&](const std::vector<ir::Var>& i) {
        std::vector<Expr> index;
        const size_t offset = rank - xs->size();
        for (size_t d = 0; d < xs->size(); ++d) {
          index.push_back((*xs)[d] == 1 ? Imm(0) : Expr(i[offset + d]));
        }
        return x(index);
      },
      "expand");
}

absl::StatusOr<te::Tensor> TileCompute(const te::Tensor& x, const std::vector<int64_t>& repeats) {
  absl::StatusOr<std::vector<int64_t>> xs = StaticShape("tile", x);
  if (!xs.ok()) return xs.status();
  if (repeats.size() != xs->size()) {
    return absl::InvalidArgumentError(absl::StrCat("tile: repeats ", ShapeString(repeats),
                                                   " must have one entry per axis of ",
                                                   ShapeString(*xs)));
  }
  std::vector<Expr> out;
  for (size_t d = 0; d < xs->size(); ++d) out.push_back(Imm((*xs)[d] * repeats[d]));
  return te::compute(
      out,
      [&](const std::vector<ir::Var>& i) {
        std::vector<Expr> index;
        for (size_t d = 0; d < xs->size(); ++d) {
          index.push_back(repeats[d] == 1 ? Expr(i[d]) : ir::FloorMod(i[d], Imm((*xs)[d])));
        }
        return x(index);
      },
      "tile");
}

}  // namespace tunefarm::topi
