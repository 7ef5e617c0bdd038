#include "compiler/topi/gemm.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {
namespace {

using ir::Expr;

// The weight's element at (batch..., k, n), whichever its layout.
Expr WeightAt(const te::Tensor& w, WeightLayout layout, const std::vector<Expr>& batch, Expr k,
              Expr n) {
  std::vector<Expr> index = batch;
  if (layout == WeightLayout::kKN) {
    index.push_back(std::move(k));
    index.push_back(std::move(n));
  } else {
    index.push_back(std::move(n));
    index.push_back(std::move(k));
  }
  return w(std::move(index));
}

struct GemmDims {
  int64_t batch = 0;  // 0: no batch axis
  int64_t m = 0, n = 0, k = 0;
};

absl::StatusOr<GemmDims> CheckShapes(const std::string& op, const te::Tensor& a,
                                     const te::Tensor& b, WeightLayout layout, bool batched,
                                     const GemmLayout& packing) {
  const int rank = batched ? 3 : 2;
  absl::StatusOr<std::vector<int64_t>> as = StaticShape(op, a, rank);
  if (!as.ok()) return as.status();
  absl::StatusOr<std::vector<int64_t>> bs = StaticShape(op, b, rank);
  if (!bs.ok()) return bs.status();
  GemmDims d;
  d.batch = batched ? (*as)[0] : 0;
  d.m = (*as)[rank - 2];
  d.k = (*as)[rank - 1];
  const int64_t wk = layout == WeightLayout::kKN ? (*bs)[rank - 2] : (*bs)[rank - 1];
  d.n = layout == WeightLayout::kKN ? (*bs)[rank - 1] : (*bs)[rank - 2];
  if (wk != d.k || (batched && (*as)[0] != (*bs)[0]) || a.dtype() != b.dtype()) {
    return absl::InvalidArgumentError(
        absl::StrCat(op, ": shapes ", ShapeString(*as), " (", a.name(), ") and ", ShapeString(*bs),
                     " (", b.name(), ") do not agree on the reduction extent ", d.k,
                     batched ? " or the batch" : "", ", or their dtypes differ"));
  }
  if (packing.b_block < 0 || packing.a_block < 0) {
    return absl::InvalidArgumentError(absl::StrCat(op, ": pack blocks ", packing.b_block, ", ",
                                                   packing.a_block, " must be >= 0"));
  }
  return d;
}

// Declares the product stages of one GEMM over tensors whose packing is already in `t`.
class ProductBuilder {
 public:
  ProductBuilder(const std::string& op, const GemmDims& d, WeightLayout layout, GemmTensors& t)
      : op_(op), d_(d), layout_(layout), t_(t), k_(te::reduce_axis({Imm(0), Imm(d.k)}, "k")) {}

  // c[(b,) m, n] = sum_k a * weight, reading the weight as given.
  absl::Status Plain() {
    auto body = [&](const std::vector<ir::Var>& i) {
      std::vector<Expr> batch(i.begin(), i.end() - 2);
      Expr w = WeightAt(t_.b, layout_, batch, k_->var, i[i.size() - 1]);
      return te::sum(InputAt(batch, i[i.size() - 2]) * w, {k_});
    };
    return Declare({Imm(d_.m), Imm(d_.n)}, {"i", "j"}, body, op_, &t_.c);
  }

  // blocked[(b,) m, jo, ji] = sum_k a * packed_b[(b,) jo, k, ji]; c copies it out.
  absl::Status Blocked() {
    const int64_t bn = t_.layout.b_block;
    auto product = [&](const std::vector<ir::Var>& i) {
      std::vector<Expr> batch(i.begin(), i.end() - 3), p_index = batch;
      p_index.insert(p_index.end(), {i[i.size() - 2], k_->var, i[i.size() - 1]});
      return te::sum(InputAt(batch, i[i.size() - 3]) * t_.packed_b(std::move(p_index)), {k_});
    };
    absl::Status st = Declare({Imm(d_.m), Imm(CeilDiv(d_.n, bn)), Imm(bn)}, {"i", "jo", "ji"},
                              product, absl::StrCat(op_, "_blocked"), &t_.blocked);
    if (!st.ok()) return st;
    auto copy = [&](const std::vector<ir::Var>& i) {
      std::vector<Expr> index(i.begin(), i.end() - 1);
      index.push_back(ir::FloorDiv(i.back(), Imm(bn)));
      index.push_back(ir::FloorMod(i.back(), Imm(bn)));
      return t_.blocked(std::move(index));
    };
    return Declare({Imm(d_.m), Imm(d_.n)}, {"i", "j"}, copy, op_, &t_.c);
  }

 private:
  // A[(b,) row, k], through the packed input [(b,) row / bm, k, row % bm] when there is one.
  Expr InputAt(std::vector<Expr> index, Expr row) const {
    const int64_t bm = t_.layout.a_block;
    if (bm == 0) {
      index.insert(index.end(), {std::move(row), k_->var});
      return t_.a(std::move(index));
    }
    index.insert(index.end(), {ir::FloorDiv(row, Imm(bm)), k_->var, ir::FloorMod(row, Imm(bm))});
    return t_.packed_a(std::move(index));
  }

  // Declares `name` over [(batch,) dims...] into *out.
  absl::Status Declare(std::vector<Expr> dims, std::vector<std::string> names,
                       const te::IndexFn& body, const std::string& name, te::Tensor* out) const {
    if (d_.batch > 0) {
      dims.insert(dims.begin(), Imm(d_.batch));
      names.insert(names.begin(), "b");
    }
    absl::StatusOr<te::Tensor> t = te::compute(dims, body, name, names);
    if (!t.ok()) return t.status();
    *out = *t;
    return absl::OkStatus();
  }

