// Shared helpers for the dashboard tests: a fresh directory per test, a tracker with its
// dashboard on 127.0.0.1 (ephemeral ports), and GETs that parse JSON or count elements.
#pragma once

#include <chrono>
#include <filesystem>
#include <gtest/gtest.h>
#include <httplib.h>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "rpc_server/worker.h"
#include "rpc_server/worker_fleet.h"
#include "tracker/service/tracker_server.h"

namespace tunefarm::tracker::testing {

inline std::string FreshDir(const std::string& name) {
  std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) /
                              ("tf_dash_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

inline TrackerServerOptions DashboardTrackerOptions(const std::string& dir,
                                                    const std::string& token) {
  TrackerServerOptions o;
  o.listen = "127.0.0.1:0";
  o.http_listen = "127.0.0.1:0";
  o.db_path = dir + "/dash.db";
  o.token = token;
  o.tick_interval_ms = 50;
  o.heartbeat_interval_ms = 300;
  o.jobs.build_parallelism = 1;
  return o;
}

// A tracker with its dashboard (DashboardTrackerOptions) and `workers` in-process rpc_server
// workers of `key`, each on a thread of its own, registered before Start returns (null, with a
// test failure, otherwise). Workers stop before the tracker.
class DashboardFarm {
 public:
  static std::unique_ptr<DashboardFarm> Start(const std::string& dir, const std::string& token,
                                              const std::string& key, int workers) {
    auto farm = std::unique_ptr<DashboardFarm>(new DashboardFarm());
    auto server = TrackerServer::Start(DashboardTrackerOptions(dir, token));
    EXPECT_TRUE(server.ok()) << server.status();
    if (!server.ok()) return nullptr;
    farm->server_ = *std::move(server);
    for (int i = 0; i < workers; ++i) {
      rpc_server::WorkerOptions o;
      o.tracker = farm->server_->address();
      o.device_key = key;
      o.token = token;
      o.work_dir = dir + "/worker" + std::to_string(i);
      absl::Status added = farm->workers_.Add(o);
      EXPECT_TRUE(added.ok()) << added;
      if (!added.ok()) return nullptr;
    }
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (farm->server_->dispatcher().Workers(key).size() < static_cast<size_t>(workers) &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_EQ(farm->server_->dispatcher().Workers(key).size(), static_cast<size_t>(workers));
    return farm;
  }

  ~DashboardFarm() {
    workers_.Stop();
    server_.reset();
  }

  TrackerServer& server() { return *server_; }

 private:
  DashboardFarm() = default;
  std::unique_ptr<TrackerServer> server_;
  rpc_server::WorkerFleet workers_;
};

// Occurrences of `needle` in `text` (e.g. `class="worker"` for the fleet's rows).
inline int Count(const std::string& text, const std::string& needle) {
  int n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

struct Reply {
  int status = 0;
  std::string body;
  std::string content_type;
  double seconds = 0;
};

inline Reply Get(int port, const std::string& path, const httplib::Headers& headers = {}) {
  httplib::Client client("127.0.0.1", port);
  client.set_read_timeout(30, 0);
  auto start = std::chrono::steady_clock::now();
  auto res = client.Get(path.c_str(), headers);
  Reply r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!res) return r;
  r.status = res->status;
  r.body = res->body;
  r.content_type = res->get_header_value("Content-Type");
  return r;
}

inline Reply Post(int port, const std::string& path, const httplib::Headers& headers = {}) {
  httplib::Client client("127.0.0.1", port);
  client.set_read_timeout(30, 0);
  auto res = client.Post(path.c_str(), headers, "", "application/json");
  Reply r;
  if (!res) return r;
  r.status = res->status;
  r.body = res->body;
  r.content_type = res->get_header_value("Content-Type");
  return r;
}

// GET that must answer 200 with JSON.
inline nlohmann::json GetJson(int port, const std::string& path) {
  Reply r = Get(port, path);
  EXPECT_EQ(r.status, 200) << path << ": " << r.body;
  EXPECT_EQ(r.content_type, "application/json") << path;
  nlohmann::json doc = nlohmann::json::parse(r.body, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(doc.is_discarded()) << path << ": " << r.body;
  return doc;
}

}  // namespace tunefarm::tracker::testing
