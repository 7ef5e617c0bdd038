#include "compiler/passes/verify.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/compiler/ir_types.h"
#include "tests/unit/compiler/passes/test_kernels.h"

namespace tunefarm::passes {
namespace {

using namespace ir;               // NOLINT: tests build IR by hand.
using namespace passes::testing;  // NOLINT
using ::testing::HasSubstr;

using ir_fixtures::kF32;

absl::Status Verify(Stmt body, std::vector<Buffer> params, bool flattened) {
  return VerifyPrimFunc(PrimFunc{"f", std::move(params), std::move(body)}, flattened);
}

TEST(VerifyTest, AcceptsTheKernelsBeforeAndAfterFlattening) {
  EXPECT_TRUE(VerifyPrimFunc(SharedTileMatmul(TileShape{.vthreads = 2}), false).ok());
  Var n("n"), i("i");
  Buffer a("A", kF32, {n}), t("T", kF32, {n});
  // The shape variable n is defined by the parameter A.
  Stmt flat =
      AllocateNode::Make(t->data, kF32, {n}, "global",
                         ForNode::Make(i, 0, n, ForKind::kSerial, FlatStore(t, FlatLoad(a, i), i)));
  EXPECT_TRUE(Verify(flat, {a}, true).ok());
}

TEST(VerifyTest, RejectsUndefinedVariables) {
  Buffer c("C", kF32, {8});
  Var i("i"), j("j");
  absl::Status s = Verify(Loop(i, 8, FlatStore(c, 1.0f, j)), {c}, true);
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_THAT(s.message(), HasSubstr("variable 'j' is used but not defined"));
  // A loop variable is not defined after its loop.
  s = Verify(Seq({Loop(i, 8, FlatStore(c, 1.0f, i)), FlatStore(c, 1.0f, i)}), {c}, true);
  EXPECT_THAT(s.message(), HasSubstr("'i'"));
}

TEST(VerifyTest, RejectsAccessesToUnknownBuffers) {
  Buffer c("C", kF32, {8}), t("T", kF32, {8});
  absl::Status s = Verify(FlatStore(t, 1.0f, 0), {c}, true);
  EXPECT_THAT(s.message(), HasSubstr("Store of 'T', which is neither a parameter nor allocated"));
  s = Verify(Store(t, 1.0f, {0}), {c}, false);
  EXPECT_THAT(s.message(),
              HasSubstr("BufferStore of T, which is neither a parameter nor realized"));
  Stmt wrong_type =
      AllocateNode::Make(t->data, DataType::Int(32), {8}, "local", FlatStore(t, 1.0f, 0));
  EXPECT_THAT(Verify(wrong_type, {c}, true).message(),
              HasSubstr("as float32 but the buffer holds int32"));
}

TEST(VerifyTest, RejectsMultiDimensionalAccessAfterFlattening) {
  Buffer c("C", kF32, {8});
  absl::Status s = Verify(Store(c, 1.0f, {0}), {c}, true);
  EXPECT_THAT(s.message(), HasSubstr("BufferStore of C after flattening"));
  s = Verify(Realize(Buffer("T", kF32, {2}), {{0, 2}}, MakeNop()), {c}, true);
  EXPECT_THAT(s.message(), HasSubstr("BufferRealize of T after flattening"));
}

TEST(VerifyTest, BarrierOnlyAsAStatement) {
  Buffer c("C", DataType::Int(32), {8});
  EXPECT_TRUE(Verify(Barrier(), {c}, true).ok());
  Stmt nested = FlatStore(c, Call(Intrinsic::kSyncThreads, {}), 0);
  EXPECT_THAT(Verify(nested, {c}, true).message(),
              HasSubstr("sync_threads() inside an expression"));
}

}  // namespace
}  // namespace tunefarm::passes
