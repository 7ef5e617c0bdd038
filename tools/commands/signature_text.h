// A kernel signature as one readable line, "matmul(A: float32[n, 64], B: ..., k: int64)", for
// the command line's messages.
#pragma once

#include <string>

#include "runtime/core/function_signature.h"

namespace tunefarm::tools {

std::string SignatureText(const runtime::FunctionSignature& signature);

}  // namespace tunefarm::tools
