// Type inference of the ops that multiply and accumulate: conv2d, gemm and matmul.
#include "absl/strings/str_cat.h"
#include "compiler/graph/op_inference.h"

namespace tunefarm::graph {
namespace {

absl::Status CheckFloatOperands(const InferContext& ctx) {
  absl::Status s = ExpectSameDtype(ctx);
  if (s.ok()) s = ExpectFloat(ctx, 0);
  return s;
}

// Floats, or int32 (ONNX's ConvInteger and MatMulInteger: exact integer sums).
absl::Status CheckFloatOrInt32Operands(const InferContext& ctx) {
  absl::Status s = ExpectSameDtype(ctx);
  if (!s.ok()) return s;
  const DLDataType t = ctx.inputs[0].dtype;
  if (t.code == kDLInt && t.bits == 32 && t.lanes == 1) return absl::OkStatus();
  return ExpectFloat(ctx, 0);
}

}  // namespace

InferResult InferConv2d(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 2, 3);
  if (s.ok()) s = CheckFloatOrInt32Operands(ctx);
  if (s.ok()) s = ExpectRank(ctx, 0, 4, "data");
  if (s.ok()) s = ExpectRank(ctx, 1, 4, "weight");
  if (!s.ok()) return s;
  const std::vector<int64_t>& x = ctx.inputs[0].shape;
  const std::vector<int64_t>& wt = ctx.inputs[1].shape;
  absl::StatusOr<int64_t> groups = ctx.node.attrs.Int("groups", 1);
  if (!groups.ok()) return ctx.Annotate(groups.status());
  if (*groups < 1 || x[1] % *groups != 0 || wt[0] % *groups != 0) {
    return ctx.Error(absl::StrCat("groups ", *groups, " must divide the input channels ", x[1],
                                  " and the output channels ", wt[0]));
  }
  if (wt[1] * *groups != x[1]) {
    return ctx.Error(absl::StrCat("weight ", ctx.inputs[1].ToString(), " expects ", wt[1] * *groups,
                                  " input channels, data ", ctx.inputs[0].ToString(), " has ",
                                  x[1]));
  }
  if (ctx.inputs.size() == 3 && ctx.inputs[2].shape != std::vector<int64_t>{wt[0]}) {
    return ctx.Error(
        absl::StrCat("bias ", ctx.inputs[2].ToString(), " must have shape [", wt[0], "]"));
  }
  absl::StatusOr<Window2d> window = ReadWindow2d(ctx, &wt[2]);
  if (!window.ok()) return window.status();
  absl::StatusOr<std::vector<int64_t>> hw = WindowOutputSize(ctx, *window, x[2], x[3]);
  if (!hw.ok()) return hw.status();
  return OneOutput(ctx, ctx.inputs[0].dtype, {x[0], wt[0], (*hw)[0], (*hw)[1]});
}

