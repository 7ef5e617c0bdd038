#include "runtime/packed_function.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <vector>

#include "tests/testing/dl_types.h"

namespace tunefarm::runtime {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

using fixtures::kF32;

// What the last call of RecordingKernel saw.
struct Seen {
  int calls = 0;
  std::vector<int32_t> codes;
  std::vector<TFValue> values;
};
Seen seen;

int32_t RecordingKernel(const TFValue* args, const int32_t* type_codes, int32_t num_args) {
  seen.calls++;
  seen.codes.assign(type_codes, type_codes + num_args);
  seen.values.assign(args, args + num_args);
  return 0;
}

int32_t FailingKernel(const TFValue*, const int32_t*, int32_t) { return 3; }

FunctionSignature AllKinds() {
  return {"all_kinds",
          {{ArgKind::kTensor, "A", kF32, {DimSpec::Symbol("n")}},
           {ArgKind::kTensor, "B", kF32, {DimSpec::Symbol("n")}},
           {ArgKind::kInt, "n", {kDLInt, 64, 1}, {}},
           {ArgKind::kInt, "k", {kDLInt, 32, 1}, {}},
           {ArgKind::kFloat, "alpha", {kDLFloat, 64, 1}, {}},
           {ArgKind::kHandle, "ctx", {kDLOpaqueHandle, 64, 1}, {}}}};
}

TEST(PackedFunctionTest, PassesEachKindWithItsTypeCode) {
  PackedFunction f(AllKinds(), &RecordingKernel, nullptr);
  auto a = NDArray::Empty({16}, kF32);
  auto b = NDArray::Empty({16}, kF32);
  ASSERT_TRUE(a.ok() && b.ok());
  int context = 0;
  seen = {};
  absl::Status st = f.Call({&*a, b->dl(), int64_t{16}, 7, 2.5, PackedArg::Handle(&context)});
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(seen.calls, 1);
  EXPECT_THAT(seen.codes, ElementsAre(kTFArgTensor, kTFArgTensor, kTFArgInt, kTFArgInt, kTFArgFloat,
                                      kTFArgHandle));
  EXPECT_EQ(seen.values[0].v_handle, a->dl());
  EXPECT_EQ(seen.values[1].v_handle, b->dl());
  EXPECT_EQ(seen.values[2].v_int64, 16);
  EXPECT_EQ(seen.values[3].v_int64, 7);
  EXPECT_EQ(seen.values[4].v_float64, 2.5);
  EXPECT_EQ(seen.values[5].v_handle, &context);
}

TEST(PackedFunctionTest, ABadArgumentIsAnErrorAndTheKernelNeverRuns) {
  PackedFunction f(AllKinds(), &RecordingKernel, nullptr);
  auto a = NDArray::Empty({16}, kF32);
  auto b = NDArray::Empty({15}, kF32);
  seen = {};
  absl::Status st = f.Call({&*a, &*b, int64_t{16}, 7, 2.5, PackedArg::Handle(nullptr)});
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(),
            "kernel 'all_kinds': argument 1 (B): shape [15] does not match [n=16] (n bound to 16 "
            "by argument 0 (A))");
  st = f.Call({&*a, &*a, int64_t{16}, 2.5, 2.5, PackedArg::Handle(nullptr)});
  EXPECT_THAT(st.message(), HasSubstr("argument 3 (k): expected an int, got a float"));
  st = f.Call({&*a});
  EXPECT_THAT(st.message(), HasSubstr("expected 6 arguments (A, B, n, k, alpha, ctx), got 1"));
  EXPECT_EQ(seen.calls, 0);
}

TEST(PackedFunctionTest, ANonzeroKernelResultIsAnInternalError) {
  PackedFunction f({"fails", {}}, &FailingKernel, nullptr);
  absl::Status st = f.Call({});
  EXPECT_EQ(st.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(st.message(), "kernel 'fails' failed (returned 3)");
}

TEST(PackedFunctionTest, NoEntryPointIsAnError) {
  PackedFunction f({"nothing", {}}, nullptr, nullptr);
  EXPECT_EQ(f.Call({}).code(), absl::StatusCode::kFailedPrecondition);
}

TEST(PackedFunctionTest, CopiesShareTheOwner) {
  auto owner = std::make_shared<int>(1);
  {
    PackedFunction f({"f", {}}, &RecordingKernel, owner);
    PackedFunction g = f;
    EXPECT_EQ(owner.use_count(), 3);
    EXPECT_EQ(g.signature().name, "f");
    EXPECT_EQ(g.entry(), &RecordingKernel);
  }
  EXPECT_EQ(owner.use_count(), 1);
}

}  // namespace
}  // namespace tunefarm::runtime
