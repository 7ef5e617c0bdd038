// ONNX's Einsum of one or two operands as the graph's own ops: repeated labels within an operand
// (diagonals) by an identity mask and a sum, labels that appear once by sums, and a pair of
// operands as one batched matmul between transposes and reshapes, so the contraction runs on the
// matmul kernels.
#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/frontend/onnx/converters.h"

namespace tunefarm::frontend::onnx {
namespace {

using graph::OpKind;
using Ints = std::vector<int64_t>;
using Labels =
    std::string;  // one label per axis; '0' + j marks the j-th ellipsis axis from the right

constexpr int kMaxEllipsisAxes = 10;

// One term of the equation ("bij", "...ii") with its ellipsis spelled out for an operand of
// `rank` axes; the output's term (`output`) has as many ellipsis axes as `rank` says and any
// number of labels.
absl::StatusOr<Labels> ParseTerm(std::string_view term, int64_t rank, bool output) {
  Labels letters;
  std::optional<size_t> ellipsis_at;
  for (size_t i = 0; i < term.size(); ++i) {
    const char c = term[i];
    if (term.substr(i, 3) == "...") {
      if (ellipsis_at.has_value()) return absl::InvalidArgumentError("two ellipses in one term");
      ellipsis_at = letters.size();
      i += 2;
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      letters.push_back(c);
    } else {
      return absl::InvalidArgumentError(absl::StrCat("'", std::string(1, c), "' is not a label"));
    }
  }
  const int64_t spelled = static_cast<int64_t>(letters.size());
  if (!ellipsis_at.has_value()) {
    if (!output && spelled != rank) {
      return absl::InvalidArgumentError(absl::StrCat("term '", std::string(term), "' has ", spelled,
                                                     " labels for ", rank, " axes"));
    }
    return letters;
  }
  const int64_t hidden = output ? rank : rank - spelled;
  if (hidden < 0 || hidden > kMaxEllipsisAxes) {
    return absl::InvalidArgumentError(
        absl::StrCat("term '", std::string(term), "' does not fit ", rank, " axes"));
  }
  Labels out = letters.substr(0, *ellipsis_at);
  for (int64_t j = hidden - 1; j >= 0; --j) out.push_back(static_cast<char>('0' + j));
  out += letters.substr(*ellipsis_at);
  return out;
}

struct Equation {
  std::vector<Labels> inputs;
  Labels output;
};

absl::StatusOr<Equation> ParseEquation(std::string equation, const std::vector<int64_t>& ranks) {
  equation.erase(std::remove(equation.begin(), equation.end(), ' '), equation.end());
  const size_t arrow = equation.find("->");
  const std::string lhs = equation.substr(0, arrow);
  Equation e;
  size_t start = 0;
  for (;;) {
    const size_t comma = lhs.find(',', start);
    const std::string term = lhs.substr(start, comma == std::string::npos ? comma : comma - start);
    if (e.inputs.size() >= ranks.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("the equation has more terms than the ", ranks.size(), " inputs"));
    }
    absl::StatusOr<Labels> labels = ParseTerm(term, ranks[e.inputs.size()], false);
    if (!labels.ok()) return labels.status();
    e.inputs.push_back(*labels);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (e.inputs.size() != ranks.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the equation has ", e.inputs.size(), " terms for ", ranks.size(), " inputs"));
  }
  std::map<char, int> count;
  int ellipsis_axes = 0;
  for (const Labels& in : e.inputs) {
    for (char c : in) {
      ++count[c];
      if (c >= '0' && c <= '9') ellipsis_axes = std::max(ellipsis_axes, c - '0' + 1);
    }
  }
  if (arrow == std::string::npos) {
    // Implicit output: the ellipsis axes, then the labels that appear once, in alphabetical order.
    for (int j = ellipsis_axes - 1; j >= 0; --j) e.output.push_back(static_cast<char>('0' + j));
    for (const auto& [c, n] : count) {
      if (n == 1 && !(c >= '0' && c <= '9')) e.output.push_back(c);
    }
    return e;
  }
  absl::StatusOr<Labels> out = ParseTerm(equation.substr(arrow + 2), ellipsis_axes, true);
  if (!out.ok()) return out.status();
  for (size_t i = 0; i < out->size(); ++i) {
    if (!count.count((*out)[i])) {
      return absl::InvalidArgumentError(
          absl::StrCat("output label '", std::string(1, (*out)[i]), "' is in no input"));
    }
    if (out->find((*out)[i], i + 1) != std::string::npos) {
      return absl::InvalidArgumentError("the output repeats a label");
    }
  }
  e.output = *out;
  return e;
}

// An operand being rewritten: its graph value, labels and extents.
struct Operand {
  graph::ValueId value;
  Labels labels;
  Ints extents;
};

class EinsumLowering {
 public:
  EinsumLowering(ImportContext& ctx, const NodeProto& node) : ctx_(ctx), node_(node) {}