InferResult InferGemm(const InferContext& ctx) {
  absl::StatusOr<int64_t> b_block = ctx.node.attrs.Int("b_block", 0);
  if (!b_block.ok()) return ctx.Annotate(b_block.status());
  absl::Status s = ExpectInputCount(ctx, 2, 3);
  if (s.ok()) s = CheckFloatOperands(ctx);
  if (s.ok()) s = ExpectRank(ctx, 0, 2, "a");
  if (s.ok()) s = ExpectRank(ctx, 1, *b_block > 0 ? 3 : 2, "b");
  if (!s.ok()) return s;
  absl::StatusOr<int64_t> trans_a = ctx.node.attrs.Int("trans_a", 0);
  absl::StatusOr<int64_t> trans_b = ctx.node.attrs.Int("trans_b", 0);
  absl::StatusOr<double> alpha = ctx.node.attrs.Float("alpha", 1.0);
  absl::StatusOr<double> beta = ctx.node.attrs.Float("beta", 1.0);
  for (const absl::Status& st :
       {trans_a.status(), trans_b.status(), alpha.status(), beta.status()}) {
    if (!st.ok()) return ctx.Annotate(st);
  }
  const std::vector<int64_t>& a = ctx.inputs[0].shape;
  const std::vector<int64_t>& b = ctx.inputs[1].shape;
  if (*b_block > 0 && (*trans_b != 0 || b[2] != *b_block)) {
    return ctx.Error(absl::StrCat("b ", ctx.inputs[1].ToString(), " must be packed as [N/",
                                  *b_block, "][K][", *b_block, "] with trans_b 0"));
  }
  int64_t m = *trans_a ? a[1] : a[0], k = *trans_a ? a[0] : a[1];
  int64_t kb = *trans_b ? b[1] : b[0], n = *trans_b ? b[0] : b[1];
  if (*b_block > 0) {
    kb = b[1];
    n = b[0] * b[2];
  }
  if (k != kb) {
    return ctx.Error(absl::StrCat("inner dimensions differ: a ", ctx.inputs[0].ToString(),
                                  " (trans_a=", *trans_a, "), b ", ctx.inputs[1].ToString(),
                                  " (trans_b=", *trans_b, ")"));
  }
  if (ctx.inputs.size() == 3) {
    const std::vector<int64_t>& c = ctx.inputs[2].shape;
    const int64_t mn[2] = {m, n};
    bool ok = c.size() <= 2;
    for (size_t i = 0; ok && i < c.size(); ++i) {
      int64_t target = mn[2 - c.size() + i];
      ok = c[i] == target || c[i] == 1;
    }
    if (!ok) {
      return ctx.Error(
          absl::StrCat("c ", ctx.inputs[2].ToString(), " does not broadcast to [", m, ",", n, "]"));
    }
  }
  return OneOutput(ctx, ctx.inputs[0].dtype, {m, n});
}

InferResult InferPackGemmWeight(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (s.ok()) s = ExpectFloat(ctx, 0);
  if (s.ok()) s = ExpectRank(ctx, 0, 2, "b");
  if (!s.ok()) return s;
  absl::StatusOr<int64_t> block = ctx.node.attrs.Int("block", 0);
  absl::StatusOr<int64_t> trans_b = ctx.node.attrs.Int("trans_b", 0);
  if (!block.ok()) return ctx.Annotate(block.status());
  if (!trans_b.ok()) return ctx.Annotate(trans_b.status());
  const std::vector<int64_t>& b = ctx.inputs[0].shape;
  const int64_t k = *trans_b ? b[1] : b[0], n = *trans_b ? b[0] : b[1];
  if (*block <= 0 || n % *block != 0) {
    return ctx.Error(absl::StrCat("block ", *block, " must be positive and divide N = ", n));
  }
  return OneOutput(ctx, ctx.inputs[0].dtype, {n / *block, k, *block});
}

InferResult InferMatMul(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 2, 2);
  if (s.ok()) s = CheckFloatOrInt32Operands(ctx);
  if (!s.ok()) return s;
  std::vector<int64_t> a = ctx.inputs[0].shape, b = ctx.inputs[1].shape;
  if (a.empty() || b.empty()) return ctx.Error("operands must have rank 1 or more");
  bool a_vector = a.size() == 1, b_vector = b.size() == 1;
  if (a_vector) a.insert(a.begin(), 1);
  if (b_vector) b.push_back(1);
  if (a.back() != b[b.size() - 2]) {
    return ctx.Error(absl::StrCat("inner dimensions differ: ", ctx.inputs[0].ToString(), " x ",
                                  ctx.inputs[1].ToString()));
  }
  absl::StatusOr<std::vector<int64_t>> out =
      BroadcastShapes(ctx, std::vector<int64_t>(a.begin(), a.end() - 2),
                      std::vector<int64_t>(b.begin(), b.end() - 2));
  if (!out.ok()) return out.status();
  if (!a_vector) out->push_back(a[a.size() - 2]);
  if (!b_vector) out->push_back(b.back());
  return OneOutput(ctx, ctx.inputs[0].dtype, *std::move(out));
}

}  // namespace tunefarm::graph
