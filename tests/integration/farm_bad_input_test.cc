// Bad input to a real tracker on 127.0.0.1: each gets a clear status naming the problem, and
// nothing already stored changes.
#include <grpcpp/grpcpp.h>

#include "proto/tunefarm/v1/worker.grpc.pb.h"
#include "tests/integration/farm_fixture.h"

namespace tunefarm::integration {
namespace {

class FarmBadInputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    tracker::TrackerServerOptions options = Farm::FastOptions();
    options.jobs.max_trials = 1000;
    farm_.StartTracker(options);
    // Something stored already, which no bad request may change.
    worker_ = farm_.StartWorker("cpu-bad");
    ASSERT_TRUE(farm_.WaitForWorkers("cpu-bad", 1));
    auto job = farm_.Client()->SubmitJob(SmallJob("cpu-bad", 3));
    ASSERT_TRUE(job.ok()) << job.status();
    ASSERT_EQ(farm_.WaitForJob(job->id).state, farm_api::JobState::kSucceeded);
    records_before_ = RecordCount();
    jobs_before_ = JobCount();
  }

  void TearDown() override {
    EXPECT_EQ(RecordCount(), records_before_);
    EXPECT_EQ(JobCount(), jobs_before_);
  }

  int64_t RecordCount() {
    auto store = tuner::RecordStore::Open(farm_.db());
    return store.ok() ? (*store)->RecordCount().value_or(-1) : -1;
  }
  size_t JobCount() {
    auto jobs = farm_.Client()->ListJobs(true, 1000);
    return jobs.ok() ? jobs->size() : 0;
  }

  // The submit fails with `code` and a message containing `needle`.
  void ExpectRefused(const farm_api::JobSpec& spec, absl::StatusCode code,
                     const std::string& needle) {
    absl::StatusOr<farm_api::JobStatus> job = farm_.Client()->SubmitJob(spec);
    ASSERT_FALSE(job.ok()) << "accepted: " << job->id;
    EXPECT_EQ(job.status().code(), code) << job.status();
    EXPECT_NE(job.status().message().find(needle), std::string::npos) << job.status();
  }

  Farm farm_{"bad_input", "s3cret-token"};
  ChildProcess worker_;
  int64_t records_before_ = 0;
  size_t jobs_before_ = 0;
};

TEST_F(FarmBadInputTest, UnknownWorkloadNamesTheKnownTemplates) {
  farm_api::JobSpec spec = SmallJob("cpu-bad", 4);
  spec.workload = "convolution9d:1,2,3";
  ExpectRefused(spec, absl::StatusCode::kInvalidArgument, "unknown template 'convolution9d'");
}

TEST_F(FarmBadInputTest, MalformedScriptReportsLineAndColumn) {
  farm_api::JobSpec spec = SmallJob("cpu-bad", 4);
  spec.workload.clear();
  spec.script_name = "broken.te";
  spec.script_source =
      "n = var(\"n\")\nA = placeholder((n, n), name=\"A\")\nB = compute((n,), lambda i: A[i, ])\n";
  spec.bindings = {{"n", 16}};
  ExpectRefused(spec, absl::StatusCode::kInvalidArgument, "broken.te:3:");
}

TEST_F(FarmBadInputTest, TrialCountsOutOfRange) {
  farm_api::JobSpec spec = SmallJob("cpu-bad", 0);
  ExpectRefused(spec, absl::StatusCode::kInvalidArgument, "trials");
  spec.trials = 1000000000;
  ExpectRefused(spec, absl::StatusCode::kInvalidArgument, "trials");
}

TEST_F(FarmBadInputTest, WrongTokenIsUnauthenticatedOnEveryService) {
  auto intruder = farm_.Client("not-the-token");
  absl::StatusOr<farm_api::JobStatus> job = intruder->SubmitJob(SmallJob("cpu-bad", 4));
  EXPECT_EQ(job.status().code(), absl::StatusCode::kUnauthenticated) << job.status();
  EXPECT_EQ(intruder->ListWorkers("").status().code(), absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(farm_.Client("")->ListJobs(true, 10).status().code(),
            absl::StatusCode::kUnauthenticated);

  // A worker with the wrong token is refused too.
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_ENABLE_HTTP_PROXY, 0);
  auto stub = v1::WorkerService::NewStub(
      grpc::CreateCustomChannel(farm_.address(), grpc::InsecureChannelCredentials(), args));
  grpc::ClientContext ctx;
  ctx.AddMetadata("authorization", "Bearer wrong");
  auto stream = stub->Connect(&ctx);
  v1::WorkerMessage hello;
  hello.mutable_register_()->set_device_key("cpu-bad");
  stream->Write(hello);
  stream->WritesDone();
  v1::TrackerMessage reply;
  while (stream->Read(&reply)) {
  }
  EXPECT_EQ(stream->Finish().error_code(), grpc::StatusCode::UNAUTHENTICATED);
}

