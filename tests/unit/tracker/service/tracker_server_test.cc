// The whole tracker on loopback: TrackerServer with its database, a raw-gRPC worker that
// answers leases with outcomes it chooses, and a client on the TrackerService API.
#include "tracker/service/tracker_server.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <gtest/gtest.h>
#include <thread>
#include <unistd.h>

#include "grpcpp/grpcpp.h"
#include "tests/unit/tracker/service/stream_worker.h"

namespace tunefarm::tracker {
namespace {

using testing::LoopbackChannel;
using testing::SetToken;
using testing::StreamWorker;

constexpr char kServerToken[] = "tok-123";

std::string TempDb(const std::string& name) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("tf_service_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::filesystem::path path = dir / name;
  std::filesystem::remove(path);
  return path.string();
}

class TrackerServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    TrackerServerOptions& options = options_;
    options.listen = "127.0.0.1:0";
    options.db_path = TempDb(
        std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + ".db");
    options.token = kServerToken;
    options.tick_interval_ms = 50;
    options.heartbeat_interval_ms = 500;
    options.jobs.build_parallelism = 1;
    auto server = TrackerServer::Start(options);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = std::move(*server);
    channel_ = LoopbackChannel(server_->address());
    client_ = v1::TrackerService::NewStub(channel_);
  }

  grpc::Status Submit(const v1::SubmitJobRequest& request, v1::Job* job) {
    grpc::ClientContext context;
    SetToken(context, kServerToken, 30);
    return client_->SubmitJob(&context, request, job);
  }
  std::vector<v1::Job> AllJobs() {
    grpc::ClientContext context;
    SetToken(context, kServerToken, 10);
    v1::ListJobsRequest request;
    request.set_include_finished(true);
    v1::ListJobsResponse response;
    EXPECT_TRUE(client_->ListJobs(&context, request, &response).ok());
    return {response.jobs().begin(), response.jobs().end()};
  }

  // Stops the tracker and starts another on the same database (a new port).
  void Restart() {
    server_.reset();
    auto server = TrackerServer::Start(options_);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = std::move(*server);
    channel_ = LoopbackChannel(server_->address());
    client_ = v1::TrackerService::NewStub(channel_);
  }

  TrackerServerOptions options_;
  std::unique_ptr<TrackerServer> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::TrackerService::Stub> client_;
};

TEST_F(TrackerServerTest, WrongTokenIsUnauthenticatedOnEveryService) {
  for (const std::string& token : {std::string(""), std::string("tok-124")}) {
    grpc::ClientContext c1;
    SetToken(c1, token, 10);
    v1::ListWorkersResponse workers;
    grpc::Status s = client_->ListWorkers(&c1, v1::ListWorkersRequest(), &workers);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAUTHENTICATED);
    EXPECT_EQ(s.error_message(), "missing or wrong token");

    auto sessions = v1::SessionService::NewStub(channel_);
    grpc::ClientContext c2;
    SetToken(c2, token, 10);
    v1::OpenSessionRequest open;
    open.set_device_key("pi");
    v1::OpenSessionResponse opened;
    EXPECT_EQ(sessions->OpenSession(&c2, open, &opened).error_code(),
              grpc::StatusCode::UNAUTHENTICATED);

    StreamWorker worker(channel_, token);
    EXPECT_FALSE(worker.Register("pi").has_value());
    EXPECT_EQ(worker.Status().error_code(), grpc::StatusCode::UNAUTHENTICATED);
  }
  EXPECT_TRUE(server_->dispatcher().Workers().empty());
}

