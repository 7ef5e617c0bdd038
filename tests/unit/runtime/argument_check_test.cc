#include "runtime/core/argument_check.h"

#include <cstdlib>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <vector>

#include "tests/testing/dl_types.h"

namespace tunefarm::runtime {
namespace {

using ::testing::HasSubstr;

using fixtures::kF32;

// matmul-like: A [64, n], B [64, n], n (int64), alpha (float), ctx (handle).
FunctionSignature Signature() {
  return {"f",
          {{ArgKind::kTensor, "A", kF32, {DimSpec::Const(64), DimSpec::Symbol("n")}},
           {ArgKind::kTensor, "B", kF32, {DimSpec::Const(64), DimSpec::Symbol("n")}},
           {ArgKind::kInt, "n", {kDLInt, 64, 1}, {}},
           {ArgKind::kFloat, "alpha", {kDLFloat, 64, 1}, {}},
           {ArgKind::kHandle, "ctx", {kDLOpaqueHandle, 64, 1}, {}}}};
}

// A tensor with its own shape storage and aligned (fake) data, easy to break one field at a time.
struct Tensor {
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  DLTensor dl{};
  explicit Tensor(std::vector<int64_t> s, DLDataType dtype = kF32) : shape(std::move(s)) {
    dl.data = reinterpret_cast<void*>(uintptr_t{0x10000});  // never dereferenced by the check
    dl.device = {kDLCPU, 0};
    dl.ndim = static_cast<int>(shape.size());
    dl.dtype = dtype;
    dl.shape = shape.data();
  }
  void SetStrides(std::vector<int64_t> s) {
    strides = std::move(s);
    dl.strides = strides.data();
  }
};

class ArgumentCheckTest : public ::testing::Test {
 protected:
  ArgumentCheckTest() : a_({64, 67}), b_({64, 67}) {
    values_.resize(5);
    values_[0].v_handle = &a_.dl;
    values_[1].v_handle = &b_.dl;
    values_[2].v_int64 = 67;
    values_[3].v_float64 = 0.5;
    values_[4].v_handle = nullptr;
    codes_ = {kTFArgTensor, kTFArgTensor, kTFArgInt, kTFArgFloat, kTFArgHandle};
  }
  std::string Check() {
    return CheckArguments(signature_, values_.data(), codes_.data(),
                          static_cast<int32_t>(values_.size()));
  }

