// Casts between every pair of IR types through the JIT against the interpreter: integer casts
// wrap, float to integer truncates and saturates (NaN is 0, a negative value cast to unsigned
// wraps), anything to bool is != 0; scalar and 8-lane forms. float16 is checked on exact values.
#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>

#include "compiler/codegen/llvm/llvm_ir_text.h"
#include "tests/unit/compiler/codegen/llvm/codegen_test_util.h"

namespace tunefarm::codegen {
namespace {

using namespace testing;  // NOLINT
using ir::DataType;

constexpr int64_t kCastLength = 32;

const std::vector<DataType>& AllTypes() {
  static const std::vector<DataType> types = {DataType::Int(8),
                                              DataType::Int(16),
                                              DataType::Int(32),
                                              DataType::Int(64),
                                              DataType::UInt(8),
                                              DataType::UInt(16),
                                              DataType::UInt(32),
                                              DataType::UInt(64),
                                              kF32,
                                              kF64,
                                              DataType::Bool()};
  return types;
}

// One kernel per source type: OUT_k[i] = cast(type_k, A[i]) for every type k.
void CheckCastsFrom(DataType from, int lanes) {
  SCOPED_TRACE(absl::StrCat("from ", from.ToString(), " x", lanes));
  ir::Buffer a("A", from, {static_cast<int>(kCastLength)});
  std::vector<ir::Buffer> params = {a};
  std::vector<ir::Stmt> stores;
  ir::Var i("i", kI32);
  ir::Expr index = lanes == 1 ? ir::Expr(i) : ir::RampNode::Make(i * lanes, 1, lanes);
  for (DataType to : AllTypes()) {
    ir::Buffer out(absl::StrCat("to_", to.ToString()), to, {static_cast<int>(kCastLength)});
    params.push_back(out);
    stores.push_back(ir::StoreNode::Make(
        out->data, ir::CastNode::Make(to.with_lanes(lanes), At(a, index)), index));
  }
  ir::PrimFunc f{"casts", params,
                 ir::ForNode::Make(i, 0, static_cast<int>(kCastLength / lanes),
                                   ir::ForKind::kSerial, ir::SeqStmtNode::Make(stores))};
  std::vector<runtime::NDArray> arrays;
  arrays.reserve(params.size());
  for (const ir::Buffer& b : params) arrays.push_back(MakeArray(b->dtype, {kCastLength}));
  runtime::NDArray& in = arrays[0];
  if (from.is_float()) {
    Fill(in, 7, -3e10, 3e10);
    const double specials[] = {std::nan(""), -1.5, 300.7, -300.7,
                               65537.9,      3e19, -3e19, std::numeric_limits<double>::infinity(),
                               -0.0,         0.5,  1e300};
    for (size_t k = 0; k < std::size(specials); ++k)
      SetElement(in, static_cast<int64_t>(k), specials[k]);
  } else if (!from.is_bool()) {
    Fill(in, 8, from.is_uint() ? 0 : -std::ldexp(1.0, std::min(from.bits() - 1, 52)),
         std::ldexp(1.0, std::min(from.bits() - 1, 52)));
  } else {
    Fill(in, 9, 0, 2);
  }
  std::vector<runtime::NDArray*> ptrs;
  for (runtime::NDArray& x : arrays) ptrs.push_back(&x);
  ExpectMatchesInterpreter(f, ptrs, 1e-7, 0);
}

TEST(CodegenCastTest, EveryPairMatchesTheInterpreter) {
  for (DataType from : AllTypes()) CheckCastsFrom(from, 1);
}

TEST(CodegenCastTest, EveryPairMatchesTheInterpreterInVectors) {
  for (DataType from : AllTypes()) CheckCastsFrom(from, 8);
}

// A float clamped into int32's range (what a quantize computes) converts in int32, a vector
// instruction for all lanes; NaN still becomes 0 and the values match the interpreter's at the
// bounds.
TEST(CodegenCastTest, ClampedFloatsConvertInInt32VectorsAndMatchTheInterpreter) {
  struct Clamp {
    DataType to;
    double lo, hi;
  };
  for (const Clamp& c : {Clamp{DataType::UInt(8), 0, 255}, Clamp{DataType::Int(8), -128, 127},
                         Clamp{DataType::Int(32), -2147483648.0, 2147483520.0}}) {
    for (int lanes : {1, 16}) {
      SCOPED_TRACE(absl::StrCat(c.to.ToString(), " x", lanes));
      ir::Buffer a("A", kF32, {static_cast<int>(kCastLength)});
      ir::Buffer out("OUT", c.to, {static_cast<int>(kCastLength)});
      ir::Var i("i", kI32);
      ir::Expr index = lanes == 1 ? ir::Expr(i) : ir::RampNode::Make(i * lanes, 1, lanes);
      auto bound = [&](double v) {
        ir::Expr e = ir::FloatImm(kF32, v);
        return lanes == 1 ? e : ir::BroadcastNode::Make(e, lanes);
      };
      ir::Expr clamped = ir::Min(ir::Max(At(a, index), bound(c.lo)), bound(c.hi));
      ir::PrimFunc fn{
          "clamped_cast",
          {a, out},
          ir::ForNode::Make(
              i, 0, static_cast<int>(kCastLength / lanes), ir::ForKind::kSerial,
              ir::StoreNode::Make(out->data, ir::CastNode::Make(c.to.with_lanes(lanes), clamped),
                                  index))};
      runtime::NDArray av = MakeArray(kF32, {kCastLength}), ov = MakeArray(c.to, {kCastLength});
      Fill(av, 11, -3e3, 3e3);
      const double specials[] = {std::nan(""), -1.5, 254.7, 255.5, -128.9, 127.99, 3e10, -3e10};
      for (size_t k = 0; k < std::size(specials); ++k) {
        SetElement(av, static_cast<int64_t>(k), specials[k]);
      }
      ExpectMatchesInterpreter(fn, {&av, &ov}, 0, 0);
      absl::StatusOr<std::string> text = LlvmIrText({fn}, Host(), false);
      ASSERT_TRUE(text.ok()) << text.status();
      EXPECT_THAT(*text, ::testing::HasSubstr(lanes == 1 ? "fptosi float" : "fptosi <16 x float>"));
      EXPECT_THAT(*text, ::testing::Not(::testing::HasSubstr("fptosi.sat")));
    }
  }
}

// The interpreter has no float16; values that float16 holds exactly check the conversions and
// the arithmetic (LLVM's half type, promoted by the backend where the CPU lacks it).
TEST(CodegenCastTest, Float16RoundTripsAndComputes) {
  const DataType f16 = DataType::Float(16);
  ir::Buffer a("A", kF32, {16}), h("H", f16, {16}), c("C", kF32, {16});
  ir::Var i("i", kI32);
  ir::Stmt body = ir::SeqStmtNode::Make({
      ir::StoreNode::Make(h->data, ir::Cast(f16, At(a, i)) * ir::FloatImm(f16, 3.0), i),
      ir::StoreNode::Make(c->data, ir::Cast(kF32, At(h, i)) + 1.0f, i),
  });
  ir::PrimFunc f{"half", {a, h, c}, ir::ForNode::Make(i, 0, 16, ir::ForKind::kSerial, body)};
  runtime::NDArray av = MakeArray(kF32, {16}), hv = MakeArray(f16, {16}),
                   cv = MakeArray(kF32, {16});
  for (int k = 0; k < 16; ++k) SetElement(av, k, 0.5 * (k - 8));
  ASSERT_TRUE(RunJit(f, {&av, &hv, &cv}).ok());
  for (int k = 0; k < 16; ++k) EXPECT_EQ(ElementAt(cv, k), 1.5 * (k - 8) + 1.0) << k;
  // 0.5 * 3 = 1.5 is 0x3E00 in IEEE half precision.
  uint16_t bits = 0;
  std::memcpy(&bits, static_cast<const uint8_t*>(hv.data()) + 2 * 9, 2);
  EXPECT_EQ(bits, 0x3E00);
}

}  // namespace
}  // namespace tunefarm::codegen
