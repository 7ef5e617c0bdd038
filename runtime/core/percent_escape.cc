#include "runtime/core/percent_escape.h"

namespace tunefarm::runtime {
namespace {

bool NeedsEscape(unsigned char c, std::string_view special) {
  return c <= ' ' || c >= 0x7f || c == '%' || special.find(static_cast<char>(c)) != special.npos;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

}  // namespace

void AppendPercentEscaped(std::string_view name, std::string_view special,
                          bool escape_leading_number, std::string* out) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (size_t i = 0; i < name.size(); ++i) {
    auto c = static_cast<unsigned char>(name[i]);
    const bool leading_number =
        escape_leading_number && i == 0 && ((c >= '0' && c <= '9') || c == '-');
    if (NeedsEscape(c, special) || leading_number) {
      *out += '%';
      *out += kHex[c >> 4];
      *out += kHex[c & 15];
    } else {
      *out += static_cast<char>(c);
    }
  }
}

bool PercentUnescape(std::string_view token, std::string_view special, std::string* out) {
  out->clear();
  for (size_t i = 0; i < token.size(); ++i) {
    if (token[i] != '%') {
      if (NeedsEscape(static_cast<unsigned char>(token[i]), special)) return false;
      *out += token[i];
      continue;
    }
    if (i + 2 >= token.size()) return false;
    const int hi = HexDigit(token[i + 1]);
    const int lo = HexDigit(token[i + 2]);
    if (hi < 0 || lo < 0) return false;
    *out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return !out->empty();
}

}  // namespace tunefarm::runtime