  const std::string& op_;
  GemmDims d_;
  WeightLayout layout_;
  GemmTensors& t_;
  ir::IterVar k_;
};

// The shared definition: C[(b,) m, n] = sum_k A[(b,) m, k] * weight(k, n).
absl::StatusOr<GemmTensors> GemmCompute(const std::string& op, const te::Tensor& a,
                                        const te::Tensor& b, WeightLayout layout,
                                        const GemmLayout& packing, bool batched) {
  absl::StatusOr<GemmDims> d = CheckShapes(op, a, b, layout, batched, packing);
  if (!d.ok()) return d.status();
  GemmTensors t;
  t.a = a;
  t.b = b;
  t.layout = packing;
  t.batched = batched;
  if (packing.b_block > 0) {
    absl::StatusOr<te::Tensor> packed = PackWeightCompute(b, layout, packing.b_block, op);
    if (!packed.ok()) return packed.status();
    t.packed_b = *packed;
  }
  if (packing.a_block > 0) {
    // A[(b,) M, K] is laid out as a weight W[N][K] is: pack it the same way.
    absl::StatusOr<te::Tensor> packed =
        PackWeightCompute(a, WeightLayout::kNK, packing.a_block, absl::StrCat(op, "_input"));
    if (!packed.ok()) return packed.status();
    t.packed_a = *packed;
  }
  ProductBuilder product(op, *d, layout, t);
  absl::Status st = packing.b_block > 0 ? product.Blocked() : product.Plain();
  if (!st.ok()) return st;
  return t;
}

}  // namespace

absl::StatusOr<te::Tensor> PackWeightCompute(const te::Tensor& weight, WeightLayout layout,
                                             int64_t block, const std::string& op) {
  absl::StatusOr<std::vector<int64_t>> ws = StaticShape(op, weight);
  if (!ws.ok()) return ws.status();
  const int rank = static_cast<int>(ws->size());
  if (rank != 2 && rank != 3) {
    return absl::InvalidArgumentError(absl::StrCat(op, ": weight ", weight.name(), " has shape ",
                                                   ShapeString(*ws), "; expected rank 2 or 3"));
  }
  if (block <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(op, ": pack block ", block, " must be > 0"));
  }
  const bool batched = rank == 3;
  const int64_t k = layout == WeightLayout::kKN ? (*ws)[rank - 2] : (*ws)[rank - 1];
  const int64_t n = layout == WeightLayout::kKN ? (*ws)[rank - 1] : (*ws)[rank - 2];
  std::vector<Expr> shape;
  if (batched) shape.push_back(Imm((*ws)[0]));
  shape.push_back(Imm(CeilDiv(n, block)));
  shape.push_back(Imm(k));
  shape.push_back(Imm(block));
  auto body = [&](const std::vector<ir::Var>& i) {
    std::vector<Expr> batch;
    if (batched) batch.push_back(i[0]);
    const int at = batched ? 1 : 0;
    Expr col = i[at] * Imm(block) + i[at + 2];
    Expr value = WeightAt(weight, layout, batch, i[at + 1], col);
    // Only a ragged last block needs the guard; leaving it out otherwise keeps the copy
    // vectorizable.
    if (n % block == 0) return value;
    return ir::IfThenElse(col < Imm(n), value, ir::MakeZero(weight.dtype()));
  };
  std::vector<std::string> names = {"nb", "k", "j"};
  if (batched) names.insert(names.begin(), "b");
  return te::compute(shape, body, absl::StrCat(op, "_packed"), names);
}

absl::StatusOr<GemmTensors> MatmulCompute(const te::Tensor& a, const te::Tensor& b,
                                          const GemmLayout& layout) {
  return GemmCompute("matmul", a, b, WeightLayout::kKN, layout, /*batched=*/false);
}

absl::StatusOr<GemmTensors> PackedMatmulCompute(const te::Tensor& a, const te::Tensor& packed_b) {
  absl::StatusOr<std::vector<int64_t>> as = StaticShape("matmul", a, 2);
  if (!as.ok()) return as.status();
  absl::StatusOr<std::vector<int64_t>> ps = StaticShape("matmul", packed_b, 3);
  if (!ps.ok()) return ps.status();
  if ((*ps)[1] != (*as)[1] || a.dtype() != packed_b.dtype()) {
    return absl::InvalidArgumentError(absl::StrCat("matmul: packed weight ", ShapeString(*ps), " (",
                                                   packed_b.name(), ") must be [N/bn][", (*as)[1],
                                                   "][bn] of ", a.name(), "'s dtype"));
  }
  GemmTensors t;
  t.a = a;
  t.packed_b = packed_b;
  t.layout.b_block = (*ps)[2];
  const GemmDims d{0, (*as)[0], (*ps)[0] * (*ps)[2], (*as)[1]};
  const std::string op = "matmul";  // the builder keeps a reference to it
  ProductBuilder product(op, d, WeightLayout::kKN, t);
  if (absl::Status st = product.Blocked(); !st.ok()) return st;
  return t;
}

absl::StatusOr<GemmTensors> DenseCompute(const te::Tensor& x, const te::Tensor& w,
                                         const GemmLayout& layout) {
  return GemmCompute("dense", x, w, WeightLayout::kNK, layout, /*batched=*/false);
}

absl::StatusOr<GemmTensors> BatchMatmulCompute(const te::Tensor& a, const te::Tensor& b,
                                               bool transpose_b, const GemmLayout& layout) {
  return GemmCompute("batch_matmul", a, b, transpose_b ? WeightLayout::kNK : WeightLayout::kKN,
                     layout, /*batched=*/true);
}

}  // namespace tunefarm::topi
