// The tracker's token check: every call of every service carries "authorization: Bearer <token>"
// in its metadata when the tracker was started with a token.
#pragma once

#include <string>
#include <string_view>

#include "grpcpp/support/status.h"

namespace grpc {
class ServerContextBase;
}

namespace tunefarm::tracker {

// OK when `token` is empty (no authentication) or the call's metadata carries it; otherwise
// UNAUTHENTICATED "missing or wrong token". The comparison takes the same time wherever the
// first differing byte is, so the token cannot be guessed byte by byte.
grpc::Status CheckToken(const grpc::ServerContextBase& context, std::string_view token);

// Equal length and bytes, in time independent of where they differ.
bool ConstantTimeEquals(std::string_view a, std::string_view b);

}  // namespace tunefarm::tracker