TEST_F(TrackerServerTest, SubmitJobRejectsBadInputAndStoresNothing) {
  v1::SubmitJobRequest unknown;
  unknown.set_workload("nosuchop:1,2,3");
  unknown.set_device_key("pi");
  unknown.set_trials(4);
  v1::SubmitJobRequest zero_trials;
  zero_trials.set_workload("matmul:16,16,16");
  zero_trials.set_device_key("pi");
  v1::SubmitJobRequest bad_script;
  bad_script.set_script_source("A = placeholder((n, n)\n");
  bad_script.set_script_name("broken.te");
  bad_script.set_device_key("pi");
  bad_script.set_trials(4);
  v1::SubmitJobRequest both;
  both.set_workload("matmul:16,16,16");
  both.set_script_source("x");
  both.set_device_key("pi");
  both.set_trials(4);
  for (const v1::SubmitJobRequest& request : {unknown, zero_trials, bad_script, both}) {
    v1::Job job;
    grpc::Status status = Submit(request, &job);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << request.DebugString();
    EXPECT_FALSE(status.error_message().empty());
  }
  EXPECT_TRUE(AllJobs().empty());
}

TEST_F(TrackerServerTest, StartRejectsBadOptions) {
  TrackerServerOptions no_db;
  no_db.listen = "127.0.0.1:0";
  EXPECT_EQ(TrackerServer::Start(no_db).status().code(), absl::StatusCode::kInvalidArgument);
  TrackerServerOptions tls;
  tls.listen = "127.0.0.1:0";
  tls.db_path = TempDb("tls.db");
  tls.tls_cert_file = "/nonexistent/cert.pem";
  tls.tls_key_file = "/nonexistent/key.pem";
  auto s = TrackerServer::Start(tls).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("/nonexistent/cert.pem"), std::string::npos) << s;
  TrackerServerOptions taken;
  taken.listen = server_->address();  // already bound by the fixture's server
  taken.db_path = TempDb("taken.db");
  s = TrackerServer::Start(taken).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable) << s;
  EXPECT_NE(s.message().find("cannot listen on"), std::string::npos) << s;
}

TEST_F(TrackerServerTest, JobWithoutWorkersWaitsAndCanBeCancelled) {
  v1::SubmitJobRequest request;
  request.set_workload("matmul:16,16,16");
  request.set_device_key("nobody-has-this");
  request.set_trials(2);
  request.set_tuner("random");
  v1::Job job;
  ASSERT_TRUE(Submit(request, &job).ok());
  EXPECT_FALSE(job.id().empty());
  EXPECT_TRUE(job.state() == v1::JOB_STATE_QUEUED || job.state() == v1::JOB_STATE_RUNNING);
  {
    grpc::ClientContext context;
    SetToken(context, kServerToken, 10);
    v1::CancelJobRequest cancel;
    cancel.set_id(job.id());
    v1::Job cancelled;
    ASSERT_TRUE(client_->CancelJob(&context, cancel, &cancelled).ok());
    EXPECT_EQ(cancelled.state(), v1::JOB_STATE_CANCELLED);
  }
  {
    grpc::ClientContext context;
    SetToken(context, kServerToken, 10);
    v1::GetJobRequest get;
    get.set_id(job.id());
    v1::Job got;
    ASSERT_TRUE(client_->GetJob(&context, get, &got).ok());
    EXPECT_EQ(got.state(), v1::JOB_STATE_CANCELLED);
    EXPECT_EQ(got.trials_done(), 0);
  }
  {
    grpc::ClientContext context;
    SetToken(context, kServerToken, 10);
    v1::GetJobRequest get;
    get.set_id("job-does-not-exist");
    v1::Job got;
    EXPECT_EQ(client_->GetJob(&context, get, &got).error_code(), grpc::StatusCode::NOT_FOUND);
  }
  // Unfinished only: the cancelled job is not listed; with finished ones it is.
  grpc::ClientContext context;
  SetToken(context, kServerToken, 10);
  v1::ListJobsResponse unfinished;
  ASSERT_TRUE(client_->ListJobs(&context, v1::ListJobsRequest(), &unfinished).ok());
  EXPECT_EQ(unfinished.jobs_size(), 0);
  EXPECT_EQ(AllJobs().size(), 1u);
}

