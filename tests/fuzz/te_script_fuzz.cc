// The TE script parser (compiler/script): scripts come from users and, through jobs, from the
// network. Any bytes are refused with a Status naming a position, or parsed.
#include <cstdint>
#include <string_view>

#include "compiler/script/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  (void)tunefarm::script::Parse(absl::string_view(source.data(), source.size()), "fuzz.te");
  return 0;
}
