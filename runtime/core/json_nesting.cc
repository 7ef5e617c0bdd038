#include "runtime/core/json_nesting.h"

namespace tunefarm::runtime {

bool JsonNestingWithin(std::string_view text, int max_depth) {
  int depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        break;
      case '[':
      case '{':
        if (++depth > max_depth) return false;
        break;
      case ']':
      case '}':
        if (--depth < 0) return false;  // closes what it never opened: not JSON either
        break;
      default:
        break;
    }
  }
  return true;
}

}  // namespace tunefarm::runtime
