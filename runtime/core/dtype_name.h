// Text names of DLPack element types ("float32", "int8x4", "bool", "handle") for manifests and
// error messages. Part of runtime/core: libc only, so device builds with a bare toolchain share it.
#pragma once

#include <dlpack/dlpack.h>
#include <string>
#include <string_view>

namespace tunefarm::runtime {

// "int8|16|32|64", "uint8|16|32|64", "float16|32|64", "bfloat16", "bool" (uint, 1 bit) and
// "handle", with an "xN" suffix when lanes != 1. A type it cannot name prints as "unknown(c,b,l)".
std::string DTypeName(DLDataType t);

// Parses DTypeName's output (any lane count up to 65535, none for "handle"); false otherwise.
bool ParseDTypeName(std::string_view text, DLDataType* out);

}  // namespace tunefarm::runtime
