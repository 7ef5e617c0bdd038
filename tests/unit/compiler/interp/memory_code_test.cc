// Flat Load/Store (scalar, gather, scatter) and multi-dimensional BufferLoad/BufferStore on
// parameters and realized buffers, for each element type, with bounds checking.
#include "compiler/interp/memory_code.h"

#include <cstdint>
#include <gtest/gtest.h>

#include "compiler/ir/op.h"
#include "tests/unit/compiler/interp/interp_fixtures.h"

namespace tunefarm::interp {
namespace {

using ir::DataType;
using ir::Expr;
using ir::Stmt;
using testing::Contents;
using testing::MakeArray;

Stmt SerialLoop(ir::Var v, Expr extent, Stmt body) {
  return ir::ForNode::Make(v, 0, extent, ir::ForKind::kSerial, body);
}

// B[i] = A[i] for i in [0, 4), for one element type.
template <typename T>
void ExpectCopies(DataType t, std::vector<T> values) {
  SCOPED_TRACE(t.ToString());
  ir::Buffer a("A", t, {4}), b("B", t, {4});
  ir::Var i("i");
  Stmt body = SerialLoop(i, 4, ir::StoreNode::Make(b->data, ir::LoadNode::Make(t, a->data, i), i));
  runtime::NDArray in = MakeArray<T>(t, {4}, values), out = MakeArray<T>(t, {4});
  ASSERT_TRUE(interp::Run(ir::PrimFunc{"copy", {a, b}, body}, {&in, &out}).ok());
  EXPECT_EQ(Contents<T>(out), values);
}

TEST(MemoryTest, LoadsAndStoresEveryElementType) {
  ExpectCopies<int8_t>(DataType::Int(8), {-128, -1, 0, 127});
  ExpectCopies<int16_t>(DataType::Int(16), {-32768, -1, 1, 32767});
  ExpectCopies<int32_t>(DataType::Int(32), {INT32_MIN, -1, 1, INT32_MAX});
  ExpectCopies<int64_t>(DataType::Int(64), {INT64_MIN, -1, 1, INT64_MAX});
  ExpectCopies<uint8_t>(DataType::UInt(8), {0, 1, 128, 255});
  ExpectCopies<uint16_t>(DataType::UInt(16), {0, 1, 32768, 65535});
  ExpectCopies<uint32_t>(DataType::UInt(32), {0, 1, 0x80000000u, 0xFFFFFFFFu});
  ExpectCopies<uint64_t>(DataType::UInt(64), {0, 1, uint64_t{1} << 63, ~uint64_t{0}});
  ExpectCopies<float>(DataType::Float(32), {-1.5f, 0.0f, 1e-30f, 3e38f});
  ExpectCopies<double>(DataType::Float(64), {-1.5, 0.1, 1e-300, 1e300});
  ExpectCopies<uint8_t>(DataType::Bool(), {0, 1, 1, 0});
}

TEST(MemoryTest, VectorLoadsGatherAndVectorStoresScatter) {
  const DataType f32 = DataType::Float(32);
  ir::Buffer a("A", f32, {8}), b("B", f32, {8});
  // B[ramp(7, -1, 4)] = A[ramp(0, 2, 4)]: a strided gather and a reversed scatter.
  Stmt body = ir::StoreNode::Make(
      b->data, ir::LoadNode::Make(f32.with_lanes(4), a->data, ir::RampNode::Make(0, 2, 4)),
      ir::RampNode::Make(7, -1, 4));
  runtime::NDArray in = MakeArray<float>(f32, {8}, {0, 1, 2, 3, 4, 5, 6, 7});
  runtime::NDArray out = MakeArray<float>(f32, {8}, {9, 9, 9, 9, 9, 9, 9, 9});
  ASSERT_TRUE(interp::Run(ir::PrimFunc{"gather", {a, b}, body}, {&in, &out}).ok());
  EXPECT_EQ(Contents<float>(out), (std::vector<float>{9, 9, 9, 9, 6, 4, 2, 0}));

  // Any vector index gathers: A[x4(3) * ramp(0, 1, 4) % 8].
  const Expr idx = ir::FloorModNode::Make(
      ir::MulNode::Make(ir::BroadcastNode::Make(3, 4), ir::RampNode::Make(0, 1, 4)),
      ir::BroadcastNode::Make(8, 4));
  Stmt gather = ir::StoreNode::Make(b->data, ir::LoadNode::Make(f32.with_lanes(4), a->data, idx),
                                    ir::RampNode::Make(0, 1, 4));
  ASSERT_TRUE(interp::Run(ir::PrimFunc{"gather2", {a, b}, gather}, {&in, &out}).ok());
  EXPECT_EQ(Contents<float>(out), (std::vector<float>{0, 3, 6, 1, 6, 4, 2, 0}));
}

TEST(MemoryTest, OutOfBoundsAccessesAreErrorsNamingBufferIndexAndBound) {
  const DataType f32 = DataType::Float(32);
  ir::Buffer a("A", f32, {4});
  runtime::NDArray arr = MakeArray<float>(f32, {4});
  ir::Var i("i");
  Stmt store = SerialLoop(i, 5, ir::StoreNode::Make(a->data, ir::FloatImm(f32, 1), i));
  absl::Status s = interp::Run(ir::PrimFunc{"oob", {a}, store}, {&arr});
  EXPECT_EQ(s.code(), absl::StatusCode::kOutOfRange);
  EXPECT_NE(s.message().find("Store A[4]"), std::string::npos) << s;
  EXPECT_NE(s.message().find("[0, 4)"), std::string::npos) << s;
  // The stores before the bad one happened; none after it.
  EXPECT_EQ(Contents<float>(arr), (std::vector<float>{1, 1, 1, 1}));

  Stmt negative = ir::StoreNode::Make(a->data, ir::LoadNode::Make(f32, a->data, -1), 0);
  s = interp::Run(ir::PrimFunc{"neg", {a}, negative}, {&arr});
  EXPECT_NE(s.message().find("Load A[-1]"), std::string::npos) << s;

  Stmt scatter = ir::StoreNode::Make(a->data, ir::BroadcastNode::Make(ir::FloatImm(f32, 2), 4),
                                     ir::RampNode::Make(2, 1, 4));
  s = interp::Run(ir::PrimFunc{"scatter", {a}, scatter}, {&arr});
  EXPECT_NE(s.message().find("Store A[4]"), std::string::npos) << s;
}

TEST(MemoryTest, BufferLoadAndStoreAreRowMajorOverTheParameterShape) {
  const DataType i32 = DataType::Int(32);
  ir::Buffer a("A", i32, {2, 3}), b("B", i32, {3, 2});
  ir::Var i("i"), j("j");
  Stmt body = SerialLoop(
      i, 2,
      SerialLoop(j, 3, ir::BufferStoreNode::Make(b, ir::BufferLoadNode::Make(a, {i, j}), {j, i})));
  runtime::NDArray in = MakeArray<int32_t>(i32, {2, 3}, {1, 2, 3, 4, 5, 6});
  runtime::NDArray out = MakeArray<int32_t>(i32, {3, 2});
  ASSERT_TRUE(interp::Run(ir::PrimFunc{"transpose", {a, b}, body}, {&in, &out}).ok());
  EXPECT_EQ(Contents<int32_t>(out), (std::vector<int32_t>{1, 4, 2, 5, 3, 6}));

  // Each index is checked against its own dimension, not just the flat size.
  Stmt bad = ir::BufferStoreNode::Make(b, ir::BufferLoadNode::Make(a, {0, 3}), {0, 0});
  absl::Status s = interp::Run(ir::PrimFunc{"bad", {a, b}, bad}, {&in, &out});
  EXPECT_EQ(s.code(), absl::StatusCode::kOutOfRange);
  EXPECT_NE(s.message().find("BufferLoad A: index 3 of dimension 1 out of bounds [0, 3)"),
            std::string::npos)
      << s;

  // A vector store writes lane l at the l-th lane of the vector index.
  Stmt vec =
      ir::BufferStoreNode::Make(b, ir::RampNode::Make(10, 1, 3), {ir::RampNode::Make(0, 1, 3), 1});
  ASSERT_TRUE(interp::Run(ir::PrimFunc{"vec", {a, b}, vec}, {&in, &out}).ok());
  EXPECT_EQ(Contents<int32_t>(out), (std::vector<int32_t>{1, 10, 2, 11, 3, 12}));
}

TEST(MemoryTest, RealizeAllocatesTheRegionAndAccessesSubtractItsMin) {
  const DataType f32 = DataType::Float(32);
  ir::Buffer out("Out", f32, {4});
  ir::Buffer t("T", f32, {10});  // realized for [3, 7) only
  ir::Var i("i");
  Stmt fill = ir::ForNode::Make(i, 3, 4, ir::ForKind::kSerial,
                                ir::BufferStoreNode::Make(t, ir::Cast(f32, i * i), {i}));
  // Flat accesses through T's data variable see the region from 0.
  Stmt copy =
      SerialLoop(i, 4, ir::BufferStoreNode::Make(out, ir::LoadNode::Make(f32, t->data, i), {i}));
  Stmt realize = ir::BufferRealizeNode::Make(t, {ir::Range::FromMinExtent(3, 4)},
                                             ir::SeqStmtNode::Make({fill, copy}));
  runtime::NDArray arr = MakeArray<float>(f32, {4});
  ASSERT_TRUE(interp::Run(ir::PrimFunc{"realize", {out}, realize}, {&arr}).ok());
  EXPECT_EQ(Contents<float>(arr), (std::vector<float>{9, 16, 25, 36}));

  Stmt outside = ir::BufferRealizeNode::Make(
      t, {ir::Range::FromMinExtent(3, 4)}, ir::BufferStoreNode::Make(t, ir::FloatImm(f32, 0), {2}));
  absl::Status s = interp::Run(ir::PrimFunc{"outside", {out}, outside}, {&arr});
  EXPECT_NE(s.message().find("BufferStore T: index 2 of dimension 0 out of bounds [3, 7)"),
            std::string::npos)
      << s;

  // Using T outside any realize is rejected before running.
  s = interp::Run(ir::PrimFunc{"unrealized", {out}, fill}, {&arr});
  EXPECT_NE(s.message().find("neither a parameter nor realized"), std::string::npos) << s;
}

TEST(MemoryTest, RealizeOfAParameterKeepsItsStorage) {
  const DataType f32 = DataType::Float(32);
  ir::Buffer out("Out", f32, {4});
  Stmt store = ir::BufferStoreNode::Make(out, ir::FloatImm(f32, 5), {3});
  runtime::NDArray arr = MakeArray<float>(f32, {4});
  Stmt ok = ir::BufferRealizeNode::Make(out, {ir::Range::FromMinExtent(0, 4)}, store);
  ASSERT_TRUE(interp::Run(ir::PrimFunc{"p", {out}, ok}, {&arr}).ok());
  EXPECT_EQ(Contents<float>(arr)[3], 5.0f);
  Stmt too_big = ir::BufferRealizeNode::Make(out, {ir::Range::FromMinExtent(0, 5)}, store);
  EXPECT_FALSE(interp::Run(ir::PrimFunc{"p", {out}, too_big}, {&arr}).ok());
}

TEST(MemoryTest, AccessTypeMustMatchTheBuffer) {
  ir::Buffer a("A", DataType::Float(32), {4});
  runtime::NDArray arr = MakeArray<float>(DataType::Float(32), {4});
  Stmt bad = ir::StoreNode::Make(a->data, ir::IntImm(DataType::Int(32), 1), 0);
  absl::Status s = interp::Run(ir::PrimFunc{"bad", {a}, bad}, {&arr});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("Store of int32 into A, which holds float32"), std::string::npos) << s;
}

}  // namespace
}  // namespace tunefarm::interp
