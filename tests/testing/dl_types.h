// DLPack data types the tests spell often.
#pragma once

#include <dlpack/dlpack.h>

namespace tunefarm::fixtures {

inline constexpr DLDataType kF32{kDLFloat, 32, 1};

}  // namespace tunefarm::fixtures
