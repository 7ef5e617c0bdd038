// The dashboard server's own answers (before any route): a POST whose body length is unknown is
// refused at once with a message that says what to send, not a bare 400 after a read timeout.
#include "tracker/http/dashboard_server.h"

#include <arpa/inet.h>
#include <chrono>
#include <gmock/gmock.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/unit/tracker/http/dashboard_test_util.h"

namespace tunefarm::tracker {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kToken[] = "t0k";

// Sends `request` as is on a fresh connection and returns everything the server writes until it
// closes the connection (or `timeout_s` pass without a byte).
std::string RawExchange(int port, const std::string& request, int timeout_s = 10) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  EXPECT_GE(fd, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  timeval timeout{timeout_s, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    ADD_FAILURE() << "cannot connect to port " << port;
    return "";
  }
  EXPECT_EQ(write(fd, request.data(), request.size()), static_cast<ssize_t>(request.size()));
  std::string reply;
  char buffer[4096];
  for (ssize_t n; (n = read(fd, buffer, sizeof(buffer))) > 0;) reply.append(buffer, n);
  close(fd);
  return reply;
}

class DashboardServerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::string(testing::FreshDir("server"));
    auto server = TrackerServer::Start(testing::DashboardTrackerOptions(*dir_, kToken));
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = server->release();
  }
  static void TearDownTestSuite() {
    delete server_;
    delete dir_;
  }
  static int port() { return server_->http_port(); }

  static std::string* dir_;
  static TrackerServer* server_;
};

std::string* DashboardServerTest::dir_ = nullptr;
TrackerServer* DashboardServerTest::server_ = nullptr;

// cpp-httplib binds with SO_REUSEPORT unless told otherwise: a second tracker on the first's
// dashboard port started, and the two answered the port's requests at random (401s and 404s).
TEST_F(DashboardServerTest, ASecondTrackerCannotTakeTheDashboardsPort) {
  TrackerServerOptions o = testing::DashboardTrackerOptions(testing::FreshDir("second"), kToken);
  o.http_listen = absl::StrCat("127.0.0.1:", port());
  auto second = TrackerServer::Start(o);
  ASSERT_FALSE(second.ok()) << "a second tracker took the dashboard port " << port();
  EXPECT_THAT(second.status().message(), HasSubstr("cannot listen"));
  // The first still answers alone.
  EXPECT_THAT(
      RawExchange(port(), "GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
      StartsWith("HTTP/1.1"));
}

// `curl -X POST URL` sends no Content-Length: cpp-httplib waited for a body until its read
// timeout, then answered 400 with nothing saying why.
TEST_F(DashboardServerTest, PostWithoutContentLengthSaysWhatToSend) {
  ASSERT_GT(port(), 0);
  const auto start = std::chrono::steady_clock::now();
  const std::string reply = RawExchange(port(),
                                        "POST /api/jobs/j-1/cancel HTTP/1.1\r\n"
                                        "Host: 127.0.0.1\r\n"
                                        "Authorization: Bearer t0k\r\n"
                                        "Connection: close\r\n\r\n");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
  EXPECT_THAT(reply, StartsWith("HTTP/1.1 411"));
  EXPECT_THAT(reply, HasSubstr("POST /api/jobs/j-1/cancel needs a Content-Length header"));
  EXPECT_THAT(reply, HasSubstr("Content-Length: 0"));
}

TEST_F(DashboardServerTest, TokenIsCheckedBeforeTheBody) {
  const std::string reply = RawExchange(port(),
                                        "POST /api/jobs/j-1/cancel HTTP/1.1\r\n"
                                        "Host: 127.0.0.1\r\n"
                                        "Connection: close\r\n\r\n");
  EXPECT_THAT(reply, StartsWith("HTTP/1.1 401"));
}

TEST_F(DashboardServerTest, EmptyBodyWithItsLengthReachesTheRoute) {
  testing::Reply r =
      testing::Post(port(), "/api/jobs/nope/cancel", {{"Authorization", "Bearer t0k"}});
  EXPECT_EQ(r.status, 404) << r.body;
  EXPECT_THAT(r.body, HasSubstr("nope"));
}

TEST_F(DashboardServerTest, MalformedRequestNamesMethodAndPath) {
  const std::string reply = RawExchange(port(),
                                        "POST /api/jobs/j-1/cancel HTTP/1.1\r\n"
                                        "Host: 127.0.0.1\r\n"
                                        "Authorization: Bearer t0k\r\n"
                                        "Content-Length: 10\r\n"
                                        "Connection: close\r\n\r\nabc");
  // The body is 3 bytes of the 10 promised, then nothing: the read fails after the server's read
  // timeout, and the answer says what could not be read.
  EXPECT_THAT(reply, StartsWith("HTTP/1.1 400"));
  EXPECT_THAT(reply, HasSubstr("HTTP 400 for POST /api/jobs/j-1/cancel: the request could not be "
                               "read"));
}

// Idle connections used to hold all 8 of cpp-httplib's threads, each for its 5 s read timeout,
// so the dashboard answered nobody: with 24 of them open a request is still answered.
TEST_F(DashboardServerTest, IdleConnectionsDoNotStopTheDashboard) {
  std::vector<int> idle;
  for (int i = 0; i < 24; ++i) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port()));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    idle.push_back(fd);
  }
  // One that started a request and stopped: a slow client.
  const std::string partial = "GET /api/jobs HTTP/1.1\r\nHost: x";
  EXPECT_EQ(write(idle.back(), partial.data(), partial.size()),
            static_cast<ssize_t>(partial.size()));
  const std::string reply = RawExchange(port(),
                                        "GET /api/workers HTTP/1.1\r\n"
                                        "Host: 127.0.0.1\r\n"
                                        "Connection: close\r\n\r\n",
                                        /*timeout_s=*/1);
  EXPECT_THAT(reply, StartsWith("HTTP/1.1 200"));
  for (int fd : idle) close(fd);
}

}  // namespace
}  // namespace tunefarm::tracker
