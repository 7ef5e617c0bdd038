#include "runtime/packed_function.h"

#include <string>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "runtime/core/argument_check.h"

namespace tunefarm::runtime {
namespace {

// Fills one TFValue and its type code from a PackedArg.
struct ToValue {
  TFValue* value;
  int32_t* code;
  void operator()(DLTensor* t) const {
    value->v_handle = t;
    *code = kTFArgTensor;
  }
  void operator()(int64_t v) const {
    value->v_int64 = v;
    *code = kTFArgInt;
  }
  void operator()(double v) const {
    value->v_float64 = v;
    *code = kTFArgFloat;
  }
  void operator()(PackedArg::HandleTag h) const {
    value->v_handle = h.ptr;
    *code = kTFArgHandle;
  }
};

}  // namespace

void PackedArg::ToAbi(TFValue* value, int32_t* code) const {
  std::visit(ToValue{value, code}, value_);
}

PackedFunction::PackedFunction(FunctionSignature signature, TFKernelFunc entry,
                               std::shared_ptr<const void> owner)
    : signature_(std::move(signature)), entry_(entry), owner_(std::move(owner)) {}

absl::Status PackedFunction::Call(absl::Span<const PackedArg> args) const {
  if (entry_ == nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("kernel '", signature_.name, "' has no entry point"));
  }
  // Kernels take a handful of arguments: keep the call free of heap allocations.
  absl::InlinedVector<TFValue, 8> values(args.size());
  absl::InlinedVector<int32_t, 8> codes(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    args[i].ToAbi(&values[i], &codes[i]);
  }
  const auto num_args = static_cast<int32_t>(args.size());
  std::string error = CheckArguments(signature_, values.data(), codes.data(), num_args);
  if (!error.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("kernel '", signature_.name, "': ", error));
  }
  if (int32_t result = entry_(values.data(), codes.data(), num_args); result != 0) {
    return absl::InternalError(
        absl::StrCat("kernel '", signature_.name, "' failed (returned ", result, ")"));
  }
  return absl::OkStatus();
}

}  // namespace tunefarm::runtime
