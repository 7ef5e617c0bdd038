// The worker stream and the session relay on loopback: raw gRPC workers against a real
// Dispatcher, WorkerLinks, WorkerService and SessionService.
#include "tracker/service/worker_service.h"

#include <condition_variable>
#include <future>
#include <gtest/gtest.h>
#include <mutex>
#include <thread>

#include "grpcpp/grpcpp.h"
#include "runtime/measure/sha256.h"
#include "tests/testing/fake_clock.h"
#include "tests/unit/tracker/service/stream_worker.h"
#include "tracker/service/session_service.h"
#include "tracker/service/worker_links.h"

namespace tunefarm::tracker {
namespace {

using runtime::measure::Sha256Hex;
using testing::LoopbackChannel;
using testing::SetToken;
using testing::StreamWorker;

constexpr char kToken[] = "s3cret";

Artifact MakeArtifact(const std::string& bytes, const std::string& name) {
  return Artifact{Sha256Hex(bytes), std::make_shared<const std::string>(bytes), name};
}

class WorkerServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dispatcher_ = std::make_unique<Dispatcher>(DispatcherOptions{});
    WorkerServiceOptions options;
    options.token = kToken;
    options.heartbeat_interval_ms = 1234;
    options.heartbeat_timeout_ms = 5678;
    options.clock = &clock_;
    workers_ = std::make_unique<WorkerService>(*dispatcher_, links_, options);
    SessionServiceOptions session_options;
    session_options.token = kToken;
    sessions_ = std::make_unique<SessionService>(*dispatcher_, links_, session_options);
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    builder.RegisterService(workers_.get());
    builder.RegisterService(sessions_.get());
    server_ = builder.BuildAndStart();
    ASSERT_TRUE(server_ != nullptr);
    channel_ = LoopbackChannel("127.0.0.1:" + std::to_string(port_));
  }
  void TearDown() override {
    sessions_->Shutdown();
    server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
    server_->Wait();
  }

