#include "compiler/topi/concat.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

absl::StatusOr<te::Tensor> ConcatCompute(const std::vector<te::Tensor>& inputs, int axis) {
  if (inputs.empty()) return absl::InvalidArgumentError("concat: no inputs");
  absl::StatusOr<std::vector<int64_t>> first = StaticShape("concat", inputs[0]);
  if (!first.ok()) return first.status();
  if (axis < 0 || axis >= static_cast<int>(first->size())) {
    return absl::InvalidArgumentError(
        absl::StrCat("concat: axis ", axis, " is not an axis of ", ShapeString(*first)));
  }
  std::vector<int64_t> offsets;  // where each input starts along `axis`
  int64_t total = 0;
  for (const te::Tensor& t : inputs) {
    absl::StatusOr<std::vector<int64_t>> s = StaticShape("concat", t, first->size());
    if (!s.ok()) return s.status();
    bool same = t.dtype() == inputs[0].dtype();
    for (size_t d = 0; same && d < s->size(); ++d) {
      same = static_cast<int>(d) == axis || (*s)[d] == (*first)[d];
    }
    if (!same) {
      return absl::InvalidArgumentError(absl::StrCat(
          "concat: ", t.name(), " ", ShapeString(*s), " does not match ", inputs[0].name(), " ",
          ShapeString(*first), " outside axis ", axis, ", or its dtype differs"));
    }
    offsets.push_back(total);
    total += (*s)[axis];
  }
  std::vector<ir::Expr> shape;
  for (int64_t d : *first) shape.push_back(Imm(d));
  shape[axis] = Imm(total);
  auto body = [&](const std::vector<ir::Var>& i) {
    auto read = [&](size_t k) {
      std::vector<ir::Expr> index(i.begin(), i.end());
      if (offsets[k] != 0) index[axis] = i[axis] - Imm(offsets[k]);
      return inputs[k](index);
    };
    // From the last input backwards: input k when the index is below the start of input k+1.
    ir::Expr value = read(inputs.size() - 1);
    for (size_t k = inputs.size() - 1; k-- > 0;) {
      if (offsets[k + 1] == offsets[k]) continue;  // input k is empty
      value = ir::IfThenElse(i[axis] < Imm(offsets[k + 1]), read(k), value);
    }
    return value;
  };
  return te::compute(shape, body, "concat");
}

}  // namespace tunefarm::topi
