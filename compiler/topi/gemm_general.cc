#include "compiler/topi/gemm_general.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/static_shape.h"
#include "compiler/topi/transpose.h"

namespace tunefarm::topi {

absl::StatusOr<GeneralGemmTensors> GeneralGemmCompute(const te::Tensor& a, const te::Tensor& b,
                                                      const te::Tensor& c,
                                                      const GeneralGemmParams& params) {
  GeneralGemmTensors t;
  te::Tensor lhs = a;
  if (params.trans_a) {
    absl::StatusOr<te::Tensor> a_t = TransposeCompute(a, {1, 0});
    if (!a_t.ok()) return a_t.status();
    t.a_t = lhs = *a_t;
  }
  absl::StatusOr<GemmTensors> product = params.b_block > 0 ? PackedMatmulCompute(lhs, b)
                                        : params.trans_b   ? DenseCompute(lhs, b)
                                                           : MatmulCompute(lhs, b);
  if (!product.ok()) return product.status();
  t.product = *product;
  t.out = t.product.c;
  if (params.alpha == 1.0 && !c.defined()) return t;
  absl::StatusOr<std::vector<int64_t>> ys = StaticShape("gemm", t.product.c, 2);
  if (!ys.ok()) return ys.status();
  std::vector<int64_t> cs;
  if (c.defined()) {
    absl::StatusOr<std::vector<int64_t>> s = StaticShape("gemm", c);
    if (!s.ok()) return s.status();
    cs = *s;
    bool ok = cs.size() <= 2 && c.dtype() == a.dtype();
    for (size_t d = 0; ok && d < cs.size(); ++d) {
      int64_t target = (*ys)[2 - cs.size() + d];
      ok = cs[d] == target || cs[d] == 1;
    }
    if (!ok) {
      return absl::InvalidArgumentError(absl::StrCat("gemm: c ", ShapeString(cs),
                                                     " does not broadcast to ", ShapeString(*ys),
                                                     " or its dtype differs"));
    }
  }
  const ir::DataType dt = a.dtype();
  auto body = [&](const std::vector<ir::Var>& i) {
    ir::Expr y = t.product.c({i[0], i[1]});
    if (params.alpha != 1.0) y = ir::MakeConst(dt, params.alpha) * y;
    if (!c.defined()) return y;
    std::vector<ir::Expr> index;
    for (size_t d = 0; d < cs.size(); ++d) {
      index.push_back(cs[d] == 1 ? Imm(0) : ir::Expr(i[2 - cs.size() + d]));
    }
    ir::Expr bias = c(index);
    if (params.beta != 1.0) bias = ir::MakeConst(dt, params.beta) * bias;
    return y + bias;
  };
  absl::StatusOr<te::Tensor> out = te::compute(t.product.c.shape(), body, "gemm", {"i", "j"});
  if (!out.ok()) return out.status();
  t.out = *out;
  return t;
}

}  // namespace tunefarm::topi
