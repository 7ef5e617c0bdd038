// A line of a text format quoted for an error message: printable bytes only, cut at a length,
// so a hostile file cannot put control characters or megabytes into our errors. libc only.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tunefarm::runtime {

// "'text'" with bytes outside printable ASCII shown as '?', and "...'" when cut at `max_bytes`.
std::string QuoteLine(std::string_view line, size_t max_bytes);

}  // namespace tunefarm::runtime