  FunctionSignature signature_ = Signature();
  Tensor a_, b_;
  std::vector<TFValue> values_;
  std::vector<int32_t> codes_;
};

TEST_F(ArgumentCheckTest, AcceptsMatchingArguments) {
  EXPECT_EQ(Check(), "");
  b_.SetStrides({67, 1});
  EXPECT_EQ(Check(), "");
  codes_[2] = kTFArgUInt;
  EXPECT_EQ(Check(), "");
}

TEST_F(ArgumentCheckTest, WrongCount) {
  values_.pop_back();
  codes_.pop_back();
  EXPECT_EQ(Check(), "expected 5 arguments (A, B, n, alpha, ctx), got 4");
}

TEST_F(ArgumentCheckTest, WrongKind) {
  codes_[2] = kTFArgTensor;
  EXPECT_EQ(Check(), "argument 2 (n): expected an int, got a tensor");
  codes_[2] = kTFArgInt;
  codes_[0] = kTFArgFloat;
  EXPECT_EQ(Check(), "argument 0 (A): expected a tensor, got a float");
  codes_[0] = 42;
  EXPECT_EQ(Check(), "argument 0 (A): expected a tensor, got unknown type code 42");
  codes_[0] = kTFArgTensor;
  codes_[4] = kTFArgInt;
  EXPECT_EQ(Check(), "argument 4 (ctx): expected a handle, got an int");
}

TEST_F(ArgumentCheckTest, NullTensor) {
  values_[1].v_handle = nullptr;
  EXPECT_EQ(Check(), "argument 1 (B): null tensor");
}

TEST_F(ArgumentCheckTest, WrongRank) {
  Tensor c({2, 3, 4});
  values_[1].v_handle = &c.dl;
  EXPECT_EQ(Check(),
            "argument 1 (B): expected a 2-d tensor [64, n=67], got a 3-d tensor [2, 3, 4]");
}

TEST_F(ArgumentCheckTest, WrongDtypeCodeBitsOrLanes) {
  for (DLDataType t :
       {DLDataType{kDLInt, 32, 1}, DLDataType{kDLFloat, 64, 1}, DLDataType{kDLFloat, 32, 4}}) {
    b_.dl.dtype = t;
    EXPECT_THAT(Check(), HasSubstr("argument 1 (B): dtype ")) << Check();
    EXPECT_THAT(Check(), HasSubstr(" does not match float32"));
  }
  b_.dl.dtype = {kDLFloat, 32, 4};
  EXPECT_EQ(Check(), "argument 1 (B): dtype float32x4 does not match float32");
}

TEST_F(ArgumentCheckTest, WrongDevice) {
  a_.dl.device = {kDLCUDA, 1};
  EXPECT_EQ(Check(), "argument 0 (A): tensor is on cuda:1; kernels here run on the CPU");
  a_.dl.device = {static_cast<DLDeviceType>(12), 0};
  EXPECT_THAT(Check(), HasSubstr("tensor is on device type 12 (id 0)"));
}

TEST_F(ArgumentCheckTest, ConstantExtentMismatch) {
  a_.shape[0] = 63;
  EXPECT_EQ(Check(), "argument 0 (A): shape [63, 67] does not match [64, n]");
}

TEST_F(ArgumentCheckTest, SymbolBoundInconsistentlyAcrossArguments) {
  b_.shape[1] = 66;
  EXPECT_EQ(Check(),
            "argument 1 (B): shape [64, 66] does not match [64, n=67] (n bound to 67 by "
            "argument 0 (A))");
}

TEST_F(ArgumentCheckTest, SymbolBoundInconsistentlyWithinOneArgument) {
  signature_.args[0].shape = {DimSpec::Symbol("n"), DimSpec::Symbol("n")};
  EXPECT_EQ(Check(),
            "argument 0 (A): shape [64, 67] does not match [n=64, n=64] (n bound to 64 by "
            "dimension 0 of this argument)");
}

TEST_F(ArgumentCheckTest, IntArgumentMustEqualItsSymbol) {
  values_[2].v_int64 = 66;
  EXPECT_EQ(Check(),
            "argument 2 (n): value 66 does not match n=67 (n bound to 67 by argument 0 (A))");
}

TEST_F(ArgumentCheckTest, IntArgumentBindsASymbolForLaterTensors) {
  signature_.args = {{ArgKind::kInt, "n", {kDLInt, 64, 1}, {}},
                     {ArgKind::kTensor, "A", kF32, {DimSpec::Symbol("n")}}};
  Tensor a({5});
  values_ = {TFValue{.v_int64 = 4}, TFValue{.v_handle = &a.dl}};
  codes_ = {kTFArgInt, kTFArgTensor};
  EXPECT_EQ(Check(),
            "argument 1 (A): shape [5] does not match [n=4] (n bound to 4 by argument 0 (n))");
}

TEST_F(ArgumentCheckTest, IntMustFitItsDtype) {
  signature_.args[2].dtype = {kDLInt, 32, 1};
  values_[2].v_int64 = int64_t{1} << 40;
  EXPECT_EQ(Check(), "argument 2 (n): value 1099511627776 does not fit int32");
  signature_.args[2].dtype = {kDLUInt, 8, 1};
  values_[2].v_int64 = -1;
  EXPECT_EQ(Check(), "argument 2 (n): value -1 does not fit uint8");
}

TEST_F(ArgumentCheckTest, NegativeExtents) {
  a_.shape[1] = -1;
  EXPECT_EQ(Check(), "argument 0 (A): negative extent in shape [64, -1]");
  signature_.args = {{ArgKind::kInt, "n", {kDLInt, 64, 1}, {}},
                     {ArgKind::kTensor, "A", kF32, {DimSpec::Symbol("n")}}};
  Tensor a({0});
  values_ = {TFValue{.v_int64 = -3}, TFValue{.v_handle = &a.dl}};
  codes_ = {kTFArgInt, kTFArgTensor};
  EXPECT_EQ(Check(), "argument 0 (n): negative extent -3 for symbol n");
}

TEST_F(ArgumentCheckTest, NonCompactStrides) {
  b_.SetStrides({1, 64});
  EXPECT_EQ(Check(),
            "argument 1 (B): strides [1, 64] are not compact row-major [67, 1] (pass a "
            "contiguous copy)");
  // An extent-1 dimension may carry any stride.
  Tensor c({64, 1});
  signature_.args[1].shape = {DimSpec::Const(64), DimSpec::Const(1)};
  c.SetStrides({1, 12345});
  values_[1].v_handle = &c.dl;
  EXPECT_EQ(Check(), "");
  c.SetStrides({7, 1});
  EXPECT_THAT(Check(), HasSubstr("strides [7, 1] are not compact row-major [1, 1]"));
}

TEST_F(ArgumentCheckTest, NullData) {
  a_.dl.data = nullptr;
  EXPECT_EQ(Check(), "argument 0 (A): data pointer is null");
}

TEST_F(ArgumentCheckTest, MisalignedDataOrByteOffset) {
  b_.dl.byte_offset = 4;
  EXPECT_EQ(Check(),
            "argument 1 (B): data 0x10000 + byte_offset 4 is not 64-byte aligned (generated code "
            "uses aligned vector loads; allocate with NDArray)");
  b_.dl.byte_offset = 128;
  EXPECT_EQ(Check(), "");
  b_.dl.data = reinterpret_cast<void*>(uintptr_t{0x10020});
  EXPECT_THAT(Check(), HasSubstr("data 0x10020 + byte_offset 128 is not 64-byte aligned"));
}

TEST_F(ArgumentCheckTest, ScalarTensorsAndEmptySignatures) {
  signature_.args = {{ArgKind::kTensor, "s", kF32, {}}};
  Tensor s({});
  values_ = {TFValue{.v_handle = &s.dl}};
  codes_ = {kTFArgTensor};
  EXPECT_EQ(Check(), "");
  signature_.args.clear();
  values_.clear();
  codes_.clear();
  EXPECT_EQ(Check(), "");
}

}  // namespace
}  // namespace tunefarm::runtime