  MeasureWork Work(const std::string& job, const std::string& library_bytes,
                   const std::string& reference_bytes = "") {
    MeasureWork w;
    w.job_id = job;
    w.device_key = "pi";
    w.library = MakeArtifact(library_bytes, "candidate.so");
    w.function_name = "kernel";
    if (!reference_bytes.empty()) {
      w.reference = MakeArtifact(reference_bytes, "reference.so");
      w.reference_function = "reference";
      w.reference_key = "ref-" + job;
    }
    w.bindings["n"] = 64;
    w.options.run_timeout_s = 7;
    return w;
  }
  // Queues `work`, delivering its leases as the JobManager would; outcomes land in outcomes_.
  void Submit(MeasureWork work) {
    links_.Send(dispatcher_->Submit(
        std::move(work),
        [this](const WorkOutcome& o) {
          std::lock_guard lock(mu_);
          outcomes_.push_back(o);
          cv_.notify_all();
        },
        NowMs()));
  }
  std::vector<WorkOutcome> WaitOutcomes(size_t n) {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, std::chrono::seconds(20), [&] { return outcomes_.size() >= n; });
    return outcomes_;
  }
  static int64_t SystemNowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
  int64_t NowMs() const { return clock_.NowMs(); }
  int64_t SetUpMs() const { return set_up_ms_; }
  // Waits (bounded) until the dispatcher has seen the only worker's heartbeat of `ms`.
  bool WaitHeartbeat(int64_t ms) {
    for (int i = 0; i < 2000; ++i) {
      std::vector<farm_api::WorkerSnapshot> snapshots = dispatcher_->Workers();
      if (snapshots.size() == 1 && snapshots[0].last_heartbeat_ms == ms) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
  }
  // Waits (bounded) until the dispatcher knows `n` workers.
  bool WaitWorkers(size_t n) {
    for (int i = 0; i < 2000; ++i) {
      if (dispatcher_->Workers().size() == n) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
  }

  // A first lease on `worker` measured, then a second whose reference library the first
  // already carried: the second names it by hash only. nullopt when a step failed.
  std::optional<v1::Lease> LeaseNamingTheReferenceByHash(StreamWorker& worker) {
    Submit(Work("job-1", "lib-a", "shared reference"));
    std::optional<v1::Lease> first = worker.NextLease();
    if (!first || !worker.Answer(first->lease_id(), "ok", {0.001})) return std::nullopt;
    if (WaitOutcomes(1).size() != 1) return std::nullopt;
    Submit(Work("job-1", "lib-b", "shared reference"));
    std::optional<v1::Lease> second = worker.NextLease();
    if (!second || !second->reference_library().bytes().empty()) return std::nullopt;
    return second;
  }

  // The stream's and the dispatcher's time: a test moves it past a lease's deadline.
  fixtures::FakeClock clock_{SystemNowMs()};
  const int64_t set_up_ms_ = clock_.NowMs();
  std::unique_ptr<Dispatcher> dispatcher_;
  WorkerLinks links_;
  std::unique_ptr<WorkerService> workers_;
  std::unique_ptr<SessionService> sessions_;
  std::unique_ptr<grpc::Server> server_;
  std::shared_ptr<grpc::Channel> channel_;
  int port_ = 0;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<WorkOutcome> outcomes_;
};

TEST_F(WorkerServiceTest, RegistersWithAnIdAndTheHeartbeatSettings) {
  StreamWorker worker(channel_, kToken);
  std::optional<std::string> id = worker.Register("pi", "board-7");
  ASSERT_TRUE(id.has_value());
  EXPECT_EQ(id->rfind("w-", 0), 0u) << *id;
  EXPECT_NE(id->find("-board-7"), std::string::npos) << *id;
  EXPECT_EQ(worker.registered().heartbeat_interval_ms(), 1234);
  EXPECT_EQ(worker.registered().heartbeat_timeout_ms(), 5678);
  ASSERT_TRUE(worker.Heartbeat());
  // Registered is written only after the dispatcher added the worker.
  std::vector<farm_api::WorkerSnapshot> snapshot = dispatcher_->Workers("pi");
  ASSERT_EQ(snapshot.size(), 1u);
  EXPECT_EQ(snapshot[0].description.worker_id, *id);
  EXPECT_EQ(snapshot[0].description.cpu_model, "test cpu");
  EXPECT_FALSE(snapshot[0].description.peer.empty());
  // A clean goodbye removes the worker.
  EXPECT_TRUE(worker.Finish().ok());
  EXPECT_TRUE(WaitWorkers(0));
}

TEST_F(WorkerServiceTest, FirstMessageMustBeRegister) {
  StreamWorker worker(channel_, kToken);
  ASSERT_TRUE(worker.Heartbeat());
  grpc::Status status = worker.Status();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(status.error_message().find("register"), std::string::npos);

  StreamWorker no_key(channel_, kToken);
  EXPECT_FALSE(no_key.Register("").has_value());
  status = no_key.Status();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(status.error_message().find("device_key"), std::string::npos);
  EXPECT_TRUE(dispatcher_->Workers().empty());
}

TEST_F(WorkerServiceTest, WrongTokenIsUnauthenticated) {
  StreamWorker worker(channel_, "not-the-token");
  EXPECT_FALSE(worker.Register("pi").has_value());
  grpc::Status status = worker.Status();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(status.error_message(), "missing or wrong token");
  StreamWorker anonymous(channel_, "");
  EXPECT_FALSE(anonymous.Register("pi").has_value());
  EXPECT_EQ(anonymous.Status().error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_TRUE(dispatcher_->Workers().empty());
}

TEST_F(WorkerServiceTest, LeaseAndResultReachTheDispatcher) {
  StreamWorker worker(channel_, kToken);
  std::optional<std::string> id = worker.Register("pi");
  ASSERT_TRUE(id.has_value());
  Submit(Work("job-1", "library bytes", "reference bytes"));
  std::optional<v1::Lease> lease = worker.NextLease();
  ASSERT_TRUE(lease.has_value());
  EXPECT_EQ(lease->job_id(), "job-1");
  EXPECT_EQ(lease->function_name(), "kernel");
  EXPECT_EQ(lease->library().bytes(), "library bytes");
  EXPECT_EQ(lease->library().sha256(), Sha256Hex("library bytes"));
  EXPECT_EQ(lease->reference_library().bytes(), "reference bytes");
  EXPECT_EQ(lease->reference_function(), "reference");
  EXPECT_EQ(lease->bindings().at("n"), 64);
  EXPECT_DOUBLE_EQ(lease->options().run_timeout_s(), 7);
  EXPECT_GT(lease->deadline_ms(), NowMs());
  ASSERT_TRUE(worker.Answer(lease->lease_id(), "ok", {0.002, 0.001, 0.003}));
  std::vector<WorkOutcome> outcomes = WaitOutcomes(1);
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_EQ(outcomes[0].error_kind, tuner::ErrorKind::kOk);
  EXPECT_EQ(outcomes[0].worker_id, *id);
  EXPECT_EQ(outcomes[0].repeat_seconds, (std::vector<double>{0.002, 0.001, 0.003}));
}

TEST_F(WorkerServiceTest, UnknownErrorKindIsRecordedAsRuntimeError) {
  StreamWorker worker(channel_, kToken);
  ASSERT_TRUE(worker.Register("pi").has_value());
  Submit(Work("job-1", "lib"));
  std::optional<v1::Lease> lease = worker.NextLease();
  ASSERT_TRUE(lease.has_value());
  ASSERT_TRUE(worker.Answer(lease->lease_id(), "exploded", {}, "boom"));
  std::vector<WorkOutcome> outcomes = WaitOutcomes(1);
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_EQ(outcomes[0].error_kind, tuner::ErrorKind::kRuntimeError);
  EXPECT_NE(outcomes[0].error_message.find("exploded"), std::string::npos);
  EXPECT_NE(outcomes[0].error_message.find("boom"), std::string::npos);
}

TEST_F(WorkerServiceTest, ArtifactBytesTravelOncePerConnection) {
  StreamWorker worker(channel_, kToken);
  ASSERT_TRUE(worker.Register("pi").has_value());
  Submit(Work("job-1", "lib-a", "shared reference"));
  Submit(Work("job-1", "lib-b", "shared reference"));
  std::optional<v1::Lease> first = worker.NextLease();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->library().bytes(), "lib-a");
  EXPECT_EQ(first->reference_library().bytes(), "shared reference");
  ASSERT_TRUE(worker.Answer(first->lease_id(), "ok", {0.001}));
  std::optional<v1::Lease> second = worker.NextLease();
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->library().bytes(), "lib-b");
  EXPECT_EQ(second->reference_library().sha256(), Sha256Hex("shared reference"));
  EXPECT_TRUE(second->reference_library().bytes().empty()) << "sent twice on one connection";
  ASSERT_TRUE(worker.Answer(second->lease_id(), "ok", {0.001}));
  ASSERT_EQ(WaitOutcomes(2).size(), 2u);
  ASSERT_TRUE(worker.Finish().ok());
  ASSERT_TRUE(WaitWorkers(0));

  // A new connection starts with an empty cache: the bytes come again.
  StreamWorker again(channel_, kToken);
  ASSERT_TRUE(again.Register("pi").has_value());
  Submit(Work("job-1", "lib-c", "shared reference"));
  std::optional<v1::Lease> third = again.NextLease();
  ASSERT_TRUE(third.has_value());
  EXPECT_EQ(third->reference_library().bytes(), "shared reference");
}

