// The arguments a candidate runs on, made from its signature alone: every tensor filled with
// seeded pseudo-random data (the same on every machine), integers taken from bindings by name.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "runtime/core/function_signature.h"
#include "runtime/ndarray.h"
#include "runtime/packed_function.h"

namespace tunefarm::runtime::measure {

class KernelArguments {
 public:
  // Floats uniform in [-1, 1], signed integers in [-4, 4], unsigned in [0, 8], bools 0/1, from
  // splitmix64 seeded by `seed` and the argument's position. Every tensor is filled, outputs
  // included: an element a kernel forgets to write keeps a value the reference overwrote.
  // Errors: a symbolic extent or integer argument missing from `bindings`, a float or handle
  // argument, an element type without a fill rule.
  static absl::StatusOr<KernelArguments> Make(const FunctionSignature& signature,
                                              const std::map<std::string, int64_t>& bindings,
                                              uint64_t seed);

  KernelArguments(KernelArguments&&) = default;
  KernelArguments& operator=(KernelArguments&&) = default;

  // A deep copy (fresh memory, same contents).
  absl::StatusOr<KernelArguments> Clone() const;
  // Copies `other`'s tensor contents into this set's arrays; both come from one signature.
  absl::Status RestoreFrom(const KernelArguments& other);

  // The argument list for PackedFunction::Call; valid while this object lives.
  std::vector<PackedArg> Pack();

  const FunctionSignature& signature() const { return signature_; }
  // One array per tensor argument, in argument order.
  const std::vector<NDArray>& tensors() const { return tensors_; }
  std::vector<NDArray>& mutable_tensors() { return tensors_; }
  // The signature position of tensors()[i].
  const std::vector<int>& tensor_positions() const { return tensor_positions_; }

 private:
  KernelArguments() = default;

  FunctionSignature signature_;
  std::vector<NDArray> tensors_;
  std::vector<int> tensor_positions_;
  std::vector<int64_t> scalars_;  // one per argument; used by integer arguments only
};

// A flat element index as a multi-dimensional one: "[3, 4]".
std::string FormatIndex(int64_t flat, const std::vector<int64_t>& shape);

}  // namespace tunefarm::runtime::measure