TEST_F(TrackerServerTest, ALeaseOfARestartedTrackerNeverHasTheIdOfAnEarlierOnesLease) {
  v1::SubmitJobRequest request;
  request.set_workload("matmul:16,16,16");
  request.set_device_key("fake-pi");
  request.set_trials(2);
  request.set_batch_size(1);
  request.set_tuner("random");
  v1::Job job;
  ASSERT_TRUE(Submit(request, &job).ok());
  int64_t before_restart = 0;
  {
    StreamWorker worker(channel_, kServerToken);
    ASSERT_TRUE(worker.Register("fake-pi").has_value());
    std::optional<v1::Lease> lease = worker.NextLease();
    ASSERT_TRUE(lease.has_value());
    before_restart = lease->lease_id();
    worker.Drop();  // the tracker dies before the result reaches it
  }
  Restart();
  // The worker reconnects and still holds that result; the job resumes with a new lease, which
  // that result must not complete (it is another candidate's, or another job's).
  StreamWorker worker(channel_, kServerToken);
  ASSERT_TRUE(worker.Register("fake-pi").has_value());
  std::optional<v1::Lease> lease = worker.NextLease();
  ASSERT_TRUE(lease.has_value());
  EXPECT_NE(lease->lease_id(), before_restart);
  EXPECT_GT(lease->lease_id(), before_restart);
}

// A worker thread answering every lease ok with a time that depends on the library, until the
// stream ends.
class AnsweringWorker {
 public:
  AnsweringWorker(const std::shared_ptr<grpc::Channel>& channel, const std::string& key)
      : worker_(channel, kServerToken, 60) {
    id_ = worker_.Register(key, "answering").value_or("");
    thread_ = std::thread([this] {
      while (auto lease = worker_.NextLease()) {
        double t = 1e-3 * (1 + static_cast<double>(lease->library().sha256()[0] % 7));
        worker_.Answer(lease->lease_id(), "ok", {t, t});
        answered_++;
      }
    });
  }
  ~AnsweringWorker() {
    worker_.Drop();
    thread_.join();
  }
  const std::string& id() const { return id_; }
  int answered() const { return answered_.load(); }

 private:
  StreamWorker worker_;
  std::string id_;
  std::thread thread_;
  std::atomic<int> answered_{0};
};

