#include "compiler/topi/reduce.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {
namespace {

using ir::Expr;

struct ReduceFnInfo {
  ReduceFn fn;
  std::string_view name;
  bool integers;
};

constexpr ReduceFnInfo kReduceFns[] = {
    {ReduceFn::kSum, "sum", true},         {ReduceFn::kMean, "mean", false},
    {ReduceFn::kMax, "max", true},         {ReduceFn::kMin, "min", true},
    {ReduceFn::kProd, "prod", true},       {ReduceFn::kL1, "l1", true},
    {ReduceFn::kL2, "l2", false},          {ReduceFn::kSumSquare, "sum_square", true},
    {ReduceFn::kLogSum, "log_sum", false}, {ReduceFn::kLogSumExp, "log_sum_exp", false},
};

const ReduceFnInfo& ReduceInfoOf(ReduceFn fn) { return kReduceFns[static_cast<int>(fn)]; }

// Index maps between x and the reduced tensors: an output index (reduced axes kept as 1s or
// dropped) and the reduction variables put together into an index of x.
class ReduceAxisMap {
 public:
  ReduceAxisMap(const std::vector<int64_t>& shape, const std::vector<int>& axes, bool keep_dims)
      : reduced_(shape.size(), false), keep_dims_(keep_dims) {
    for (int a : axes) reduced_[a] = true;
    for (size_t d = 0; d < shape.size(); ++d) {
      if (!reduced_[d]) {
        out_shape_.push_back(Imm(shape[d]));
      } else {
        if (keep_dims) out_shape_.push_back(Imm(1));
        count_ *= shape[d];
        ranges_.push_back(te::reduce_axis({Imm(0), Imm(shape[d])}, absl::StrCat("k", d)));
      }
    }
  }

  const std::vector<Expr>& out_shape() const { return out_shape_; }
  const std::vector<ir::IterVar>& reduction() const { return ranges_; }
  int64_t count() const { return count_; }

  // x's index for output index `i` and the reduction variables.
  std::vector<Expr> Source(const std::vector<ir::Var>& i) const {
    std::vector<Expr> index;
    size_t o = 0, r = 0;
    for (size_t d = 0; d < reduced_.size(); ++d) {
      if (reduced_[d]) {
        index.push_back(ranges_[r++]->var);
        if (keep_dims_) ++o;
      } else {
        index.push_back(i[o++]);
      }
    }
    return index;
  }

 private:
  std::vector<bool> reduced_;
  bool keep_dims_;
  std::vector<Expr> out_shape_;
  std::vector<ir::IterVar> ranges_;
  int64_t count_ = 1;
};

std::vector<Expr> FullIndex(const std::vector<ir::Var>& i) { return {i.begin(), i.end()}; }

}  // namespace

std::string_view ReduceFnName(ReduceFn fn) { return ReduceInfoOf(fn).name; }

std::optional<ReduceFn> ReduceFnFromName(std::string_view name) {
  for (const ReduceFnInfo& info : kReduceFns) {
    if (info.name == name) return info.fn;
  }
  return std::nullopt;
}

bool ReduceFnTakesIntegers(ReduceFn fn) { return ReduceInfoOf(fn).integers; }

