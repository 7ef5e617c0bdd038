// Many connected workers on the callback API: each worker is a reactor, not a thread, so the
// tracker's thread count stays flat as the fleet grows.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <thread>
#include <vector>

#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "tests/unit/tracker/service/stream_worker.h"
#include "tracker/service/worker_links.h"
#include "tracker/service/worker_service.h"

namespace tunefarm::tracker {
namespace {

using testing::LoopbackChannel;
using testing::StreamWorker;

size_t ThreadCount() {
  size_t n = 0;
  for ([[maybe_unused]] const auto& entry :
       std::filesystem::directory_iterator("/proc/self/task")) {
    ++n;
  }
  return n;
}

TEST(ManyWorkersTest, ThousandStreamsNeedNoThreadEach) {
  Dispatcher dispatcher;
  WorkerLinks links;
  WorkerService service(dispatcher, links, WorkerServiceOptions{});
  int port = 0;
  grpc::ServerBuilder builder;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  ASSERT_TRUE(server);
  auto channel = LoopbackChannel("127.0.0.1:" + std::to_string(port));

  constexpr int kWorkers = 1000;
  std::vector<std::unique_ptr<StreamWorker>> workers;
  const size_t threads_before = ThreadCount();
  for (int i = 0; i < kWorkers; ++i) {
    workers.push_back(std::make_unique<StreamWorker>(channel));
    ASSERT_TRUE(workers.back()->Register("fleet", "host" + std::to_string(i)).has_value());
  }
  for (int i = 0; i < 1000 && dispatcher.Workers().size() < kWorkers; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  EXPECT_EQ(dispatcher.Workers("fleet").size(), static_cast<size_t>(kWorkers));
  EXPECT_EQ(links.size(), static_cast<size_t>(kWorkers));
  const size_t threads_after = ThreadCount();
  // gRPC's pollers and callback executor grow a little with load, never per stream.
  EXPECT_LT(threads_after, threads_before + 50) << threads_before << " -> " << threads_after;
  std::printf("[ threads  ] %zu before, %zu with %d connected workers\n", threads_before,
              threads_after, kWorkers);
  workers.clear();
  for (int i = 0; i < 1000 && !dispatcher.Workers().empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  EXPECT_TRUE(dispatcher.Workers().empty());
  server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
  server->Wait();
  EXPECT_EQ(service.open_streams(), 0);
}

}  // namespace
}  // namespace tunefarm::tracker
