#include "compiler/topi/matmul_broadcast.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/gemm.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

absl::StatusOr<te::Tensor> BroadcastMatmulCompute(const te::Tensor& a, const te::Tensor& b) {
  absl::StatusOr<std::vector<int64_t>> as = StaticShape("matmul", a);
  if (!as.ok()) return as.status();
  absl::StatusOr<std::vector<int64_t>> bs = StaticShape("matmul", b);
  if (!bs.ok()) return bs.status();
  const std::string shapes = absl::StrCat(ShapeString(*as), " x ", ShapeString(*bs));
  if (as->empty() || bs->empty() || a.dtype() != b.dtype()) {
    return absl::InvalidArgumentError(
        absl::StrCat("matmul ", shapes, ": operands need rank >= 1 and one dtype"));
  }
  if (as->size() == 2 && bs->size() == 2) {
    absl::StatusOr<GemmTensors> t = MatmulCompute(a, b);
    if (!t.ok()) return t.status();
    return t->c;
  }
  const bool a_vector = as->size() == 1, b_vector = bs->size() == 1;
  std::vector<int64_t> am = *as, bm = *bs;  // as matrices
  if (a_vector) am.insert(am.begin(), 1);
  if (b_vector) bm.push_back(1);
  const int64_t m = am[am.size() - 2], k = am.back(), n = bm.back();
  if (bm[bm.size() - 2] != k) {
    return absl::InvalidArgumentError(absl::StrCat("matmul ", shapes, ": inner extents ", k,
                                                   " and ", bm[bm.size() - 2], " differ"));
  }
  const size_t a_batch = am.size() - 2, b_batch = bm.size() - 2;
  const size_t batch = std::max(a_batch, b_batch);
  std::vector<int64_t> batch_shape(batch);
  for (size_t d = 0; d < batch; ++d) {
    int64_t da = d + a_batch >= batch ? am[d + a_batch - batch] : 1;
    int64_t db = d + b_batch >= batch ? bm[d + b_batch - batch] : 1;
    if (da != db && da != 1 && db != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("matmul ", shapes, ": batch axes do not broadcast at axis ", d));
    }
    batch_shape[d] = da == 1 ? db : da;
  }
  std::vector<ir::Expr> out_shape;
  for (int64_t d : batch_shape) out_shape.push_back(Imm(d));
  if (!a_vector) out_shape.push_back(Imm(m));
  if (!b_vector) out_shape.push_back(Imm(n));
  ir::IterVar rk = te::reduce_axis({Imm(0), Imm(k)}, "k");
  // The operand's batch index for output batch index `i`: aligned at the right, extent-1 axes
  // read element 0.
  auto batch_index = [&](const std::vector<int64_t>& shape, size_t own,
                         const std::vector<ir::Var>& i) {
    std::vector<ir::Expr> index;
    for (size_t d = 0; d < own; ++d) {
      index.push_back(shape[d] == 1 ? Imm(0) : ir::Expr(i[d + batch - own]));
    }
    return index;
  };
  auto body = [&](const std::vector<ir::Var>& i) {
    ir::Expr row = a_vector ? Imm(0) : ir::Expr(i[batch]);
    ir::Expr col = b_vector ? Imm(0) : ir::Expr(i[i.size() - 1]);
    std::vector<ir::Expr> ai = batch_index(am, a_batch, i), bi = batch_index(bm, b_batch, i);
    if (!a_vector) ai.push_back(row);
    ai.push_back(rk->var);
    bi.push_back(rk->var);
    if (!b_vector) bi.push_back(col);
    return te::sum(a(ai) * b(bi), {rk});
  };
  return te::compute(out_shape, body, "batch_matmul");
}

}  // namespace tunefarm::topi
