// The tunefarm version stored with every record (from CMake's project version).
#pragma once

#include <string_view>

namespace tunefarm::tuner {

inline constexpr std::string_view kTunefarmVersion = TUNEFARM_VERSION;

}  // namespace tunefarm::tuner
