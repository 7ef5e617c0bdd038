// The tracker over TLS: a self-signed certificate made with the openssl tool (skipped where it
// is missing), a client that trusts it, and one that does not.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "proto/tunefarm/v1/tracker.grpc.pb.h"
#include "tracker/service/tracker_server.h"

namespace tunefarm::tracker {
namespace {

std::string Slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(TlsTest, ServesTlsWithTheGivenCertificate) {
  if (std::system("command -v openssl >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "the openssl tool is not installed";
  }
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("tf_service_tls_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string cert = (dir / "cert.pem").string();
  const std::string key = (dir / "key.pem").string();
  const std::string command =
      "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost "
      "-addext subjectAltName=DNS:localhost -keyout " +
      key + " -out " + cert + " >/dev/null 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0);

  TrackerServerOptions options;
  options.listen = "127.0.0.1:0";
  options.db_path = (dir / "tls.db").string();
  options.tls_cert_file = cert;
  options.tls_key_file = key;
  auto server = TrackerServer::Start(options);
  ASSERT_TRUE(server.ok()) << server.status();

  auto call = [&](std::shared_ptr<grpc::ChannelCredentials> credentials) {
    grpc::ChannelArguments args;
    args.SetInt(GRPC_ARG_ENABLE_HTTP_PROXY, 0);
    args.SetSslTargetNameOverride("localhost");
    auto channel = grpc::CreateCustomChannel((*server)->address(), credentials, args);
    auto stub = v1::TrackerService::NewStub(channel);
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    v1::ListWorkersResponse response;
    return stub->ListWorkers(&context, v1::ListWorkersRequest(), &response);
  };
  grpc::SslCredentialsOptions trusting;
  trusting.pem_root_certs = Slurp(cert);
  grpc::Status ok = call(grpc::SslCredentials(trusting));
  EXPECT_TRUE(ok.ok()) << ok.error_message();
  EXPECT_FALSE(call(grpc::InsecureChannelCredentials()).ok()) << "plaintext must be refused";
}

}  // namespace
}  // namespace tunefarm::tracker
