// Percent-escaping of names in our line formats (the module manifest, the model graph): a byte
// that would break a line into the wrong tokens travels as %XX. Part of runtime/core: libc only.
#pragma once

#include <string>
#include <string_view>

namespace tunefarm::runtime {

// Escapes control bytes, space, bytes >= 0x7f, '%' and the format's own `special` bytes; with
// `escape_leading_number`, also a first byte that would make the name read as a number.
void AppendPercentEscaped(std::string_view name, std::string_view special,
                          bool escape_leading_number, std::string* out);

// Decodes a token; false for a malformed %XX, a byte that should have been escaped, or an empty
// result.
bool PercentUnescape(std::string_view token, std::string_view special, std::string* out);

}  // namespace tunefarm::runtime