TEST_F(FarmBadInputTest, WorkerStreamMustStartWithRegister) {
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_ENABLE_HTTP_PROXY, 0);
  auto stub = v1::WorkerService::NewStub(
      grpc::CreateCustomChannel(farm_.address(), grpc::InsecureChannelCredentials(), args));
  grpc::ClientContext ctx;
  ctx.AddMetadata("authorization", "Bearer s3cret-token");
  auto stream = stub->Connect(&ctx);
  v1::WorkerMessage heartbeat;
  heartbeat.mutable_heartbeat()->set_sent_ms(1);
  stream->Write(heartbeat);
  stream->WritesDone();
  v1::TrackerMessage reply;
  while (stream->Read(&reply)) {
  }
  grpc::Status status = stream->Finish();
  EXPECT_NE(status.error_code(), grpc::StatusCode::OK);
  EXPECT_NE(status.error_message().find("register"), std::string::npos) << status.error_message();
}

TEST_F(FarmBadInputTest, UnknownDeviceKeyWaitsAndSaysSo) {
  auto client = farm_.Client();
  absl::StatusOr<farm_api::JobStatus> job = client->SubmitJob(SmallJob("rasp4b-nowhere", 4));
  ASSERT_TRUE(job.ok()) << job.status();
  farm_api::JobStatus seen;
  auto deadline = Farm::Deadline(30);
  while (std::chrono::steady_clock::now() < deadline) {
    seen = *client->GetJob(job->id);
    if (seen.message.find("no worker with device key 'rasp4b-nowhere'") != std::string::npos) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_NE(seen.message.find("no worker with device key 'rasp4b-nowhere'"), std::string::npos)
      << seen.message;
  EXPECT_FALSE(farm_api::IsFinished(seen.state));
  ASSERT_TRUE(client->CancelJob(job->id).ok());
  EXPECT_EQ(farm_.WaitForJob(job->id).state, farm_api::JobState::kCancelled);
  ++jobs_before_;  // the waiting job itself is stored, and nothing else changed
}

}  // namespace
}  // namespace tunefarm::integration

namespace tunefarm::integration {
namespace {

TEST(FarmLimitsTest, OversizedLibrariesAreBuildErrorsNamingTheLimit) {
  Farm farm("artifact_limit");
  tracker::TrackerServerOptions options = Farm::FastOptions();
  options.jobs.max_artifact_bytes = 1024;  // no shared library is this small
  farm.StartTracker(options);
  ChildProcess worker = farm.StartWorker("cpu-limit", /*builds=*/false);  // libraries travel
  ASSERT_TRUE(farm.WaitForWorkers("cpu-limit", 1));
  absl::StatusOr<farm_api::JobStatus> job = farm.Client()->SubmitJob(SmallJob("cpu-limit", 3));
  ASSERT_TRUE(job.ok()) << job.status();
  farm_api::JobStatus done = farm.WaitForJob(job->id);
  // Nothing ran, so nothing is published: the job failed, saying why.
  EXPECT_EQ(done.state, farm_api::JobState::kFailed) << done.message;
  EXPECT_NE(done.message.find("no trial succeeded: 3 of 3 ended build_error"), std::string::npos)
      << done.message;
  EXPECT_NE(done.message.find("over the limit of 1024 bytes"), std::string::npos) << done.message;
  std::vector<tuner::Record> records = farm.JobRecords(job->id);
  ASSERT_EQ(records.size(), 3u);
  for (const tuner::Record& r : records) {
    EXPECT_EQ(r.error_kind, tuner::ErrorKind::kBuildError);
    EXPECT_NE(r.error_message.find("over the limit of 1024 bytes"), std::string::npos)
        << r.error_message;
  }
  auto workers = farm.Client()->ListWorkers("cpu-limit");
  ASSERT_TRUE(workers.ok());
  EXPECT_EQ((*workers)[0].measured, 0) << "nothing oversized reaches a worker";
}

}  // namespace
}  // namespace tunefarm::integration