absl::StatusOr<ReduceTensors> ReduceCompute(const te::Tensor& x, ReduceFn fn,
                                            const std::vector<int>& axes, bool keep_dims) {
  const std::string name = absl::StrCat("reduce_", std::string(ReduceFnName(fn)));
  absl::StatusOr<std::vector<int64_t>> xs = StaticShape(name, x);
  if (!xs.ok()) return xs.status();
  const int rank = static_cast<int>(xs->size());
  std::vector<bool> seen(rank, false);
  for (int a : axes) {
    if (a < 0 || a >= rank || seen[a]) {
      return absl::InvalidArgumentError(absl::StrCat(name, ": axis ", a, " of ", ShapeString(*xs),
                                                     seen[a] ? " is repeated" : " out of range"));
    }
    seen[a] = true;
  }
  if (!x.dtype().is_float() && !ReduceFnTakesIntegers(fn)) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": needs a float tensor, ", x.name(), " is ", x.dtype().ToString()));
  }
  const ReduceAxisMap map(*xs, axes, keep_dims);
  const ir::DataType t = x.dtype();
  auto reduce = [&](const std::string& stage, auto&& body) {
    return te::compute(map.out_shape(), body, stage);
  };
  ReduceTensors result;
  auto finish = [&](const te::Tensor& reduced, auto&& fn_of) -> absl::StatusOr<ReduceTensors> {
    result.stages.push_back(reduced);
    absl::StatusOr<te::Tensor> out = te::compute(
        map.out_shape(),
        [&](const std::vector<ir::Var>& i) { return fn_of(reduced(FullIndex(i))); }, name);
    if (!out.ok()) return out.status();
    result.out = *out;
    return result;
  };
  auto sum_of = [&](auto&& term) {
    return reduce(name + "_sum", [&, term](const std::vector<ir::Var>& i) {
      return te::sum(term(x(map.Source(i))), map.reduction());
    });
  };
  auto square = [](Expr v) { return v * v; };
  auto absolute = [&](Expr v) {
    return t.is_float() ? ir::Call(ir::Intrinsic::kFabs, {v})
                        : ir::Select(v < ir::MakeZero(t), ir::MakeZero(t) - v, v);
  };
  auto identity = [](Expr v) { return v; };
  absl::StatusOr<te::Tensor> r;
  switch (fn) {
    case ReduceFn::kSum:
      r = sum_of(identity);
      break;
    case ReduceFn::kSumSquare:
      r = sum_of(square);
      break;
    case ReduceFn::kL1:
      r = sum_of(absolute);
      break;
    case ReduceFn::kMax:
    case ReduceFn::kMin:
    case ReduceFn::kProd:
      r = reduce(name, [&](const std::vector<ir::Var>& i) {
        Expr v = x(map.Source(i));
        if (fn == ReduceFn::kMax) return te::max(v, map.reduction());
        if (fn == ReduceFn::kMin) return te::min(v, map.reduction());
        return te::prod(v, map.reduction());
      });
      break;
    case ReduceFn::kMean: {
      absl::StatusOr<te::Tensor> s = sum_of(identity);
      if (!s.ok()) return s.status();
      const double inverse = 1.0 / static_cast<double>(map.count());
      return finish(*s, [&](Expr v) { return v * ir::MakeConst(t, inverse); });
    }
    case ReduceFn::kL2: {
      absl::StatusOr<te::Tensor> s = sum_of(square);
      if (!s.ok()) return s.status();
      return finish(*s, [](Expr v) { return ir::Call(ir::Intrinsic::kSqrt, {v}); });
    }
    case ReduceFn::kLogSum: {
      absl::StatusOr<te::Tensor> s = sum_of(identity);
      if (!s.ok()) return s.status();
      return finish(*s, [](Expr v) { return ir::Call(ir::Intrinsic::kLog, {v}); });
    }
    case ReduceFn::kLogSumExp: {
      // max + log(sum(e^(x - max))): no overflow for large inputs.
      absl::StatusOr<te::Tensor> m = reduce(name + "_max", [&](const std::vector<ir::Var>& i) {
        return te::max(x(map.Source(i)), map.reduction());
      });
      if (!m.ok()) return m.status();
      // The max read back per element of x: its index is x's with the reduced axes at 0 (kept)
      // or dropped.
      const ReduceAxisMap inner(*xs, axes, keep_dims);
      absl::StatusOr<te::Tensor> s = te::compute(
          inner.out_shape(),
          [&](const std::vector<ir::Var>& i) {
            Expr shifted = x(inner.Source(i)) - (*m)(FullIndex(i));
            return te::sum(ir::Call(ir::Intrinsic::kExp, {shifted}), inner.reduction());
          },
          name + "_sum");
      if (!s.ok()) return s.status();
      result.stages.push_back(*m);
      result.stages.push_back(*s);
      absl::StatusOr<te::Tensor> out = te::compute(
          map.out_shape(),
          [&](const std::vector<ir::Var>& i) {
            return (*m)(FullIndex(i)) + ir::Call(ir::Intrinsic::kLog, {(*s)(FullIndex(i))});
          },
          name);
      if (!out.ok()) return out.status();
      result.out = *out;
      return result;
    }
  }
  if (!r.ok()) return r.status();
  result.out = *r;
  return result;
}

}  // namespace tunefarm::topi
