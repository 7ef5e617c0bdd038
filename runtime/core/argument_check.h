// Checks a kernel call's arguments against the kernel's signature before generated code, which
// trusts them, ever sees them. Part of runtime/core: libc only.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/core/c_abi.h"
#include "runtime/core/function_signature.h"

namespace tunefarm::runtime {

// Returns an empty string when `args` fit `signature`, else one line naming the first bad
// argument by index and name and saying what is wrong and what was expected, e.g.
//   argument 1 (B): shape [64, 66] does not match [64, n=67] (n bound to 67 by argument 0 (A))
// Checked: the count; each argument's kind (type code); for tensors the rank, dtype (code, bits,
// lanes), device (CPU), compact row-major strides, non-null data aligned to 64 bytes, constant
// extents, and symbolic extents bound consistently across all arguments; an int argument named
// like a symbol must equal that symbol's extent; an int must fit its dtype; no extent is negative.
std::string CheckArguments(const FunctionSignature& signature, const TFValue* args,
                           const int32_t* type_codes, int32_t num_args);

// The alignment generated code assumes for every tensor's data (aligned vector loads).
inline constexpr uintptr_t kTensorAlignment = 64;

}  // namespace tunefarm::runtime