TEST_F(WorkerServiceTest, DroppedStreamRequeuesTheLeaseToAnotherWorker) {
  auto first = std::make_unique<StreamWorker>(channel_, kToken);
  ASSERT_TRUE(first->Register("pi", "first").has_value());
  Submit(Work("job-9", "the candidate"));
  std::optional<v1::Lease> lost = first->NextLease();
  ASSERT_TRUE(lost.has_value());

  StreamWorker second(channel_, kToken);
  std::optional<std::string> second_id = second.Register("pi", "second");
  ASSERT_TRUE(second_id.has_value());
  first->Drop();  // killed mid-lease
  std::optional<v1::Lease> requeued = second.NextLease();
  ASSERT_TRUE(requeued.has_value());
  EXPECT_EQ(requeued->job_id(), "job-9");
  EXPECT_EQ(requeued->library().sha256(), lost->library().sha256());
  EXPECT_EQ(requeued->library().bytes(), "the candidate");
  ASSERT_TRUE(second.Answer(requeued->lease_id(), "ok", {0.004}));
  std::vector<WorkOutcome> outcomes = WaitOutcomes(1);
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_EQ(outcomes[0].worker_id, *second_id);
  // The lost worker's late result for the old lease is ignored: still exactly one outcome.
  first.reset();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(WaitOutcomes(1).size(), 1u);
}

