#include "client/farm_channel.h"

#include <chrono>
#include <fstream>
#include <grpcpp/grpcpp.h>
#include <sstream>

#include "absl/strings/str_cat.h"

namespace tunefarm::client {

absl::StatusOr<std::shared_ptr<grpc::Channel>> MakeFarmChannel(const FarmClientOptions& options) {
  if (options.address.empty()) return absl::InvalidArgumentError("no tracker address given");
  std::shared_ptr<grpc::ChannelCredentials> credentials = grpc::InsecureChannelCredentials();
  if (!options.tls_root_cert_file.empty()) {
    std::ifstream in(options.tls_root_cert_file);
    if (!in) {
      return absl::NotFoundError(
          absl::StrCat("cannot read the CA certificate ", options.tls_root_cert_file));
    }
    std::stringstream pem;
    pem << in.rdbuf();
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = pem.str();
    credentials = grpc::SslCredentials(ssl);
  }
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_ENABLE_HTTP_PROXY, 0);
  args.SetMaxReceiveMessageSize(256 << 20);
  args.SetMaxSendMessageSize(256 << 20);
  return grpc::CreateCustomChannel(options.address, credentials, args);
}

std::unique_ptr<grpc::ClientContext> MakeFarmContext(const FarmClientOptions& options,
                                                     bool deadline) {
  auto ctx = std::make_unique<grpc::ClientContext>();
  if (!options.token.empty()) {
    ctx->AddMetadata("authorization", absl::StrCat("Bearer ", options.token));
  }
  if (deadline) {
    ctx->set_deadline(
        std::chrono::system_clock::now() +
        std::chrono::milliseconds(static_cast<int64_t>(options.call_timeout_s * 1000)));
  }
  return ctx;
}

absl::Status FromGrpcStatus(const grpc::Status& s, const std::string& address) {
  if (s.ok()) return absl::OkStatus();
  if (s.error_code() == grpc::StatusCode::UNAVAILABLE) {
    return absl::UnavailableError(
        absl::StrCat("tracker ", address, " is unreachable: ", s.error_message()));
  }
  if (s.error_code() == grpc::StatusCode::UNAUTHENTICATED) {
    return absl::UnauthenticatedError(
        absl::StrCat("tracker ", address, " refused the call: ", s.error_message(),
                     " (give the farm's token with --token-file FILE)"));
  }
  return absl::Status(static_cast<absl::StatusCode>(s.error_code()), s.error_message());
}

}  // namespace tunefarm::client
