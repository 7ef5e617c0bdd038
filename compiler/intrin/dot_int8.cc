#include "compiler/intrin/dot_int8.h"

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"

namespace tunefarm::intrin {
namespace {

bool IsByte(ir::DataType t) { return t.is_scalar() && t.is_integral() && t.bits() == 8; }

const char* ShortName(ir::DataType t) { return t.is_uint() ? "u8" : "i8"; }

}  // namespace

absl::StatusOr<schedule::TensorIntrin> DotInt8Intrin(int lanes, ir::DataType a_dtype,
                                                     ir::DataType b_dtype) {
  if (lanes < 1 || lanes > 32 || (lanes & (lanes - 1)) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("dot_int8 intrinsic: lanes must be a power of two up to 32, not ", lanes));
  }
  if (!IsByte(a_dtype) || !IsByte(b_dtype)) {
    return absl::InvalidArgumentError(absl::StrCat("dot_int8 intrinsic: operands must be int8 or ",
                                                   "uint8, not ", a_dtype.ToString(), " and ",
                                                   b_dtype.ToString()));
  }
  const std::string name =
      absl::StrCat("dot_4x", lanes, "_", ShortName(a_dtype), ShortName(b_dtype));
  te::Tensor a = te::placeholder({4}, a_dtype, "a");
  te::Tensor b = te::placeholder({lanes, 4}, b_dtype, "b");
  ir::IterVar k = te::reduce_axis(ir::Range{0, 4}, "quad");
  const ir::DataType i32 = ir::DataType::Int(32);
  absl::StatusOr<te::Tensor> c = te::compute(
      {lanes},
      [&](const std::vector<ir::Var>& i) {
        return te::sum(ir::Cast(i32, a({k->var})) * ir::Cast(i32, b({i[0], k->var})), {k});
      },
      "c", {"lane"});
  if (!c.ok()) return c.status();
  auto emit = [lanes](const std::vector<schedule::TensorRegion>& in,
                      const schedule::TensorRegion& out) {
    return out.Store(
        ir::Call(ir::Intrinsic::kDot4Add, {out.Load(lanes), in[0].Load(4), in[1].Load(4 * lanes)}));
  };
  return schedule::DeclareTensorIntrin(name, *c, {a, b}, {true, true}, /*dense_output=*/true, emit);
}

}  // namespace tunefarm::intrin
