// Hostile or mistaken requests to a tracker on loopback (issue 18, items 4 and 8): each is refused
// with INVALID_ARGUMENT naming the field, its value and what is allowed, at once, and nothing is
// queued. A numbers check that came too late let inf make every lease expire at once; a message
// that echoed a 40 KB key never reached the client.
#include <chrono>
#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>
#include <string>
#include <unistd.h>

#include "grpcpp/grpcpp.h"
#include "tests/unit/tracker/service/stream_worker.h"
#include "tracker/service/tracker_server.h"

namespace tunefarm::tracker {
namespace {

using ::testing::HasSubstr;
using testing::LoopbackChannel;
using testing::SetToken;

constexpr char kToken[] = "tok-err";

class FarmRequestErrorsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("tf_request_errors_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    TrackerServerOptions options;
    options.listen = "127.0.0.1:0";
    options.db_path = (dir_ / "farm.db").string();
    options.token = kToken;
    options.tick_interval_ms = 50;
    options.jobs.build_parallelism = 1;
    auto server = TrackerServer::Start(options);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = std::move(*server);
    channel_ = LoopbackChannel(server_->address());
    client_ = v1::TrackerService::NewStub(channel_);
  }
  void TearDown() override {
    server_.reset();
    std::filesystem::remove_all(dir_);
  }

  static v1::SubmitJobRequest Job() {
    v1::SubmitJobRequest request;
    request.set_workload("matmul:16,16,16");
    request.set_device_key("pi");
    request.set_trials(4);
    return request;
  }
  grpc::Status Submit(const v1::SubmitJobRequest& request) {
    grpc::ClientContext context;
    SetToken(context, kToken, 30);
    v1::Job job;
    return client_->SubmitJob(&context, request, &job);
  }
  size_t Jobs() {
    grpc::ClientContext context;
    SetToken(context, kToken, 10);
    v1::ListJobsRequest request;
    request.set_include_finished(true);
    v1::ListJobsResponse response;
    EXPECT_TRUE(client_->ListJobs(&context, request, &response).ok());
    return response.jobs_size();
  }

  std::filesystem::path dir_;
  std::unique_ptr<TrackerServer> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::TrackerService::Stub> client_;
};

TEST_F(FarmRequestErrorsTest, NonFiniteOrHugeMeasureNumbers) {
  v1::SubmitJobRequest request = Job();
  request.mutable_measure()->set_run_timeout_s(std::numeric_limits<double>::infinity());
  grpc::Status s = Submit(request);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(),
            "measure.run_timeout_s must be a finite number in (0, 86400] s, got inf");

  request = Job();
  request.mutable_measure()->set_run_timeout_s(1e300);
  EXPECT_THAT(Submit(request).error_message(), HasSubstr("measure.run_timeout_s"));

  request = Job();
  request.mutable_measure()->set_min_repeat_ms(1e300);
  s = Submit(request);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(),
            "measure.min_repeat_ms must be a finite number in [0, 60000] ms, got 1e+300");

  request = Job();
  request.mutable_measure()->set_cooldown_ms(1e9);
  EXPECT_THAT(Submit(request).error_message(),
              HasSubstr("measure.cooldown_ms must be a finite number in [0, 60000] ms"));
  EXPECT_EQ(Jobs(), 0u);
}

TEST_F(FarmRequestErrorsTest, HugeScriptBindingIsRefusedAtOnce) {
  v1::SubmitJobRequest request = Job();
  request.clear_workload();
  request.set_script_name("vec.te");
  request.set_script_source(R"(n = var("n")
A = placeholder((n,), name="A")
B = compute((n,), lambda i: A[i] * 2.0, name="B")
s = create_schedule(B)
cfg.define_split("tile", B.op.axis[0], num_outputs=2)
args = [A, B]
)");
  (*request.mutable_bindings())["n"] = (int64_t{1} << 61) - 1;
  const auto start = std::chrono::steady_clock::now();
  grpc::Status s = Submit(request);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("binding n=2305843009213693951 is outside [1, "
                                           "2147483647]"));
  EXPECT_EQ(Jobs(), 0u);
}

TEST_F(FarmRequestErrorsTest, UnknownDtypeOfAScriptJob) {
  v1::SubmitJobRequest request = Job();
  request.clear_workload();
  request.set_script_source("A = placeholder((4,), name=\"A\")\n");
  request.set_dtype("float99");
  grpc::Status s = Submit(request);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("dtype 'float99' is not a known element type; known: "
                                           "bool, int8"));
}

TEST_F(FarmRequestErrorsTest, FortyKilobyteWorkloadKeyGetsARealError) {
  const std::string key = "matmul:" + std::string(40 * 1024, '1');
  v1::SubmitJobRequest request = Job();
  request.set_workload(key);
  grpc::Status s = Submit(request);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_message();
  EXPECT_THAT(s.error_message(), HasSubstr("over the limit of 1024"));

  grpc::ClientContext context;
  SetToken(context, kToken, 10);
  v1::QueryBestRequest query;
  query.set_workload(key);
  v1::QueryBestResponse best;
  s = client_->QueryBest(&context, query, &best);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_message();
  EXPECT_THAT(s.error_message(), HasSubstr("bad workload key 'matmul:111"));
  EXPECT_LT(s.error_message().size(), 400u);
}

TEST_F(FarmRequestErrorsTest, SessionWaitOfAnAstronomicalNumberOfSeconds) {
  auto sessions = v1::SessionService::NewStub(channel_);
  grpc::ClientContext context;
  SetToken(context, kToken, 10);
  v1::OpenSessionRequest request;
  request.set_device_key("pi");
  request.set_wait_s(1e300);
  v1::OpenSessionResponse response;
  grpc::Status s = sessions->OpenSession(&context, request, &response);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(), "wait_s must be a finite number in [0, 86400] s, got 1e+300");
}

}  // namespace
}  // namespace tunefarm::tracker
