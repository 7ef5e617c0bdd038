// A bound on how deeply JSON read from a file or the wire may nest. nlohmann's parser is
// iterative, but printing and comparing a parsed value recurse once per level: text nested
// 100,000 deep overflows the stack there, so every reader of outside JSON checks this first.
// Part of runtime/core: libc only.
#pragma once

#include <string_view>

namespace tunefarm::runtime {

// Far above anything we write (configs nest 2 deep, records and protocol lines 3).
inline constexpr int kMaxJsonNesting = 64;

// True when no array or object in `text` opens more than `max_depth` levels deep and nothing
// closes that was not opened. Brackets inside strings do not count. One pass, no recursion, no
// allocation; other malformed text is left for the parser to refuse.
bool JsonNestingWithin(std::string_view text, int max_depth = kMaxJsonNesting);

}  // namespace tunefarm::runtime
