// Text from outside (a workload key, a session or job id, a binding name) the way an error
// message may quote it: bounded. A message that echoes a 40 KB input whole is larger than gRPC's
// metadata limit, and the client then sees "received initial metadata size exceeds limit"
// instead of the error. Part of runtime/core: libc only.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tunefarm::runtime {

// Enough to recognise any input we would accept.
inline constexpr size_t kMaxQuotedBytes = 120;

// `text` itself when it has at most `max_bytes` bytes; otherwise its first `max_bytes` bytes (cut
// back to a UTF-8 character boundary) followed by "... (N bytes)".
std::string Abbreviate(std::string_view text, size_t max_bytes = kMaxQuotedBytes);

}  // namespace tunefarm::runtime
