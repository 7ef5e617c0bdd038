// A tuning job through the whole farm on loopback: TrackerServer, the real rpc_server Worker
// measuring in its isolated child, and the client API. Checks that what the tracker sends is
// what the worker understands (artifacts, options, outcomes).
#include <filesystem>
#include <thread>
#include <unistd.h>

#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "rpc_server/worker.h"
#include "tests/unit/tracker/service/stream_worker.h"
#include "tracker/service/tracker_server.h"

namespace tunefarm::tracker {
namespace {

using testing::LoopbackChannel;
using testing::SetToken;

TEST(RealWorkerTest, JobCompletesOnTheRpcServerWorker) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("tf_service_real_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::filesystem::remove(dir / "real.db");
  TrackerServerOptions options;
  options.listen = "127.0.0.1:0";
  options.db_path = (dir / "real.db").string();
  options.token = "t0k";
  options.tick_interval_ms = 50;
  options.jobs.build_parallelism = 1;
  auto server = TrackerServer::Start(options);
  ASSERT_TRUE(server.ok()) << server.status();

  rpc_server::WorkerOptions worker_options;
  worker_options.tracker = (*server)->address();
  worker_options.device_key = "local-test";
  worker_options.token = "t0k";
  worker_options.work_dir = (dir / "cache").string();
  auto worker = rpc_server::Worker::Create(worker_options);
  ASSERT_TRUE(worker.ok()) << worker.status();
  absl::Status run_status;
  std::thread runner([&] { run_status = (*worker)->Run(); });

  auto client = v1::TrackerService::NewStub(LoopbackChannel((*server)->address()));
  v1::SubmitJobRequest request;
  request.set_workload("matmul:16,16,16");
  request.set_device_key("local-test");
  request.set_trials(3);
  request.set_batch_size(3);
  request.set_tuner("random");
  request.mutable_measure()->set_repeat(2);
  request.mutable_measure()->set_min_repeat_ms(1);
  v1::Job job;
  {
    grpc::ClientContext context;
    SetToken(context, "t0k", 30);
    grpc::Status s = client->SubmitJob(&context, request, &job);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  grpc::ClientContext watch_context;
  SetToken(watch_context, "t0k", 60);
  v1::WatchJobRequest watch;
  watch.set_id(job.id());
  auto reader = client->WatchJob(&watch_context, watch);
  v1::JobEvent event, last;
  while (reader->Read(&event)) last = event;
  EXPECT_TRUE(reader->Finish().ok());
  (*worker)->Stop();
  runner.join();
  EXPECT_TRUE(run_status.ok()) << run_status;

  EXPECT_EQ(last.job().state(), v1::JOB_STATE_SUCCEEDED) << last.DebugString();
  EXPECT_EQ(last.job().trials_done(), 3);
  EXPECT_EQ(last.job().errors(), 0) << last.DebugString();
  EXPECT_GT(last.job().best_seconds(), 0);
  rpc_server::WorkerStats stats = (*worker)->stats();
  EXPECT_EQ(stats.leases_done, 3);
  EXPECT_EQ(stats.leases_failed, 0);
}

}  // namespace
}  // namespace tunefarm::tracker
