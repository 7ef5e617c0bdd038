#include "runtime/core/abbreviate.h"

namespace tunefarm::runtime {

std::string Abbreviate(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  size_t end = max_bytes;
  // Never split a multi-byte character: back up over continuation bytes (10xxxxxx).
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return std::string(text.substr(0, end)) + "... (" + std::to_string(text.size()) + " bytes)";
}

}  // namespace tunefarm::runtime
