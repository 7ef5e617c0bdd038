#include "tracker/service/auth.h"

#include <cstddef>

#include "grpcpp/server_context.h"

namespace tunefarm::tracker {

bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  // Walk the longer length so the time depends only on the lengths, never on the contents.
  size_t n = a.size() > b.size() ? a.size() : b.size();
  unsigned diff = a.size() == b.size() ? 0u : 1u;
  for (size_t i = 0; i < n; ++i) {
    unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff |= static_cast<unsigned>(x ^ y);
  }
  return diff == 0;
}

grpc::Status CheckToken(const grpc::ServerContextBase& context, std::string_view token) {
  if (token.empty()) return grpc::Status::OK;
  const std::string expected = "Bearer " + std::string(token);
  bool ok = false;
  auto range = context.client_metadata().equal_range("authorization");
  for (auto it = range.first; it != range.second; ++it) {
    std::string_view value(it->second.data(), it->second.size());
    // Every value is compared (no early exit) so a second header cannot shortcut the timing.
    ok = ConstantTimeEquals(value, expected) || ok;
  }
  if (ok) return grpc::Status::OK;
  return grpc::Status(grpc::StatusCode::UNAUTHENTICATED, "missing or wrong token");
}

}  // namespace tunefarm::tracker