// The worker's answer when its cache no longer has what the lease named by hash.
bool AnswerMissing(StreamWorker& worker, int64_t lease_id, const std::string& sha256) {
  v1::WorkerMessage msg;
  v1::LeaseResult* r = msg.mutable_result();
  r->set_lease_id(lease_id);
  r->mutable_outcome()->set_error_kind("runtime_error");
  r->mutable_outcome()->set_error_message("artifact " + sha256 + " missing on worker");
  r->add_missing_artifacts(sha256);
  return worker.Send(msg);
}

TEST_F(WorkerServiceTest, CancelledJobWithdrawsTheLeaseAndDoesNotSendItAgain) {
  StreamWorker worker(channel_, kToken);
  ASSERT_TRUE(worker.Register("pi").has_value());
  Submit(Work("job-c", "lib"));
  std::optional<v1::Lease> lease = worker.NextLease();
  ASSERT_TRUE(lease.has_value());
  links_.Withdraw(dispatcher_->CancelJob("job-c"));
  std::optional<v1::TrackerMessage> msg = worker.Read();
  ASSERT_TRUE(msg.has_value());
  ASSERT_TRUE(msg->has_cancel());
  EXPECT_EQ(msg->cancel().lease_id(), lease->lease_id());
  std::vector<WorkOutcome> outcomes = WaitOutcomes(1);
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_TRUE(outcomes[0].cancelled);

  // The worker's answer, "missing", crossed the cancel: the lease is not sent again.
  ASSERT_TRUE(AnswerMissing(worker, lease->lease_id(), lease->library().sha256()));
  Submit(Work("job-d", "lib-d"));
  std::optional<v1::Lease> next = worker.NextLease();
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(next->job_id(), "job-d");
  ASSERT_TRUE(worker.Answer(next->lease_id(), "ok", {0.001}));
  ASSERT_EQ(WaitOutcomes(2).size(), 2u);
  // The stream handles messages in order: a resend would have been queued before this lease.
  Submit(Work("job-e", "lib-e"));
  std::optional<v1::Lease> last = worker.NextLease();
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(last->job_id(), "job-e");
}

