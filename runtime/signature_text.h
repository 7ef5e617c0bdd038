// A kernel signature as one readable line, "matmul(A: float32[n, 64], B: ..., k: int64)", for
// the command line's messages and what a remote session lists after an upload.
#pragma once

#include <string>

#include "runtime/core/function_signature.h"

namespace tunefarm::runtime {

std::string SignatureText(const FunctionSignature& signature);

}  // namespace tunefarm::runtime