  // Takes the diagonal of every label that repeats within the operand.
  absl::Status TakeDiagonals(Operand& x) {
    for (size_t p = 0; p < x.labels.size(); ++p) {
      const size_t q = x.labels.find(x.labels[p], p + 1);
      if (q == std::string::npos) continue;
      const int64_t n = x.extents[p];
      if (x.extents[q] != n) return ctx_.Error(node_, "a repeated label spans unequal axes");
      Ints mask_shape(x.labels.size(), 1);
      mask_shape[p] = n;
      mask_shape[q] = n;
      absl::StatusOr<runtime::NDArray> mask = runtime::NDArray::Empty(mask_shape, dtype_);
      if (!mask.ok()) return mask.status();
      absl::StatusOr<runtime::NDArray> one = ImportContext::ScalarArray(dtype_, 1);
      absl::StatusOr<runtime::NDArray> zero = ImportContext::ScalarArray(dtype_, 0);
      if (!one.ok()) return ctx_.Error(node_, std::string(one.status().message()));
      if (!zero.ok()) return zero.status();
      const size_t bytes = one->NumBytes();
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          std::memcpy(static_cast<char*>(mask->data()) + (i * n + j) * bytes,
                      (i == j ? one : zero)->data(), bytes);
        }
      }
      const graph::ValueId m = ctx_.graph().AddConstant(Part("/diagonal_mask"), *std::move(mask));
      absl::StatusOr<graph::ValueId> masked = Op(OpKind::kMul, "/masked", {}, {x.value, m});
      if (!masked.ok()) return masked.status();
      absl::StatusOr<graph::ValueId> diagonal =
          Op(OpKind::kReduce, "/diagonal", SumOver({static_cast<int64_t>(q)}), {*masked});
      if (!diagonal.ok()) return diagonal.status();
      x.value = *diagonal;
      x.labels.erase(q, 1);
      x.extents.erase(x.extents.begin() + static_cast<int64_t>(q));
      --p;  // the label may repeat a third time
    }
    return absl::OkStatus();
  }

  // Sums away the labels that neither the output nor `other` has.
  absl::Status SumAwayUnused(Operand& x, const Labels& other, const Labels& output) {
    Ints axes;
    Operand kept{x.value, "", {}};
    for (size_t i = 0; i < x.labels.size(); ++i) {
      const char c = x.labels[i];
      if (output.find(c) == std::string::npos && other.find(c) == std::string::npos) {
        axes.push_back(static_cast<int64_t>(i));
      } else {
        kept.labels.push_back(c);
        kept.extents.push_back(x.extents[i]);
      }
    }
    if (axes.empty()) return absl::OkStatus();
    absl::StatusOr<graph::ValueId> summed =
        Op(OpKind::kReduce, "/summed", SumOver(axes), {x.value});
    if (!summed.ok()) return summed.status();
    kept.value = *summed;
    x = kept;
    return absl::OkStatus();
  }

  // `x` with its axes in the order of `labels` (all of them its own).
  absl::StatusOr<graph::ValueId> Permute(const Operand& x, const Labels& labels,
                                         const std::string& suffix) {
    Ints perm;
    for (char c : labels) perm.push_back(static_cast<int64_t>(x.labels.find(c)));
    bool identity = true;
    for (size_t i = 0; i < perm.size(); ++i)
      identity = identity && perm[i] == static_cast<int64_t>(i);
    if (identity) return x.value;
    return Op(OpKind::kTranspose, suffix, {{"perm", perm}}, {x.value});
  }

  absl::StatusOr<graph::ValueId> Op(OpKind op, const std::string& suffix, graph::Attributes attrs,
                                    std::vector<graph::ValueId> inputs) {
    return ctx_.EmitInner(node_, op, suffix + std::to_string(parts_++), std::move(attrs),
                          std::move(inputs));
  }

  void set_dtype(DLDataType t) { dtype_ = t; }

 private:
  static graph::Attributes SumOver(Ints axes) {
    return {{"fn", std::string("sum")}, {"keep_dims", int64_t{0}}, {"axes", std::move(axes)}};
  }
  std::string Part(const std::string& suffix) {
    return ImportContext::PartName(node_, suffix + std::to_string(parts_++));
  }

  ImportContext& ctx_;
  const NodeProto& node_;
  DLDataType dtype_{kDLFloat, 32, 1};
  int parts_ = 0;
};

int64_t Product(const Ints& v) {
  int64_t p = 1;
  for (int64_t x : v) p *= x;
  return p;
}