TEST_F(WorkerServiceTest, AWorkerThatLostAnArtifactGetsTheLeaseAgainWithEveryArtifactsBytes) {
  StreamWorker worker(channel_, kToken);
  ASSERT_TRUE(worker.Register("pi").has_value());
  std::optional<v1::Lease> second = LeaseNamingTheReferenceByHash(worker);
  ASSERT_TRUE(second.has_value());
  const std::string reference = Sha256Hex("shared reference");
  ASSERT_TRUE(AnswerMissing(worker, second->lease_id(), reference));
  std::optional<v1::Lease> again = worker.NextLease();
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->lease_id(), second->lease_id());
  EXPECT_EQ(again->reference_library().bytes(), "shared reference");
  EXPECT_EQ(again->library().bytes(), "lib-b");
  EXPECT_EQ(again->function_name(), "kernel");
  EXPECT_EQ(again->deadline_ms(), second->deadline_ms());
  ASSERT_TRUE(worker.Answer(again->lease_id(), "ok", {0.002}));
  std::vector<WorkOutcome> outcomes = WaitOutcomes(2);
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_EQ(outcomes[1].error_kind, tuner::ErrorKind::kOk) << outcomes[1].error_message;
  EXPECT_EQ(outcomes[1].repeat_seconds, std::vector<double>{0.002});

  // Once only: a worker that still lacks it after the bytes came has its answer recorded.
  Submit(Work("job-1", "lib-c", "shared reference"));
  std::optional<v1::Lease> third = worker.NextLease();
  ASSERT_TRUE(third.has_value());
  EXPECT_TRUE(third->reference_library().bytes().empty()) << "resent bytes count as sent";
  ASSERT_TRUE(AnswerMissing(worker, third->lease_id(), reference));
  std::optional<v1::Lease> retry = worker.NextLease();
  ASSERT_TRUE(retry.has_value());
  EXPECT_EQ(retry->lease_id(), third->lease_id());
  ASSERT_TRUE(AnswerMissing(worker, retry->lease_id(), reference));
  outcomes = WaitOutcomes(3);
  ASSERT_EQ(outcomes.size(), 3u);
  EXPECT_EQ(outcomes[2].error_kind, tuner::ErrorKind::kRuntimeError);
  EXPECT_EQ(outcomes[2].error_message, "artifact " + reference + " missing on worker");
}

TEST_F(WorkerServiceTest, AMissingAnswerToAnExpiredLeaseLeavesItToTheDispatchersRequeue) {
  StreamWorker worker(channel_, kToken);
  ASSERT_TRUE(worker.Register("pi").has_value());
  std::optional<v1::Lease> late = LeaseNamingTheReferenceByHash(worker);
  ASSERT_TRUE(late.has_value());
  const std::string reference = Sha256Hex("shared reference");

  // The answer comes after the deadline, before the dispatcher's tick has expired the lease.
  clock_.Set(late->deadline_ms());
  ASSERT_TRUE(AnswerMissing(worker, late->lease_id(), reference));
  // Messages of one stream are handled in order: once this heartbeat is seen, so was the answer.
  clock_.Advance(1);
  v1::WorkerMessage heartbeat;
  heartbeat.mutable_heartbeat();
  ASSERT_TRUE(worker.Send(heartbeat));
  bool seen = false;
  for (int i = 0; i < 2000 && !seen; ++i) {
    std::vector<farm_api::WorkerSnapshot> snapshots = dispatcher_->Workers();
    seen = snapshots.size() == 1 && snapshots[0].last_heartbeat_ms == clock_.NowMs();
    if (!seen) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_TRUE(seen);
  {
    std::lock_guard lock(mu_);
    EXPECT_EQ(outcomes_.size(), 1u) << "the late \"missing\" answer was recorded";
  }

  // The tick re-queues it; the worker, idle again, gets it under a new id and asks once more.
  links_.Send(dispatcher_->Tick(clock_.NowMs()));
  std::optional<v1::Lease> renewed = worker.NextLease();
  ASSERT_TRUE(renewed.has_value());
  EXPECT_NE(renewed->lease_id(), late->lease_id());
  EXPECT_EQ(renewed->library().sha256(), late->library().sha256());
  ASSERT_TRUE(AnswerMissing(worker, renewed->lease_id(), reference));
  std::optional<v1::Lease> again = worker.NextLease();
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->lease_id(), renewed->lease_id());
  EXPECT_EQ(again->reference_library().bytes(), "shared reference");
  ASSERT_TRUE(worker.Answer(again->lease_id(), "ok", {0.002}));
  std::vector<WorkOutcome> outcomes = WaitOutcomes(2);
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_EQ(outcomes[1].error_kind, tuner::ErrorKind::kOk) << outcomes[1].error_message;
  EXPECT_EQ(outcomes[1].repeat_seconds, std::vector<double>{0.002});
}

