// What a kernel expects (argument kinds, dtypes, possibly symbolic shapes), stored in every module
// as a manifest and checked at each call. runtime/core: libc only, so bare toolchains build it.
#pragma once

#include <cstdint>
#include <dlpack/dlpack.h>
#include <string>
#include <string_view>
#include <vector>

namespace tunefarm::runtime {

// One dimension of a tensor argument: a constant extent, or a named symbol that every argument
// using the same name must agree on (and that an integer argument of that name must equal).
struct DimSpec {
  int64_t value = 0;   // the extent when `symbol` is empty
  std::string symbol;  // non-empty: a symbolic extent such as "n"

  bool is_symbol() const { return !symbol.empty(); }
  static DimSpec Const(int64_t v) { return DimSpec{v, {}}; }
  static DimSpec Symbol(std::string name) { return DimSpec{0, std::move(name)}; }
};

enum class ArgKind { kTensor, kInt, kFloat, kHandle };

struct ArgSpec {
  ArgKind kind = ArgKind::kTensor;
  std::string name;                      // for error messages: "argument 2 (B)"
  DLDataType dtype = {kDLFloat, 32, 1};  // tensor element type, or the scalar's type
  std::vector<DimSpec> shape;            // tensors only; compact row-major, on kDLCPU
};

struct FunctionSignature {
  std::string name;  // the exported symbol
  std::vector<ArgSpec> args;
};

// A line-based text form, stable across versions, readable in `strings lib.so`.
std::string SerializeManifest(const std::vector<FunctionSignature>& functions);
// Parses SerializeManifest's output; on failure returns false and sets `*error` to one line.
bool ParseManifest(std::string_view text, std::vector<FunctionSignature>* functions,
                   std::string* error);

}  // namespace tunefarm::runtime
