#include "compiler/graph/op_registry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/testing/dl_types.h"

namespace tunefarm::graph {
namespace {

using ::testing::HasSubstr;
using Shapes = std::vector<std::vector<int64_t>>;

using fixtures::kF32;

// The output shapes of `op` on float32 inputs of `inputs`, or the error message.
absl::StatusOr<Shapes> Infer(OpKind op, Attributes attrs, const Shapes& inputs) {
  Node node{op, "n", std::move(attrs), {}, {}};
  std::vector<TensorType> types;
  for (const auto& shape : inputs) types.push_back({kF32, shape});
  absl::StatusOr<std::vector<TensorType>> out = InferOutputTypes(node, types);
  if (!out.ok()) return out.status();
  Shapes shapes;
  for (const TensorType& t : *out) shapes.push_back(t.shape);
  return shapes;
}

std::string ErrorOf(OpKind op, Attributes attrs, const Shapes& inputs) {
  absl::StatusOr<Shapes> out = Infer(op, std::move(attrs), inputs);
  return out.ok() ? "ok" : std::string(out.status().message());
}

using Ints = std::vector<int64_t>;

TEST(OpRegistryTest, NamesAndPatternKindsRoundTrip) {
  EXPECT_EQ(OpName(OpKind::kConv2d), "conv2d");
  EXPECT_EQ(FindOpKind("hard_swish"), OpKind::kHardSwish);
  EXPECT_EQ(FindOpKind("nope"), std::nullopt);
  EXPECT_EQ(GetOpInfo(OpKind::kRelu).pattern, PatternKind::kElementwise);
  EXPECT_EQ(GetOpInfo(OpKind::kAdd).pattern, PatternKind::kBroadcast);
  EXPECT_EQ(GetOpInfo(OpKind::kReshape).pattern, PatternKind::kInjective);
  EXPECT_EQ(GetOpInfo(OpKind::kConv2d).pattern, PatternKind::kOutEWiseFusable);
  EXPECT_EQ(GetOpInfo(OpKind::kSoftmax).pattern, PatternKind::kOpaque);
  EXPECT_EQ(PatternKindName(PatternKind::kCommReduce), "comm_reduce");
  for (OpKind k : {OpKind::kRelu, OpKind::kUnsqueeze, OpKind::kLrn}) {
    EXPECT_EQ(GetOpInfo(k).kind, k);
    EXPECT_EQ(FindOpKind(GetOpInfo(k).name), k);
  }
}

TEST(OpRegistryTest, Conv2dWithStridesPadsDilationAndGroups) {
  EXPECT_EQ(*Infer(OpKind::kConv2d, {{"strides", Ints{2, 2}}, {"pads", Ints{3, 3, 3, 3}}},
                   {{1, 3, 224, 224}, {64, 3, 7, 7}}),
            (Shapes{{1, 64, 112, 112}}));
  EXPECT_EQ(
      *Infer(OpKind::kConv2d, {{"dilations", Ints{2, 2}}}, {{1, 4, 10, 9}, {8, 4, 3, 3}, {8}}),
      (Shapes{{1, 8, 6, 5}}));
  // Depthwise: 32 groups of one channel.
  EXPECT_EQ(*Infer(OpKind::kConv2d, {{"groups", int64_t{32}}, {"pads", Ints{1, 1, 1, 1}}},
                   {{1, 32, 112, 112}, {32, 1, 3, 3}}),
            (Shapes{{1, 32, 112, 112}}));
  EXPECT_EQ(ErrorOf(OpKind::kConv2d, {{"groups", int64_t{3}}}, {{1, 32, 8, 8}, {32, 1, 3, 3}}),
            "conv2d node 'n': groups 3 must divide the input channels 32 and the output "
            "channels 32");
  EXPECT_THAT(ErrorOf(OpKind::kConv2d, {}, {{1, 3, 8, 8}, {8, 4, 3, 3}}),
              HasSubstr("expects 4 input channels"));
  EXPECT_THAT(ErrorOf(OpKind::kConv2d, {}, {{1, 3, 2, 2}, {8, 3, 3, 3}}),
              HasSubstr("does not fit the padded input"));
  EXPECT_THAT(ErrorOf(OpKind::kConv2d, {{"strides", Ints{0, 1}}}, {{1, 3, 8, 8}, {8, 3, 3, 3}}),
              HasSubstr("strides value 0 is out of range"));
  EXPECT_THAT(ErrorOf(OpKind::kConv2d, {}, {{1, 3, 8}, {8, 3, 3}}), HasSubstr("rank 4"));
  EXPECT_THAT(ErrorOf(OpKind::kConv2d, {{"dilations", Ints{INT64_MAX / 2, 1}}},
                      {{1, 3, 8, 8}, {8, 3, 3, 3}}),
              HasSubstr("out of range"));
}

TEST(OpRegistryTest, GemmAndMatMul) {
  EXPECT_EQ(*Infer(OpKind::kGemm, {{"trans_b", int64_t{1}}}, {{1, 512}, {1000, 512}, {1000}}),
            (Shapes{{1, 1000}}));
  EXPECT_EQ(*Infer(OpKind::kGemm, {{"trans_a", int64_t{1}}}, {{3, 4}, {3, 5}, {4, 1}}),
            (Shapes{{4, 5}}));
  EXPECT_THAT(ErrorOf(OpKind::kGemm, {}, {{2, 3}, {4, 5}}), HasSubstr("inner dimensions differ"));
  EXPECT_THAT(ErrorOf(OpKind::kGemm, {}, {{2, 3}, {3, 5}, {3}}), HasSubstr("does not broadcast"));
  EXPECT_EQ(*Infer(OpKind::kMatMul, {}, {{2, 1, 3, 4}, {5, 4, 6}}), (Shapes{{2, 5, 3, 6}}));
  EXPECT_EQ(*Infer(OpKind::kMatMul, {}, {{4}, {3, 4, 6}}), (Shapes{{3, 6}}));
  EXPECT_EQ(*Infer(OpKind::kMatMul, {}, {{3, 4}, {4}}), (Shapes{{3}}));
  EXPECT_EQ(*Infer(OpKind::kMatMul, {}, {{4}, {4}}), (Shapes{{}}));
  EXPECT_THAT(ErrorOf(OpKind::kMatMul, {}, {{2, 3, 4}, {3, 4, 5}}), HasSubstr("do not broadcast"));
}

TEST(OpRegistryTest, ElementwiseAndBroadcast) {
  EXPECT_EQ(*Infer(OpKind::kAdd, {}, {{1, 64, 56, 56}, {64, 1, 1}}), (Shapes{{1, 64, 56, 56}}));
  EXPECT_EQ(*Infer(OpKind::kMul, {}, {{3, 1}, {1, 4}}), (Shapes{{3, 4}}));
  EXPECT_EQ(*Infer(OpKind::kDiv, {}, {{}, {2, 2}}), (Shapes{{2, 2}}));
  EXPECT_EQ(ErrorOf(OpKind::kSub, {}, {{3}, {4}}),
            "sub node 'n': shapes [3] and [4] do not broadcast");
  EXPECT_EQ(*Infer(OpKind::kClip, {{"min", 0.0}, {"max", 6.0}}, {{2, 3}}), (Shapes{{2, 3}}));
  EXPECT_EQ(*Infer(OpKind::kHardSigmoid, {{"alpha", 0.2}}, {{5}}), (Shapes{{5}}));
  EXPECT_THAT(ErrorOf(OpKind::kRelu, {}, {{1}, {1}}), HasSubstr("expects 1 inputs, got 2"));
  Node add{OpKind::kAdd, "a", {}, {}, {}};
  std::vector<TensorType> mixed = {{kF32, {2}}, {{kDLInt, 64, 1}, {2}}};
  EXPECT_THAT(std::string(InferOutputTypes(add, mixed).status().message()),
              HasSubstr("input 1 is int64[2] but input 0 is float32[2]"));
}

TEST(OpRegistryTest, Pools) {
  Attributes max_pool{{"kernel", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"pads", Ints{1, 1, 1, 1}}};
  EXPECT_EQ(*Infer(OpKind::kMaxPool2d, max_pool, {{1, 64, 112, 112}}), (Shapes{{1, 64, 56, 56}}));
  Attributes ceil{{"kernel", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"ceil_mode", int64_t{1}}};
  EXPECT_EQ(*Infer(OpKind::kMaxPool2d, ceil, {{1, 1, 4, 4}}), (Shapes{{1, 1, 2, 2}}));
  EXPECT_EQ(*Infer(OpKind::kMaxPool2d, ceil, {{1, 1, 6, 6}}), (Shapes{{1, 1, 3, 3}}));
  // ceil_mode: the last window would start in the end padding only, so it is dropped.
  Attributes drop{{"kernel", Ints{2, 2}},
                  {"strides", Ints{2, 2}},
                  {"pads", Ints{0, 0, 1, 1}},
                  {"ceil_mode", int64_t{1}}};
  EXPECT_EQ(*Infer(OpKind::kMaxPool2d, drop, {{1, 1, 4, 4}}), (Shapes{{1, 1, 2, 2}}));
  EXPECT_EQ(*Infer(OpKind::kAvgPool2d, {{"kernel", Ints{7, 7}}}, {{1, 512, 7, 7}}),
            (Shapes{{1, 512, 1, 1}}));
  EXPECT_THAT(ErrorOf(OpKind::kAvgPool2d, {}, {{1, 1, 4, 4}}), HasSubstr("'kernel' is required"));
  EXPECT_EQ(*Infer(OpKind::kGlobalAvgPool2d, {}, {{2, 1280, 7, 7}}), (Shapes{{2, 1280, 1, 1}}));
  EXPECT_EQ(*Infer(OpKind::kGlobalMaxPool2d, {}, {{2, 3, 5, 7}}), (Shapes{{2, 3, 1, 1}}));
}

TEST(OpRegistryTest, Normalization) {
  EXPECT_EQ(*Infer(OpKind::kBatchNorm, {}, {{1, 8, 4, 4}, {8}, {8}, {8}, {8}}),
            (Shapes{{1, 8, 4, 4}}));
  EXPECT_THAT(ErrorOf(OpKind::kBatchNorm, {}, {{1, 8, 4, 4}, {8}, {8}, {4}, {8}}),
              HasSubstr("mean float32[4] must have shape [8]"));
  EXPECT_EQ(*Infer(OpKind::kSoftmax, {{"axis", int64_t{1}}}, {{1, 1000}}), (Shapes{{1, 1000}}));
  EXPECT_THAT(ErrorOf(OpKind::kSoftmax, {{"axis", int64_t{2}}}, {{1, 1000}}),
              HasSubstr("axis 2 is out of range for rank 2"));
  EXPECT_EQ(*Infer(OpKind::kLrn, {{"size", int64_t{5}}}, {{1, 96, 55, 55}}),
            (Shapes{{1, 96, 55, 55}}));
  EXPECT_THAT(ErrorOf(OpKind::kLrn, {}, {{1, 96, 55, 55}}), HasSubstr("'size' must be"));
}

TEST(OpRegistryTest, FlattenReshapeTranspose) {
  EXPECT_EQ(*Infer(OpKind::kFlatten, {}, {{1, 512, 1, 1}}), (Shapes{{1, 512}}));
  EXPECT_EQ(*Infer(OpKind::kFlatten, {{"axis", int64_t{0}}}, {{2, 3}}), (Shapes{{1, 6}}));
  EXPECT_EQ(*Infer(OpKind::kFlatten, {{"axis", int64_t{-1}}}, {{2, 3, 4}}), (Shapes{{6, 4}}));
  EXPECT_EQ(*Infer(OpKind::kReshape, {{"shape", Ints{0, -1}}}, {{2, 3, 4}}), (Shapes{{2, 12}}));
  EXPECT_EQ(*Infer(OpKind::kReshape, {{"shape", Ints{0, 4}}, {"allow_zero", int64_t{1}}}, {{0, 3}}),
            (Shapes{{0, 4}}));
  EXPECT_THAT(ErrorOf(OpKind::kReshape, {{"shape", Ints{-1, -1}}}, {{4}}),
              HasSubstr("more than one -1"));
  EXPECT_THAT(ErrorOf(OpKind::kReshape, {{"shape", Ints{5}}}, {{4}}),
              HasSubstr("(4 elements) to [5] (5 elements)"));
  EXPECT_THAT(ErrorOf(OpKind::kReshape, {{"shape", Ints{-1, 3}}}, {{4}}), HasSubstr("cannot"));
  EXPECT_THAT(ErrorOf(OpKind::kReshape, {{"shape", Ints{INT64_MAX, 2}}}, {{4}}),
              HasSubstr("invalid size"));
  EXPECT_EQ(*Infer(OpKind::kTranspose, {{"perm", Ints{0, 2, 3, 1}}}, {{1, 3, 5, 7}}),
            (Shapes{{1, 5, 7, 3}}));
  EXPECT_EQ(*Infer(OpKind::kTranspose, {}, {{2, 3, 4}}), (Shapes{{4, 3, 2}}));
  EXPECT_THAT(ErrorOf(OpKind::kTranspose, {{"perm", Ints{0, 0}}}, {{2, 3}}),
              HasSubstr("not a permutation"));
}

TEST(OpRegistryTest, ConcatAndPad) {
  EXPECT_EQ(*Infer(OpKind::kConcat, {{"axis", int64_t{1}}}, {{1, 2, 4}, {1, 3, 4}, {1, 1, 4}}),
            (Shapes{{1, 6, 4}}));
  EXPECT_EQ(*Infer(OpKind::kConcat, {{"axis", int64_t{-1}}}, {{2}, {3}}), (Shapes{{5}}));
  EXPECT_THAT(ErrorOf(OpKind::kConcat, {{"axis", int64_t{0}}}, {{1, 2}, {1, 3}}),
              HasSubstr("does not match input 0"));
  EXPECT_EQ(*Infer(OpKind::kPad, {{"pads", Ints{0, 0, 1, 2, 0, 0, 3, 4}}}, {{1, 3, 5, 5}}),
            (Shapes{{1, 3, 9, 11}}));
  EXPECT_EQ(*Infer(OpKind::kPad, {{"pads", Ints{-1, 0}}}, {{5}}), (Shapes{{4}}));
  EXPECT_THAT(ErrorOf(OpKind::kPad, {{"pads", Ints{0, 0}}}, {{5, 5}}), HasSubstr("2 x 2"));
  EXPECT_THAT(ErrorOf(OpKind::kPad, {{"pads", Ints{-6, 0}}}, {{5}}), HasSubstr("do not fit"));
}

TEST(OpRegistryTest, SliceClampsAsOnnxDoes) {
  Attributes a{{"starts", Ints{1, 0}}, {"ends", Ints{INT64_MAX, -1}}, {"axes", Ints{0, 1}}};
  EXPECT_EQ(*Infer(OpKind::kSlice, a, {{10, 8}}), (Shapes{{9, 7}}));
  Attributes step{{"starts", Ints{-1}}, {"ends", Ints{INT64_MIN}}, {"steps", Ints{-2}}};
  EXPECT_EQ(*Infer(OpKind::kSlice, step, {{10}}), (Shapes{{5}}));
  Attributes empty{{"starts", Ints{5}}, {"ends", Ints{2}}};
  EXPECT_EQ(*Infer(OpKind::kSlice, empty, {{10}}), (Shapes{{0}}));
  Attributes by3{{"starts", Ints{0}}, {"ends", Ints{10}}, {"axes", Ints{-1}}, {"steps", Ints{3}}};
  EXPECT_EQ(*Infer(OpKind::kSlice, by3, {{2, 10}}), (Shapes{{2, 4}}));
  EXPECT_THAT(
      ErrorOf(OpKind::kSlice, {{"starts", Ints{0}}, {"ends", Ints{1}}, {"steps", Ints{0}}}, {{4}}),
      HasSubstr("steps must not be 0"));
  EXPECT_THAT(
      ErrorOf(OpKind::kSlice, {{"starts", Ints{0, 0}}, {"ends", Ints{1, 1}}, {"axes", Ints{0, 0}}},
              {{4, 4}}),
      HasSubstr("appears twice"));
}

TEST(OpRegistryTest, SplitSqueezeUnsqueeze) {
  EXPECT_EQ(*Infer(OpKind::kSplit, {{"axis", int64_t{1}}, {"sizes", Ints{2, 4}}}, {{1, 6, 3}}),
            (Shapes{{1, 2, 3}, {1, 4, 3}}));
  EXPECT_THAT(ErrorOf(OpKind::kSplit, {{"sizes", Ints{2, 2}}}, {{5}}),
              HasSubstr("do not add up to 5"));
  EXPECT_EQ(*Infer(OpKind::kSqueeze, {}, {{1, 3, 1, 2}}), (Shapes{{3, 2}}));
  EXPECT_EQ(*Infer(OpKind::kSqueeze, {{"axes", Ints{-2}}}, {{1, 3, 1, 2}}), (Shapes{{1, 3, 2}}));
  EXPECT_THAT(ErrorOf(OpKind::kSqueeze, {{"axes", Ints{1}}}, {{1, 3}}),
              HasSubstr("cannot squeeze dimension 1"));
  EXPECT_EQ(*Infer(OpKind::kUnsqueeze, {{"axes", Ints{0, 3}}}, {{3, 4}}), (Shapes{{1, 3, 4, 1}}));
  EXPECT_EQ(*Infer(OpKind::kUnsqueeze, {{"axes", Ints{-1}}}, {{3}}), (Shapes{{3, 1}}));
  EXPECT_THAT(ErrorOf(OpKind::kUnsqueeze, {{"axes", Ints{3}}}, {{3}}), HasSubstr("out of range"));
}

TEST(OpRegistryTest, OversizedInputsAreRejectedBeforeInference) {
  EXPECT_THAT(ErrorOf(OpKind::kRelu, {}, {{int64_t{1} << 40, int64_t{1} << 20}}),
              HasSubstr("relu node 'n': input 0: shape"));
}

}  // namespace
}  // namespace tunefarm::graph
