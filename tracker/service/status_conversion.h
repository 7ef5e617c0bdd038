// Maps absl::Status to grpc::Status (and back) keeping the code and the message, so every RPC
// reports the domain objects' errors unchanged.
#pragma once

#include "absl/status/status.h"
#include "grpcpp/support/status.h"

namespace tunefarm::tracker {

grpc::Status ToGrpcStatus(const absl::Status& status);
absl::Status FromGrpcStatus(const grpc::Status& status);

}  // namespace tunefarm::tracker
