#include "runtime/core/quoted_line.h"

namespace tunefarm::runtime {

std::string QuoteLine(std::string_view line, size_t max_bytes) {
  std::string out = "'";
  for (size_t i = 0; i < line.size() && i < max_bytes; ++i) {
    auto c = static_cast<unsigned char>(line[i]);
    out += (c >= ' ' && c < 0x7f) ? static_cast<char>(c) : '?';
  }
  return out + (line.size() > max_bytes ? "...'" : "'");
}

}  // namespace tunefarm::runtime