absl::Status Einsum(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<std::string> equation = ctx.AttrString(node, "equation", "");
  if (!equation.ok()) return equation.status();
  if (node.input_size() < 1 || node.input_size() > 2) {
    return absl::UnimplementedError(absl::StrCat("Einsum node '", node.name(),
                                                 "': ", node.input_size(),
                                                 " operands (one or two are supported)"));
  }
  std::vector<Operand> operands;
  Ints ranks;
  for (int i = 0; i < node.input_size(); ++i) {
    absl::StatusOr<graph::TensorType> t = ctx.InputType(node, i);
    absl::StatusOr<graph::ValueId> v = ctx.Input(node, i);
    if (!t.ok()) return t.status();
    if (!v.ok()) return v.status();
    operands.push_back({*v, "", t->shape});
    ranks.push_back(t->rank());
  }
  absl::StatusOr<Equation> e = ParseEquation(*equation, ranks);
  if (!e.ok()) {
    return ctx.Error(node, "equation '" + *equation + "': " + std::string(e.status().message()));
  }
  absl::StatusOr<graph::TensorType> t0 = ctx.InputType(node, 0);
  if (!t0.ok()) return t0.status();
  EinsumLowering lower(ctx, node);
  lower.set_dtype(t0->dtype);
  for (size_t i = 0; i < operands.size(); ++i) {
    operands[i].labels = e->inputs[i];
    if (absl::Status s = lower.TakeDiagonals(operands[i]); !s.ok()) return s;
  }
  for (size_t i = 0; i < operands.size(); ++i) {
    const Labels other = operands.size() == 2 ? operands[1 - i].labels : "";
    if (absl::Status s = lower.SumAwayUnused(operands[i], other, e->output); !s.ok()) return s;
  }
  if (operands.size() == 1) {
    absl::StatusOr<graph::ValueId> y = lower.Permute(operands[0], e->output, "/ordered");
    if (!y.ok()) return y.status();
    return ctx.DefineValue(node, 0, *y);
  }
  const Operand& a = operands[0];
  const Operand& b = operands[1];
  Labels batch, contracted, a_kept, b_kept;
  std::map<char, int64_t> extent;
  for (size_t i = 0; i < a.labels.size(); ++i) extent[a.labels[i]] = a.extents[i];
  for (size_t i = 0; i < b.labels.size(); ++i) {
    const char c = b.labels[i];
    if (extent.count(c) && extent[c] != b.extents[i]) {
      return absl::UnimplementedError(
          absl::StrCat("Einsum node '", node.name(), "': label '", std::string(1, c), "' spans ",
                       extent[c], " and ", b.extents[i], " (broadcasting is not supported)"));
    }
    extent[c] = b.extents[i];
  }
  for (char c : a.labels) {
    const bool in_b = b.labels.find(c) != std::string::npos;
    const bool in_out = e->output.find(c) != std::string::npos;
    (in_b ? (in_out ? batch : contracted) : a_kept).push_back(c);
  }
  for (char c : b.labels) {
    if (a.labels.find(c) == std::string::npos) b_kept.push_back(c);
  }
  auto extents_of = [&](const Labels& labels) {
    Ints v;
    for (char c : labels) v.push_back(extent[c]);
    return v;
  };
  absl::StatusOr<graph::ValueId> at = lower.Permute(a, batch + a_kept + contracted, "/a_ordered");
  absl::StatusOr<graph::ValueId> bt = lower.Permute(b, batch + contracted + b_kept, "/b_ordered");
  if (!at.ok()) return at.status();
  if (!bt.ok()) return bt.status();
  const int64_t nb = Product(extents_of(batch)), m = Product(extents_of(a_kept)),
                k = Product(extents_of(contracted)), n = Product(extents_of(b_kept));
  absl::StatusOr<graph::ValueId> a3 =
      lower.Op(OpKind::kReshape, "/a_3d", {{"shape", Ints{nb, m, k}}}, {*at});
  absl::StatusOr<graph::ValueId> b3 =
      lower.Op(OpKind::kReshape, "/b_3d", {{"shape", Ints{nb, k, n}}}, {*bt});
  if (!a3.ok()) return a3.status();
  if (!b3.ok()) return b3.status();
  absl::StatusOr<graph::ValueId> product = lower.Op(OpKind::kMatMul, "/product", {}, {*a3, *b3});
  if (!product.ok()) return product.status();
  const Labels produced = batch + a_kept + b_kept;
  absl::StatusOr<graph::ValueId> shaped =
      lower.Op(OpKind::kReshape, "/unflattened", {{"shape", extents_of(produced)}}, {*product});
  if (!shaped.ok()) return shaped.status();
  absl::StatusOr<graph::ValueId> y =
      lower.Permute(Operand{*shaped, produced, extents_of(produced)}, e->output, "/ordered");
  if (!y.ok()) return y.status();
  return ctx.DefineValue(node, 0, *y);
}

constexpr OnnxConverter kEinsumConverters[] = {
    {"Einsum", &Einsum, 12},
};

}  // namespace

std::span<const OnnxConverter> EinsumConverters() { return kEinsumConverters; }

}  // namespace tunefarm::frontend::onnx
