// SHA-256 of artifact bytes as lowercase hex: the name under which the tracker sends a library
// and under which the worker caches it.
#pragma once

#include <string>
#include <string_view>

namespace tunefarm::runtime::measure {

std::string Sha256Hex(std::string_view bytes);

// 64 lowercase hex digits: what a well-formed artifact name looks like (and safe as a file name).
bool IsSha256Hex(std::string_view text);

}  // namespace tunefarm::runtime::measure