// Over the wire: a slow device that keeps naming its lease in heartbeats keeps it past its first
// deadline, and its answer is then taken.
TEST_F(WorkerServiceTest, HeartbeatsNamingTheLeaseKeepItPastItsFirstDeadline) {
  StreamWorker worker(channel_, kToken);
  ASSERT_TRUE(worker.Register("pi").has_value());
  Submit(Work("job-1", "lib"));
  std::optional<v1::Lease> lease = worker.NextLease();
  ASSERT_TRUE(lease.has_value());
  const int64_t first_deadline = lease->deadline_ms();
  // Heartbeats every second naming the lease, until twice its first deadline.
  while (clock_.NowMs() < first_deadline + (first_deadline - SetUpMs())) {
    clock_.Advance(1000);
    v1::WorkerMessage beat;
    beat.mutable_heartbeat()->set_lease_id(lease->lease_id());
    ASSERT_TRUE(worker.Send(beat));
    ASSERT_TRUE(WaitHeartbeat(clock_.NowMs()));
    EXPECT_TRUE(dispatcher_->Tick(clock_.NowMs()).empty()) << "lost at " << clock_.NowMs();
  }
  EXPECT_EQ(dispatcher_->LeasesOutstanding(), 1);
  ASSERT_TRUE(worker.Answer(lease->lease_id(), "ok", {0.002}));
  std::vector<WorkOutcome> outcomes = WaitOutcomes(1);
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_EQ(outcomes[0].error_kind, tuner::ErrorKind::kOk) << outcomes[0].error_message;
}

TEST_F(WorkerServiceTest, ADrainingWorkersMissingAnswerLeavesTheLeaseToAnotherWorker) {
  auto leaving = std::make_unique<StreamWorker>(channel_, kToken);
  ASSERT_TRUE(leaving->Register("pi", "leaving").has_value());
  std::optional<v1::Lease> second = LeaseNamingTheReferenceByHash(*leaving);
  ASSERT_TRUE(second.has_value());
  v1::WorkerMessage draining;
  draining.mutable_draining()->set_reason("SIGTERM");
  ASSERT_TRUE(leaving->Send(draining));
  // A draining worker ignores new leases: neither sent again nor recorded as the candidate's.
  ASSERT_TRUE(AnswerMissing(*leaving, second->lease_id(), Sha256Hex("shared reference")));
  StreamWorker staying(channel_, kToken);
  std::optional<std::string> staying_id = staying.Register("pi", "staying");
  ASSERT_TRUE(staying_id.has_value());
  EXPECT_TRUE(leaving->Finish().ok());
  leaving.reset();
  std::optional<v1::Lease> requeued = staying.NextLease();
  ASSERT_TRUE(requeued.has_value());
  EXPECT_EQ(requeued->library().bytes(), "lib-b");
  EXPECT_EQ(requeued->reference_library().bytes(), "shared reference");
  ASSERT_TRUE(staying.Answer(requeued->lease_id(), "ok", {0.003}));
  std::vector<WorkOutcome> outcomes = WaitOutcomes(2);
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_EQ(outcomes[1].error_kind, tuner::ErrorKind::kOk) << outcomes[1].error_message;
  EXPECT_EQ(outcomes[1].worker_id, *staying_id);
}

// Answers the next session call with an array id (run on the worker's side).
bool AnswerAlloc(StreamWorker& worker, const std::string& array_id) {
  std::optional<v1::TrackerMessage> msg = worker.Read();
  if (!msg || !msg->has_session_call() || !msg->session_call().has_alloc()) return false;
  v1::WorkerMessage reply;
  reply.mutable_session_reply()->set_call_id(msg->session_call().call_id());
  reply.mutable_session_reply()->mutable_alloc()->set_array_id(array_id);
  return worker.Send(reply);
}

