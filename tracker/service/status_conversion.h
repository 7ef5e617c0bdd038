// Maps absl::Status to grpc::Status (and back) keeping the code and the message, so every RPC
// reports the domain objects' errors unchanged.
#pragma once

#include <cstddef>

#include "absl/status/status.h"
#include "grpcpp/support/status.h"

namespace tunefarm::tracker {

// A message longer than this is cut (with "... (N bytes)"): gRPC sends it as metadata, and one
// over the peer's metadata limit (8 KB by default, after percent-encoding) replaces the error the
// client should see with "received initial metadata size exceeds limit".
inline constexpr size_t kMaxStatusMessageBytes = 2048;

grpc::Status ToGrpcStatus(const absl::Status& status);
absl::Status FromGrpcStatus(const grpc::Status& status);

}  // namespace tunefarm::tracker