TEST_F(TrackerServerTest, JobRunsOnAStreamWorkerAndRecordsRoundTrip) {
  AnsweringWorker worker(channel_, "fake-pi");
  ASSERT_FALSE(worker.id().empty());
  {
    grpc::ClientContext context;
    SetToken(context, kServerToken, 10);
    v1::ListWorkersRequest request;
    request.set_device_key("fake-pi");
    v1::ListWorkersResponse response;
    ASSERT_TRUE(client_->ListWorkers(&context, request, &response).ok());
    ASSERT_EQ(response.workers_size(), 1);
    EXPECT_EQ(response.workers(0).worker_id(), worker.id());
    EXPECT_EQ(response.workers(0).device_key(), "fake-pi");
  }
  v1::SubmitJobRequest request;
  request.set_workload("matmul:16,16,16");
  request.set_device_key("fake-pi");
  request.set_trials(4);
  request.set_batch_size(2);
  request.set_tuner("random");
  v1::Job job;
  grpc::Status submitted = Submit(request, &job);
  ASSERT_TRUE(submitted.ok()) << submitted.error_message();

  // WatchJob streams progress until the job ends.
  grpc::ClientContext watch_context;
  SetToken(watch_context, kServerToken, 60);
  v1::WatchJobRequest watch;
  watch.set_id(job.id());
  auto reader = client_->WatchJob(&watch_context, watch);
  v1::JobEvent event, last;
  int events = 0;
  while (reader->Read(&event)) {
    last = event;
    events++;
  }
  ASSERT_TRUE(reader->Finish().ok());
  ASSERT_GE(events, 1);
  EXPECT_EQ(last.job().state(), v1::JOB_STATE_SUCCEEDED) << last.DebugString();
  EXPECT_EQ(last.job().trials_done(), 4);
  EXPECT_GT(last.job().best_seconds(), 0);
  EXPECT_EQ(worker.answered(), 4);

  // QueryBest: one best per (target, device key); a malformed key is INVALID_ARGUMENT.
  {
    grpc::ClientContext context;
    SetToken(context, kServerToken, 10);
    v1::QueryBestRequest query;
    query.set_workload("matmul:16,16,16");
    v1::QueryBestResponse best;
    ASSERT_TRUE(client_->QueryBest(&context, query, &best).ok());
    ASSERT_EQ(best.best_size(), 1);
    EXPECT_EQ(best.best(0).device_key(), "fake-pi");
    EXPECT_FALSE(best.best(0).measured_by().empty());
    EXPECT_DOUBLE_EQ(best.best(0).median_seconds(), last.job().best_seconds());
    grpc::ClientContext bad_context;
    SetToken(bad_context, kServerToken, 10);
    query.set_workload("matmul::::");
    EXPECT_EQ(client_->QueryBest(&bad_context, query, &best).error_code(),
              grpc::StatusCode::INVALID_ARGUMENT);
  }
  {
    grpc::ClientContext context;
    SetToken(context, kServerToken, 10);
    v1::ListRecordsRequest list;
    list.set_job_id(job.id());
    list.set_limit(3);
    v1::ListRecordsResponse records;
    ASSERT_TRUE(client_->ListRecords(&context, list, &records).ok());
    ASSERT_EQ(records.records_size(), 3);
    EXPECT_GE(records.records(0).timestamp_ms(), records.records(2).timestamp_ms());
  }
  // Export, then import the lines back: doubles the records; a bad line imports nothing.
  std::string exported;
  {
    grpc::ClientContext context;
    SetToken(context, kServerToken, 10);
    auto lines = client_->ExportRecords(&context, v1::ExportRecordsRequest());
    v1::RecordLines chunk;
    while (lines->Read(&chunk)) exported += chunk.lines();
    ASSERT_TRUE(lines->Finish().ok());
  }
  EXPECT_EQ(std::count(exported.begin(), exported.end(), '\n'), 4);
  // Sent in chunks of `chunk_bytes` cut anywhere, the last one marked unless `mark_last` is off.
  auto import = [&](const std::string& text, v1::ImportRecordsResponse* response,
                    size_t chunk_bytes = 1 << 20, bool mark_last = true) {
    grpc::ClientContext context;
    SetToken(context, kServerToken, 10);
    auto writer = client_->ImportRecords(&context, response);
    for (size_t pos = 0; pos < text.size() || pos == 0; pos += chunk_bytes) {
      v1::RecordLines chunk;
      chunk.set_lines(text.substr(pos, chunk_bytes));
      chunk.set_last(mark_last && pos + chunk_bytes >= text.size());
      if (!writer->Write(chunk)) break;
    }
    writer->WritesDone();
    return writer->Finish();
  };
  v1::ImportRecordsResponse imported;
  grpc::Status bad = import(exported + "{\"not\": \"a record\"}\n", &imported);
  EXPECT_EQ(bad.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(bad.error_message().find("5"), std::string::npos) << bad.error_message();
  // A config nested 100,000 deep (it used to overflow the stack printing it): refused, named.
  const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
  std::string hostile = exported.substr(0, exported.find('\n'));
  hostile.replace(hostile.find("\"config\":{") + 9, 0, "{\"k\":" + deep + "},\"x\":");
  bad = import(hostile + "\n", &imported);
  EXPECT_EQ(bad.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(bad.error_message().find("nested deeper"), std::string::npos) << bad.error_message();
  // A stream that ends without its last chunk (cut short, or a message that did not decode).
  bad = import(exported, &imported, 1 << 20, /*mark_last=*/false);
  EXPECT_EQ(bad.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(bad.error_message().find("last"), std::string::npos) << bad.error_message();
  // Chunks cut inside lines are joined again.
  ASSERT_TRUE(import(exported, &imported, 7).ok());
  EXPECT_EQ(imported.imported(), 4);
  {
    grpc::ClientContext context;
    SetToken(context, kServerToken, 10);
    v1::ListRecordsRequest list;
    list.set_job_id(job.id());
    v1::ListRecordsResponse records;
    ASSERT_TRUE(client_->ListRecords(&context, list, &records).ok());
    EXPECT_EQ(records.records_size(), 8);
  }
}

}  // namespace
}  // namespace tunefarm::tracker
