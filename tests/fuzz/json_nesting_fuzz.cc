// The nesting bound every JSON reader checks first must agree with nlohmann's own parse of what
// it lets through: nothing it accepts may nest deeper than the bound.
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string_view>

#include "runtime/core/json_nesting.h"

namespace {

int Depth(const nlohmann::json& j, int limit) {
  if (limit < 0 || !j.is_structured()) return 0;
  int deepest = 0;
  for (const nlohmann::json& child : j) {
    const int d = Depth(child, limit - 1);
    deepest = d > deepest ? d : deepest;
  }
  return deepest + 1;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  constexpr int kLimit = 8;
  if (!tunefarm::runtime::JsonNestingWithin(text, kLimit)) return 0;
  const nlohmann::json parsed = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_discarded() && Depth(parsed, kLimit + 1) > kLimit) std::abort();
  return 0;
}
