// IR data types the compiler's tests spell often.
#pragma once

#include "compiler/ir/type.h"

namespace tunefarm::ir_fixtures {

inline constexpr ir::DataType kF32 = ir::DataType::Float(32);

}  // namespace tunefarm::ir_fixtures
