// The token of a dashboard request's `?token=`, read from the raw request target as the user
// typed it: a base64 token's '+' and '=' arrive as they are when not URL-encoded, which a parsed
// query would turn into a space and drop.
#pragma once

#include <string>

#include "absl/strings/string_view.h"

namespace tunefarm::tracker {

// The value of the first `token=` field of `target`'s query, with %XX escapes decoded and '+'
// kept as '+' (no token has spaces); "" when there is none. Never longer than `target`.
std::string QueryTokenOf(absl::string_view target);

}  // namespace tunefarm::tracker