TEST_F(WorkerServiceTest, SessionCallsAreRelayedOverTheWorkerStream) {
  auto stub = v1::SessionService::NewStub(channel_);
  StreamWorker worker(channel_, kToken);
  std::optional<std::string> id = worker.Register("pi");
  ASSERT_TRUE(id.has_value());

  grpc::ClientContext open_context;
  SetToken(open_context, kToken, 10);
  v1::OpenSessionRequest open;
  open.set_device_key("pi");
  v1::OpenSessionResponse opened;
  ASSERT_TRUE(stub->OpenSession(&open_context, open, &opened).ok());
  EXPECT_EQ(opened.worker_id(), *id);
  EXPECT_EQ(dispatcher_->Workers("pi")[0].state, farm_api::WorkerState::kSession);

  auto call = std::async(std::launch::async, [&] {
    grpc::ClientContext context;
    SetToken(context, kToken, 10);
    v1::AllocArrayRequest request;
    request.set_session_id(opened.session_id());
    request.add_shape(4);
    request.set_dtype("float32");
    v1::AllocArrayResponse response;
    grpc::Status status = stub->AllocArray(&context, request, &response);
    return std::make_pair(status, response.array_id());
  });
  ASSERT_TRUE(AnswerAlloc(worker, "array-1"));
  auto [status, array_id] = call.get();
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(array_id, "array-1");

  // No second idle worker of the key: RESOURCE_EXHAUSTED after the wait.
  grpc::ClientContext busy_context;
  SetToken(busy_context, kToken, 10);
  open.set_wait_s(0.2);
  v1::OpenSessionResponse none;
  grpc::Status busy = stub->OpenSession(&busy_context, open, &none);
  EXPECT_EQ(busy.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_NE(busy.error_message().find("no idle worker with device key 'pi'"), std::string::npos);

  grpc::ClientContext close_context;
  SetToken(close_context, kToken, 10);
  v1::CloseSessionRequest close;
  close.set_session_id(opened.session_id());
  v1::CloseSessionResponse closed;
  ASSERT_TRUE(stub->CloseSession(&close_context, close, &closed).ok());
  EXPECT_EQ(dispatcher_->Workers("pi")[0].state, farm_api::WorkerState::kIdle);
  EXPECT_EQ(sessions_->open_sessions(), 0u);
}

TEST_F(WorkerServiceTest, WorkerLeavingMidSessionFailsTheCall) {
  auto stub = v1::SessionService::NewStub(channel_);
  auto worker = std::make_unique<StreamWorker>(channel_, kToken);
  ASSERT_TRUE(worker->Register("pi").has_value());
  grpc::ClientContext open_context;
  SetToken(open_context, kToken, 10);
  v1::OpenSessionRequest open;
  open.set_device_key("pi");
  v1::OpenSessionResponse opened;
  ASSERT_TRUE(stub->OpenSession(&open_context, open, &opened).ok());

  auto call = std::async(std::launch::async, [&] {
    grpc::ClientContext context;
    SetToken(context, kToken, 10);
    v1::AllocArrayRequest request;
    request.set_session_id(opened.session_id());
    v1::AllocArrayResponse response;
    return stub->AllocArray(&context, request, &response);
  });
  std::optional<v1::TrackerMessage> msg = worker->Read();  // the call arrived; then the worker dies
  ASSERT_TRUE(msg.has_value() && msg->has_session_call());
  worker->Drop();
  grpc::Status status = call.get();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_NE(status.error_message().find("left"), std::string::npos) << status.error_message();

  // Later calls of the session fail the same way.
  grpc::ClientContext later_context;
  SetToken(later_context, kToken, 10);
  v1::AllocArrayRequest request;
  request.set_session_id(opened.session_id());
  v1::AllocArrayResponse response;
  EXPECT_EQ(stub->AllocArray(&later_context, request, &response).error_code(),
            grpc::StatusCode::UNAVAILABLE);
}

}  // namespace
}  // namespace tunefarm::tracker
