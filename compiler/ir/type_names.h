// The element types a user may name (a script's dtype= arguments, a job's dtype), parsed once and
// listed in the error when a name is unknown.
#pragma once

#include <optional>
#include <string_view>

#include "compiler/ir/type.h"

namespace tunefarm::ir {

// A scalar int, uint, float or bool type ("float32", "int8", "bool"); nullopt for anything else,
// vectors ("float32x4") and "handle" included.
std::optional<DataType> ParseElementType(std::string_view text);

// Every name ParseElementType accepts, for messages: "bool, int8, ..., float64".
const char* ElementTypeNames();

}  // namespace tunefarm::ir
