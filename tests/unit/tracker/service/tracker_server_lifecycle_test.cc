// The tracker's timers and shutdown on loopback: silent workers are dropped, idle sessions end,
// and Shutdown closes the worker streams and releases Wait().
#include <filesystem>
#include <future>
#include <thread>
#include <unistd.h>

#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/unit/tracker/service/stream_worker.h"
#include "tracker/service/tracker_server.h"

namespace tunefarm::tracker {
namespace {

using testing::LoopbackChannel;
using testing::SetToken;
using testing::StreamWorker;

// `heartbeat_timeout_ms`: how long a worker may stay silent; short where a test wants a silent
// worker dropped, long where the test's worker cannot beat while the test waits on a call.
std::unique_ptr<TrackerServer> StartTracker(const std::string& name,
                                            int heartbeat_timeout_ms = 300) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("tf_service_life_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::filesystem::remove(dir / name);
  TrackerServerOptions options;
  options.listen = "127.0.0.1:0";
  options.db_path = (dir / name).string();
  options.tick_interval_ms = 20;
  options.heartbeat_interval_ms = 50;
  options.dispatcher.heartbeat_timeout_ms = heartbeat_timeout_ms;
  auto server = TrackerServer::Start(options);
  EXPECT_TRUE(server.ok()) << server.status();
  return server.ok() ? std::move(*server) : nullptr;
}

TEST(TrackerServerLifecycleTest, SilentWorkerIsDroppedWithUnavailable) {
  auto server = StartTracker("silent.db");
  ASSERT_TRUE(server);
  StreamWorker worker(LoopbackChannel(server->address()));
  ASSERT_TRUE(worker.Register("pi").has_value());
  EXPECT_EQ(server->dispatcher().Workers().size(), 1u);
  // No heartbeats: the ticker drops it after the 300 ms timeout and ends its stream.
  grpc::Status status = worker.Status();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_NE(status.error_message().find("heartbeat"), std::string::npos) << status.error_message();
  EXPECT_TRUE(server->dispatcher().Workers().empty());
}

TEST(TrackerServerLifecycleTest, IdleSessionEndsAndTheWorkerIsIdleAgain) {
  // The worker sends no heartbeat while OpenSession waits (slow under sanitizers and load).
  auto server = StartTracker("idle.db", /*heartbeat_timeout_ms=*/30000);
  ASSERT_TRUE(server);
  auto channel = LoopbackChannel(server->address());
  StreamWorker worker(channel);
  ASSERT_TRUE(worker.Register("pi").has_value());
  auto sessions = v1::SessionService::NewStub(channel);
  grpc::ClientContext context;
  SetToken(context, "", 10);
  v1::OpenSessionRequest open;
  open.set_device_key("pi");
  open.set_idle_timeout_s(0.1);
  v1::OpenSessionResponse opened;
  ASSERT_TRUE(sessions->OpenSession(&context, open, &opened).ok());
  ASSERT_TRUE(worker.Heartbeat());
  // The worker is told to drop the session's state once it expires.
  std::optional<v1::TrackerMessage> msg = worker.Read();
  ASSERT_TRUE(msg.has_value());
  ASSERT_TRUE(msg->has_session_call());
  EXPECT_TRUE(msg->session_call().has_close());
  EXPECT_EQ(msg->session_call().session_id(), opened.session_id());
  ASSERT_TRUE(worker.Heartbeat());
  std::vector<farm_api::WorkerSnapshot> workers = server->dispatcher().Workers("pi");
  ASSERT_EQ(workers.size(), 1u);
  EXPECT_EQ(workers[0].state, farm_api::WorkerState::kIdle);
}

TEST(TrackerServerLifecycleTest, ShutdownClosesWorkerStreamsAndReleasesWait) {
  auto server = StartTracker("shutdown.db");
  ASSERT_TRUE(server);
  StreamWorker worker(LoopbackChannel(server->address()));
  ASSERT_TRUE(worker.Register("pi").has_value());
  auto waiter = std::async(std::launch::async, [&] { server->Wait(); });
  server->Shutdown();
  EXPECT_EQ(waiter.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  EXPECT_EQ(worker.Status().error_code(), grpc::StatusCode::UNAVAILABLE);
  server->Shutdown();  // idempotent
}

TEST(TrackerServerLifecycleTest, ShutdownEndsWatchersPromptly) {
  auto server = StartTracker("watch.db");
  ASSERT_TRUE(server);
  auto client = v1::TrackerService::NewStub(LoopbackChannel(server->address()));
  v1::SubmitJobRequest request;
  request.set_workload("matmul:16,16,16");
  request.set_device_key("nobody");
  request.set_trials(2);
  request.set_tuner("random");
  v1::Job job;
  {
    grpc::ClientContext context;
    SetToken(context, "", 30);
    ASSERT_TRUE(client->SubmitJob(&context, request, &job).ok());
  }
  // A watch whose deadline passes ends with DEADLINE_EXCEEDED after its first event.
  {
    grpc::ClientContext context;
    SetToken(context, "", 0.3);
    v1::WatchJobRequest watch;
    watch.set_id(job.id());
    auto reader = client->WatchJob(&context, watch);
    v1::JobEvent event;
    EXPECT_TRUE(reader->Read(&event));
    EXPECT_EQ(event.job().id(), job.id());
    while (reader->Read(&event)) {
    }
    EXPECT_EQ(reader->Finish().error_code(), grpc::StatusCode::DEADLINE_EXCEEDED);
  }
  // Two watchers still waiting when the tracker stops: Shutdown does not wait for the job.
  std::vector<std::future<grpc::Status>> watchers;
  for (int i = 0; i < 2; ++i) {
    watchers.push_back(std::async(std::launch::async, [&] {
      grpc::ClientContext context;
      SetToken(context, "", 30);
      v1::WatchJobRequest watch;
      watch.set_id(job.id());
      auto reader = client->WatchJob(&context, watch);
      v1::JobEvent event;
      while (reader->Read(&event)) {
      }
      return reader->Finish();
    }));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  auto started = std::chrono::steady_clock::now();
  server->Shutdown();
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
  for (auto& w : watchers) {
    ASSERT_EQ(w.wait_for(std::chrono::seconds(10)), std::future_status::ready);
    EXPECT_FALSE(w.get().ok());
  }
}

}  // namespace
}  // namespace tunefarm::tracker
