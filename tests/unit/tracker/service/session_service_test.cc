// SessionService's edge: numbers and ids from the wire are checked (and quoted short) before a
// session is looked up, a worker reserved or a deadline computed.
#include "tracker/service/session_service.h"

#include <chrono>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "grpcpp/grpcpp.h"
#include "tests/unit/tracker/service/stream_worker.h"
#include "tracker/service/worker_links.h"

namespace tunefarm::tracker {
namespace {

using ::testing::HasSubstr;
using testing::LoopbackChannel;
using testing::SetToken;

constexpr char kSessionToken[] = "s3cret";

class SessionServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dispatcher_ = std::make_unique<Dispatcher>(DispatcherOptions{});
    SessionServiceOptions options;
    options.token = kSessionToken;
    options.max_waiting_calls = 2;
    sessions_ = std::make_unique<SessionService>(*dispatcher_, links_, options);
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    builder.RegisterService(sessions_.get());
    server_ = builder.BuildAndStart();
    ASSERT_TRUE(server_ != nullptr);
    stub_ = v1::SessionService::NewStub(LoopbackChannel("127.0.0.1:" + std::to_string(port_)));
  }
  void TearDown() override {
    sessions_->Shutdown();
    server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
    server_->Wait();
  }

  grpc::Status Open(const v1::OpenSessionRequest& request) {
    grpc::ClientContext context;
    SetToken(context, kSessionToken, 10);
    v1::OpenSessionResponse response;
    return stub_->OpenSession(&context, request, &response);
  }

  std::unique_ptr<Dispatcher> dispatcher_;
  WorkerLinks links_;
  std::unique_ptr<SessionService> sessions_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::SessionService::Stub> stub_;
  int port_ = 0;
};

// Each waiting OpenSession holds a server thread: past the limit the next is refused at once,
// rather than the thread pool running dry for every other call.
TEST_F(SessionServiceTest, WaitingCallsBeyondTheLimitAreResourceExhausted) {
  v1::OpenSessionRequest request;
  request.set_device_key("nobody-has-this-key");
  request.set_wait_s(60);
  std::vector<std::thread> waiting;
  std::vector<grpc::Status> waited(2);
  for (int i = 0; i < 2; ++i) waiting.emplace_back([&, i] { waited[i] = Open(request); });
  for (int i = 0; i < 1000 && sessions_->waiting_calls() < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(sessions_->waiting_calls(), 2);
  v1::OpenSessionRequest quick = request;
  quick.set_wait_s(0);
  grpc::Status refused = Open(quick);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(refused.error_message(), HasSubstr("2 session calls waiting"));
  // Shutting down releases the waiters, and their places with them.
  sessions_->Shutdown();
  for (std::thread& t : waiting) t.join();
  for (const grpc::Status& s : waited) EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(sessions_->waiting_calls(), 0);
}

// 1e300 s used to overflow the deadline: "no idle worker ... within -9223372036854775808 s".
TEST_F(SessionServiceTest, OpenSessionRefusesNonFiniteOrHugeWaits) {
  v1::OpenSessionRequest request;
  request.set_device_key("pi");
  request.set_wait_s(1e300);
  const auto start = std::chrono::steady_clock::now();
  grpc::Status s = Open(request);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(), "wait_s must be a finite number in [0, 86400] s, got 1e+300");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));

  request.set_wait_s(0.1);
  request.set_idle_timeout_s(std::numeric_limits<double>::infinity());
  s = Open(request);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(), "idle_timeout_s must be a finite number in [0, 86400] s, got inf");

  // In range, no worker: the wait is the one asked for and the message says so.
  request.set_idle_timeout_s(0);
  s = Open(request);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(s.error_message(), HasSubstr("no idle worker with device key 'pi' within 0.1 s"));
}

// cooldown_ms=1e300 reached the worker and silently became 0 there (or blocked it).
TEST_F(SessionServiceTest, TimeFunctionRefusesBadOptionsBeforeRelaying) {
  for (auto [field, value] : {std::pair{"cooldown_ms", 1e300}, std::pair{"min_repeat_ms", -1.0}}) {
    grpc::ClientContext context;
    SetToken(context, kSessionToken, 10);
    v1::TimeFunctionRequest request;
    request.set_session_id("s-1");
    if (std::string(field) == "cooldown_ms") {
      request.mutable_options()->set_cooldown_ms(value);
    } else {
      request.mutable_options()->set_min_repeat_ms(value);
    }
    v1::TimeFunctionResponse response;
    grpc::Status s = stub_->TimeFunction(&context, request, &response);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << field;
    EXPECT_THAT(s.error_message(), HasSubstr(std::string("options.") + field +
                                             " must be a finite number in [0, 60000] ms"));
  }
}

TEST_F(SessionServiceTest, TimeFunctionChecksTheTokenFirst) {
  grpc::ClientContext context;
  v1::TimeFunctionRequest request;
  request.mutable_options()->set_cooldown_ms(1e300);
  v1::TimeFunctionResponse response;
  EXPECT_EQ(stub_->TimeFunction(&context, request, &response).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
}

// A 40 KB id echoed whole came back as "received initial metadata size exceeds limit".
TEST_F(SessionServiceTest, UnknownLongSessionIdIsQuotedShort) {
  grpc::ClientContext context;
  SetToken(context, kSessionToken, 10);
  v1::CloseSessionRequest request;
  request.set_session_id(std::string(40 * 1024, 's'));
  v1::CloseSessionResponse response;
  grpc::Status s = stub_->CloseSession(&context, request, &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_THAT(s.error_message(), HasSubstr("unknown session 'sss"));
  EXPECT_THAT(s.error_message(), HasSubstr("... (40960 bytes)"));
}

}  // namespace
}  // namespace tunefarm::tracker
