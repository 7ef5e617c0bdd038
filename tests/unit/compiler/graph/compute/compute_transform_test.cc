// The ops that move elements (flatten, reshape, squeeze, unsqueeze, transpose, concat, pad,
// slice, split) through EvaluateOp against index arithmetic written out here.
#include <algorithm>

#include "tests/unit/compiler/graph/compute/compute_test_util.h"

namespace tunefarm::graph::testing {
namespace {

std::vector<float> Values(const runtime::NDArray& a) {
  return std::vector<float>(F(a), F(a) + a.NumElements());
}

TEST(ComputeTransformTest, ReshapesKeepTheElementOrder) {
  runtime::NDArray x = Random({2, 3, 4, 5}, 1);
  struct Case {
    OpKind op;
    Attributes attrs;
    Shape out;
  };
  const std::vector<Case> cases = {
      {OpKind::kFlatten, {{"axis", int64_t{2}}}, {6, 20}},
      {OpKind::kFlatten, {{"axis", int64_t{0}}}, {1, 120}},
      {OpKind::kFlatten, {{"axis", int64_t{-1}}}, {24, 5}},
      {OpKind::kReshape, {{"shape", Shape{0, -1, 10}}}, {2, 6, 10}},
      {OpKind::kReshape, {{"shape", Shape{5, 4, 3, 2}}}, {5, 4, 3, 2}},
      {OpKind::kReshape, {{"shape", Shape{2, 3, 20}}}, {2, 3, 20}},
      {OpKind::kUnsqueeze, {{"axes", Shape{0, -1}}}, {1, 2, 3, 4, 5, 1}},
  };
  for (const Case& c : cases) {
    std::vector<runtime::NDArray> out = Eval(c.op, c.attrs, {&x});
    ASSERT_EQ(out.size(), 1u);
    EXPECT_TRUE(Close(out[0], c.out, Values(x), 0, 0)) << OpName(c.op);
  }
  runtime::NDArray y = Random({1, 3, 1, 5}, 2);
  std::vector<runtime::NDArray> squeezed = Eval(OpKind::kSqueeze, {}, {&y});
  ASSERT_EQ(squeezed.size(), 1u);
  EXPECT_TRUE(Close(squeezed[0], {3, 5}, Values(y), 0, 0));
  squeezed = Eval(OpKind::kSqueeze, {{"axes", Shape{-2}}}, {&y});
  ASSERT_EQ(squeezed.size(), 1u);
  EXPECT_TRUE(Close(squeezed[0], {1, 3, 5}, Values(y), 0, 0));
}

TEST(ComputeTransformTest, Transpose) {
  const Shape xs = {2, 3, 4, 5};
  runtime::NDArray x = Random(xs, 3);
  for (const Shape& perm : {Shape{0, 2, 3, 1}, Shape{3, 2, 1, 0}, Shape{1, 0, 3, 2}}) {
    Shape out_shape(4);
    for (int d = 0; d < 4; ++d) out_shape[d] = xs[perm[d]];
    std::vector<float> want(Count(xs));
    for (int64_t i = 0; i < Count(xs); ++i) {
      Shape o = Unflatten(i, out_shape), in(4);
      for (int d = 0; d < 4; ++d) in[perm[d]] = o[d];
      want[i] = F(x)[Flatten(in, xs)];
    }
    std::vector<runtime::NDArray> out = Eval(OpKind::kTranspose, {{"perm", perm}}, {&x});
    ASSERT_EQ(out.size(), 1u);
    EXPECT_TRUE(Close(out[0], out_shape, want, 0, 0));
  }
  std::vector<runtime::NDArray> reversed = Eval(OpKind::kTranspose, {}, {&x});
  ASSERT_EQ(reversed.size(), 1u);
  EXPECT_EQ(reversed[0].shape(), (Shape{5, 4, 3, 2}));
}

TEST(ComputeTransformTest, ConcatAlongANegativeAxis) {
  runtime::NDArray a = Random({2, 3, 2}, 4), b = Random({2, 3, 5}, 5), c = Random({2, 3, 1}, 6);
  std::vector<runtime::NDArray> out = Eval(OpKind::kConcat, {{"axis", int64_t{-1}}}, {&a, &b, &c});
  ASSERT_EQ(out.size(), 1u);
  std::vector<float> want;
  for (int64_t row = 0; row < 6; ++row) {
    for (const runtime::NDArray* t : {&a, &b, &c}) {
      int64_t w = t->shape()[2];
      want.insert(want.end(), F(*t) + row * w, F(*t) + (row + 1) * w);
    }
  }
  EXPECT_TRUE(Close(out[0], {2, 3, 8}, want, 0, 0));
  out = Eval(OpKind::kConcat, {{"axis", int64_t{0}}}, {&b, &b});
  ASSERT_EQ(out.size(), 1u);
  std::vector<float> twice = Values(b);
  twice.insert(twice.end(), F(b), F(b) + b.NumElements());
  EXPECT_TRUE(Close(out[0], {4, 3, 5}, twice, 0, 0));
}

TEST(ComputeTransformTest, PadWithAValueAndCrop) {
  const Shape xs = {2, 3, 4};
  runtime::NDArray x = Random(xs, 7);
  // Axis 0 padded 1 before, axis 1 cropped 1 before and padded 2 after, axis 2 cropped 1 after.
  const Shape pads = {1, -1, 0, 0, 2, -1};
  std::vector<runtime::NDArray> out = Eval(OpKind::kPad, {{"pads", pads}, {"value", 1.5}}, {&x});
  ASSERT_EQ(out.size(), 1u);
  const Shape os = {3, 4, 3};
  std::vector<float> want(Count(os));
  for (int64_t i = 0; i < Count(os); ++i) {
    Shape o = Unflatten(i, os), in(3);
    bool inside = true;
    for (int d = 0; d < 3; ++d) {
      in[d] = o[d] - pads[d];
      inside = inside && in[d] >= 0 && in[d] < xs[d];
    }
    want[i] = inside ? F(x)[Flatten(in, xs)] : 1.5f;
  }
  EXPECT_TRUE(Close(out[0], os, want, 0, 0));
  out = Eval(OpKind::kPad, {{"pads", Shape(6, 0)}}, {&x});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(Close(out[0], xs, Values(x), 0, 0));
}

TEST(ComputeTransformTest, SliceStepsAndNegativeAxes) {
  const Shape xs = {5, 6, 7};
  runtime::NDArray x = Random(xs, 8);
  struct Case {
    Shape starts, ends, axes, steps;
  };
  const std::vector<Case> cases = {
      {{1, 0}, {4, 6}, {0, 1}, {1, 2}},
      {{-1}, {-100}, {-1}, {-2}},              // backwards from the end, clamped
      {{100, 0}, {0, 1000}, {0, 2}, {-3, 3}},  // start past the end, end past the end
      {{2}, {2}, {1}, {1}},                    // empty
      {{-4, 1}, {1000, -1}, {-3, -2}, {1, 1}},
  };
  for (const Case& c : cases) {
    Shape begin(3, 0), step(3, 1), count = xs;
    for (size_t i = 0; i < c.starts.size(); ++i) {
      int64_t a = c.axes[i] < 0 ? c.axes[i] + 3 : c.axes[i];
      int64_t dim = xs[a], s = c.starts[i], e = c.ends[i], st = c.steps[i];
      if (s < 0) s += dim;
      if (e < 0) e += dim;
      // Plain loop over Python-like slicing: take indices while they stay in range.
      s = st > 0 ? std::clamp<int64_t>(s, 0, dim) : std::clamp<int64_t>(s, 0, dim - 1);
      e = st > 0 ? std::clamp<int64_t>(e, 0, dim) : std::clamp<int64_t>(e, -1, dim - 1);
      int64_t n = 0;
      for (int64_t j = s; st > 0 ? j < e : j > e; j += st) ++n;
      begin[a] = s;
      step[a] = st;
      count[a] = n;
    }
    std::vector<float> want(Count(count));
    for (int64_t i = 0; i < Count(count); ++i) {
      Shape o = Unflatten(i, count), in(3);
      for (int d = 0; d < 3; ++d) in[d] = begin[d] + o[d] * step[d];
      want[i] = F(x)[Flatten(in, xs)];
    }
    std::vector<runtime::NDArray> out =
        Eval(OpKind::kSlice,
             {{"starts", c.starts}, {"ends", c.ends}, {"axes", c.axes}, {"steps", c.steps}}, {&x});
    ASSERT_EQ(out.size(), 1u);
    EXPECT_TRUE(Close(out[0], count, want, 0, 0)) << "starts " << c.starts[0];
  }
}

TEST(ComputeTransformTest, SplitIncludingAnEmptyPart) {
  const Shape xs = {3, 7};
  runtime::NDArray x = Random(xs, 9);
  std::vector<runtime::NDArray> out =
      Eval(OpKind::kSplit, {{"axis", int64_t{-1}}, {"sizes", Shape{2, 0, 5}}}, {&x});
  ASSERT_EQ(out.size(), 3u);
  int64_t offset = 0;
  for (int part = 0; part < 3; ++part) {
    int64_t size = out[part].shape()[1];
    std::vector<float> want;
    for (int64_t r = 0; r < 3; ++r) {
      want.insert(want.end(), F(x) + r * 7 + offset, F(x) + r * 7 + offset + size);
    }
    EXPECT_TRUE(Close(out[part], {3, size}, want, 0, 0)) << "part " << part;
    offset += size;
  }
}

}  // namespace
}  // namespace tunefarm::graph::testing
