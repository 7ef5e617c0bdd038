// A callable kernel: its signature plus the entry point, checked at every call so that a wrong
// argument is an error naming that argument, never a crash inside generated code.
#pragma once

#include <cstdint>
#include <memory>
#include <variant>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "runtime/core/c_abi.h"
#include "runtime/core/function_signature.h"
#include "runtime/ndarray.h"

namespace tunefarm::runtime {

// One argument as the caller supplies it. Borrowed: the caller keeps tensors alive for the call.
class PackedArg {
 public:
  PackedArg(NDArray* array) : value_(array->dl()) {}  // NOLINT: implicit on purpose
  PackedArg(DLTensor* tensor) : value_(tensor) {}     // NOLINT
  PackedArg(int64_t v) : value_(v) {}                 // NOLINT
  PackedArg(int v) : value_(int64_t{v}) {}            // NOLINT
  PackedArg(double v) : value_(v) {}                  // NOLINT
  static PackedArg Handle(void* p) { return PackedArg(HandleTag{p}); }

  struct HandleTag {
    void* ptr;
  };
  using Value = std::variant<DLTensor*, int64_t, double, HandleTag>;
  const Value& value() const { return value_; }
  // This argument as the kernel C ABI passes it: its TFValue and type code (kTFArgTensor, ...).
  void ToAbi(TFValue* value, int32_t* code) const;

 private:
  explicit PackedArg(HandleTag h) : value_(h) {}
  Value value_;
};

class PackedFunction {
 public:
  // `owner` keeps whatever holds the code (a JIT session, a dlopen()ed library) alive for as long
  // as any copy of this function exists.
  PackedFunction(FunctionSignature signature, TFKernelFunc entry,
                 std::shared_ptr<const void> owner);

  const FunctionSignature& signature() const { return signature_; }
  TFKernelFunc entry() const { return entry_; }

  // Checks count, kinds, rank, shape (binding symbolic extents consistently), dtype, device and
  // layout against the signature, then runs the kernel. A nonzero kernel result is an error too.
  absl::Status Call(absl::Span<const PackedArg> args) const;

 private:
  FunctionSignature signature_;
  TFKernelFunc entry_;
  std::shared_ptr<const void> owner_;
};

}  // namespace tunefarm::runtime
