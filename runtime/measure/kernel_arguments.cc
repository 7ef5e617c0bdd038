#include "runtime/measure/kernel_arguments.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/data_type.h"
#include "runtime/measure/element_access.h"
#include "runtime/measure/random_fill.h"

namespace tunefarm::runtime::measure {
namespace {

std::string ArgName(const FunctionSignature& signature, size_t position) {
  return absl::StrCat("argument ", position, " (", signature.args[position].name, ") of ",
                      signature.name);
}

absl::StatusOr<int64_t> Bound(const std::map<std::string, int64_t>& bindings,
                              const std::string& symbol, const std::string& where) {
  auto it = bindings.find(symbol);
  if (it == bindings.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": no value for '", symbol, "' (give it in the request's bindings)"));
  }
  return it->second;
}

}  // namespace

absl::StatusOr<KernelArguments> KernelArguments::Make(
    const FunctionSignature& signature, const std::map<std::string, int64_t>& bindings,
    uint64_t seed) {
  KernelArguments args;
  args.signature_ = signature;
  args.scalars_.assign(signature.args.size(), 0);
  for (size_t p = 0; p < signature.args.size(); ++p) {
    const ArgSpec& spec = signature.args[p];
    if (spec.kind == ArgKind::kInt) {
      absl::StatusOr<int64_t> v = Bound(bindings, spec.name, ArgName(signature, p));
      if (!v.ok()) return v.status();
      args.scalars_[p] = *v;
      continue;
    }
    if (spec.kind != ArgKind::kTensor) {
      return absl::InvalidArgumentError(
          absl::StrCat(ArgName(signature, p), ": only tensor and integer arguments are supported"));
    }
    if (!ElementTypeSupported(spec.dtype)) {
      return absl::InvalidArgumentError(absl::StrCat(ArgName(signature, p), ": no inputs for ",
                                                     DataTypeToString(spec.dtype), " tensors"));
    }
    std::vector<int64_t> shape;
    for (const DimSpec& d : spec.shape) {
      if (!d.is_symbol()) {
        shape.push_back(d.value);
        continue;
      }
      absl::StatusOr<int64_t> v = Bound(bindings, d.symbol, ArgName(signature, p));
      if (!v.ok()) return v.status();
      shape.push_back(*v);
    }
    absl::StatusOr<NDArray> array = NDArray::Empty(shape, spec.dtype);
    if (!array.ok()) return array.status();
    // Mix the position into the seed so that equal-shaped arguments get different data.
    FillSeededRandom(*array, seed * 0x2545f4914f6cdd1dULL + 0x9e3779b97f4a7c15ULL * (p + 1));
    args.tensors_.push_back(*std::move(array));
    args.tensor_positions_.push_back(static_cast<int>(p));
  }
  return args;
}

absl::StatusOr<KernelArguments> KernelArguments::Clone() const {
  KernelArguments copy;
  copy.signature_ = signature_;
  copy.tensor_positions_ = tensor_positions_;
  copy.scalars_ = scalars_;
  for (const NDArray& t : tensors_) {
    absl::StatusOr<NDArray> c = t.Clone();
    if (!c.ok()) return c.status();
    copy.tensors_.push_back(*std::move(c));
  }
  return copy;
}

absl::Status KernelArguments::RestoreFrom(const KernelArguments& other) {
  if (other.tensors_.size() != tensors_.size()) {
    return absl::InvalidArgumentError("restoring arguments of another signature");
  }
  for (size_t i = 0; i < tensors_.size(); ++i) {
    if (absl::Status s = tensors_[i].CopyFrom(other.tensors_[i]); !s.ok()) return s;
  }
  return absl::OkStatus();
}

std::vector<PackedArg> KernelArguments::Pack() {
  std::vector<PackedArg> packed;
  packed.reserve(signature_.args.size());
  size_t t = 0;
  for (size_t p = 0; p < signature_.args.size(); ++p) {
    if (signature_.args[p].kind == ArgKind::kTensor) {
      packed.emplace_back(&tensors_[t++]);
    } else {
      packed.emplace_back(scalars_[p]);
    }
  }
  return packed;
}

std::string FormatIndex(int64_t flat, const std::vector<int64_t>& shape) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    const int64_t extent = std::max<int64_t>(shape[d], 1);
    index[d] = flat % extent;
    flat /= extent;
  }
  return absl::StrCat("[", absl::StrJoin(index, ", "), "]");
}

}  // namespace tunefarm::runtime::measure
