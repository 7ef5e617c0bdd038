// The gRPC channel and per-call context every client of a farm uses (address, TLS, token,
// deadline, no proxy on loopback), and gRPC status -> absl::Status. gRPC types are only
// forward-declared here.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "client/farm_client.h"

namespace grpc {
class Channel;
class ClientContext;
class Status;
}  // namespace grpc

namespace tunefarm::client {

// NotFound when the CA certificate file cannot be read.
absl::StatusOr<std::shared_ptr<grpc::Channel>> MakeFarmChannel(const FarmClientOptions& options);

// A context carrying the token and, with `deadline`, the options' call timeout.
std::unique_ptr<grpc::ClientContext> MakeFarmContext(const FarmClientOptions& options,
                                                     bool deadline = true);

// The tracker's status as an absl::Status with the same code and message; an unreachable tracker
// names the address.
absl::Status FromGrpcStatus(const grpc::Status& status, const std::string& address);

}  // namespace tunefarm::client
