// TrackerServer: builds the tracker from its options (database, dispatcher, jobs, the three
// services on one port) and runs the ticker that expires leases, silent workers and idle
// sessions.
#include "tracker/service/tracker_server.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

#include "grpc/grpc.h"
#include "grpcpp/security/server_credentials.h"
#include "grpcpp/server.h"
#include "grpcpp/server_builder.h"
#include "spdlog/spdlog.h"
#include "tracker/database_lock.h"
#include "tracker/free_memory.h"
#include "tracker/http/dashboard_server.h"
#include "tracker/job_table.h"
#include "tracker/service/session_service.h"
#include "tracker/service/tracker_service.h"
#include "tracker/service/worker_links.h"
#include "tracker/service/worker_service.h"

namespace tunefarm::tracker {
namespace {

// How often the ticker hands freed memory back to the system (tracker/free_memory.h).
constexpr auto kReleaseMemoryPeriod = std::chrono::seconds(10);

absl::StatusOr<std::string> ReadFile(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::InvalidArgumentError("cannot read " + what + " '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// HOST:PORT with a port in 0..65535 (0: any free one).
absl::Status CheckListenAddress(const std::string& what, const std::string& address) {
  size_t colon = address.rfind(':');
  if (colon == std::string::npos || colon + 1 == address.size()) {
    return absl::InvalidArgumentError(what + " '" + address + "' needs HOST:PORT");
  }
  const std::string port = address.substr(colon + 1);
  if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
      std::stoi(port) > 65535) {
    return absl::InvalidArgumentError(what + " '" + address + "' has a bad port");
  }
  return absl::OkStatus();
}

absl::Status Validate(const TrackerServerOptions& o) {
  if (o.db_path.empty()) return absl::InvalidArgumentError("db_path must be set");
  if (absl::Status s = CheckListenAddress("listen address", o.listen); !s.ok()) return s;
  // Checked before the database is opened, so a refused start creates nothing.
  if (!o.http_listen.empty()) {
    if (absl::Status s = CheckListenAddress("dashboard address", o.http_listen); !s.ok()) return s;
  }
  if (o.tls_cert_file.empty() != o.tls_key_file.empty()) {
    return absl::InvalidArgumentError("TLS needs both tls_cert_file and tls_key_file");
  }
  if (o.heartbeat_interval_ms <= 0 || o.tick_interval_ms <= 0 || o.max_message_bytes <= 0) {
    return absl::InvalidArgumentError(
        "heartbeat_interval_ms, tick_interval_ms and max_message_bytes must be positive");
  }
  if (o.heartbeat_interval_ms >= o.dispatcher.heartbeat_timeout_ms) {
    return absl::InvalidArgumentError("heartbeat_interval_ms (" +
                                      std::to_string(o.heartbeat_interval_ms) +
                                      ") must be below the heartbeat timeout (" +
                                      std::to_string(o.dispatcher.heartbeat_timeout_ms) + ")");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> Credentials(
    const TrackerServerOptions& o) {
  if (o.tls_cert_file.empty()) return grpc::InsecureServerCredentials();
  absl::StatusOr<std::string> cert = ReadFile(o.tls_cert_file, "TLS certificate file");
  if (!cert.ok()) return cert.status();
  absl::StatusOr<std::string> key = ReadFile(o.tls_key_file, "TLS key file");
  if (!key.ok()) return key.status();
  grpc::SslServerCredentialsOptions ssl;
  ssl.pem_key_cert_pairs.push_back({*key, *cert});
  return grpc::SslServerCredentials(ssl);
}

}  // namespace

struct TrackerServer::Impl {
  TrackerServerOptions options;
  // Declared in dependency order: destroyed server first, dispatcher and metrics last, and the
  // database lock after everything that uses the database.
  DatabaseLock db_lock;
  Metrics metrics;  // fed by the dispatcher and the job runners
  std::unique_ptr<Dispatcher> dispatcher;
  WorkerLinks links;
  std::unique_ptr<JobTable> job_table;  // shared by the two job managers
  std::unique_ptr<JobManager> jobs;
  std::unique_ptr<ModelJobManager> model_jobs;  // drives jobs of `jobs`: destroyed before it
  std::mutex resume_mu;
  JobManager* resume_jobs = nullptr;  // `jobs` until StopJobs: the workers' registrations use it
  std::unique_ptr<WorkerService> worker_service;
  std::unique_ptr<TrackerService> tracker_service;
  std::unique_ptr<SessionService> session_service;
  std::unique_ptr<grpc::Server> server;
  std::unique_ptr<DashboardServer> dashboard;  // reads the dispatcher, jobs and metrics above
  int port = 0;
  std::string host;

  std::thread ticker;
  std::mutex mu;
  std::condition_variable cv;
  bool stopping = false;  // the ticker stops
  bool stopped = false;   // Shutdown finished (Wait returns)

  // The client API stops using the job managers, then they stop (model jobs first: they drive
  // jobs). Unfinished jobs and model jobs stay resumable in the database.
  void StopJobs() {
    if (tracker_service) tracker_service->DetachJobs();
    {
      // Workers still register until the server shuts down, after the managers are gone.
      std::lock_guard lock(resume_mu);
      resume_jobs = nullptr;
    }
    model_jobs.reset();
    jobs.reset();
  }

  // A worker of `device_key` registered: the key's paused jobs run again.
  void ResumePausedJobs(const std::string& device_key) {
    std::lock_guard lock(resume_mu);
    if (resume_jobs != nullptr) resume_jobs->ResumePaused(device_key);
  }

  void Tick() {
    const int64_t now = options.clock->NowMs();
    std::vector<std::string> removed;
    std::vector<Assignment> assignments = dispatcher->Tick(now, &removed);
    for (const std::string& id : removed) {
      spdlog::warn("worker {} missed its heartbeats; dropping it", id);
      if (auto link = links.Find(id)) {
        link->Close(static_cast<int>(grpc::StatusCode::UNAVAILABLE),
                    "no heartbeat within " +
                        std::to_string(options.dispatcher.heartbeat_timeout_ms) + " ms");
      }
      links.NotifyGone(id);
    }
    links.Send(std::move(assignments));
    session_service->ExpireIdle(now);
  }

  void RunTicker() {
    std::unique_lock lock(mu);
    auto last_release = std::chrono::steady_clock::now();
    while (!stopping) {
      cv.wait_for(lock, std::chrono::milliseconds(options.tick_interval_ms));
      if (stopping) break;
      lock.unlock();
      Tick();
      if (std::chrono::steady_clock::now() - last_release >= kReleaseMemoryPeriod) {
        ReleaseFreeMemory();
        last_release = std::chrono::steady_clock::now();
      }
      lock.lock();
    }
  }
};

absl::StatusOr<std::unique_ptr<TrackerServer>> TrackerServer::Start(TrackerServerOptions options) {
  if (absl::Status s = Validate(options); !s.ok()) return s;
  auto credentials = Credentials(options);
  if (!credentials.ok()) return credentials.status();
  // Before the database is touched: a second tracker would resume the same jobs.
  auto db_lock = DatabaseLock::Acquire(options.db_path);
  if (!db_lock.ok()) return db_lock.status();
  // The database is opened here alone: the first connection creates and migrates it, and the
  // parts get their own connections (the jobs write records while the API and the dashboard
  // query) and share the job table.
  auto store = tuner::RecordStore::Open(options.db_path);
  if (!store.ok()) return store.status();
  auto job_records = tuner::RecordStore::Open(options.db_path);
  if (!job_records.ok()) return job_records.status();
  auto job_table = JobTable::Open(options.db_path);
  if (!job_table.ok()) return job_table.status();

  auto impl = std::make_unique<Impl>();
  impl->options = options;
  impl->db_lock = std::move(*db_lock);
  DispatcherOptions dispatcher_options = options.dispatcher;
  dispatcher_options.first_lease_id = options.clock->NowMs() * 1000;
  impl->dispatcher = std::make_unique<Dispatcher>(dispatcher_options);
  impl->dispatcher->SetMetrics(&impl->metrics);
  impl->job_table = *std::move(job_table);
  JobManagerOptions jobs_options = options.jobs;
  jobs_options.metrics = &impl->metrics;
  jobs_options.clock = options.clock;
  auto jobs = JobManager::Create(jobs_options, *impl->dispatcher, impl->links, *impl->job_table,
                                 *std::move(job_records));
  if (!jobs.ok()) return jobs.status();
  impl->jobs = std::move(*jobs);
  impl->resume_jobs = impl->jobs.get();
  ModelJobManagerOptions model_jobs_options;
  model_jobs_options.max_trials = options.jobs.max_trials;
  model_jobs_options.clock = options.clock;
  auto model_jobs = ModelJobManager::Create(model_jobs_options, *impl->jobs, *impl->job_table);
  if (!model_jobs.ok()) {
    impl->StopJobs();
    return model_jobs.status();
  }
  impl->model_jobs = std::move(*model_jobs);

  WorkerServiceOptions worker_options;
  worker_options.token = options.token;
  worker_options.heartbeat_interval_ms = options.heartbeat_interval_ms;
  worker_options.heartbeat_timeout_ms =
      static_cast<int>(std::min<int64_t>(options.dispatcher.heartbeat_timeout_ms, INT_MAX));
  worker_options.max_message_bytes = std::min<int64_t>(options.max_message_bytes, INT_MAX);
  worker_options.clock = options.clock;
  worker_options.on_registered = [raw = impl.get()](const std::string& device_key) {
    raw->ResumePausedJobs(device_key);
  };
  impl->worker_service =
      std::make_unique<WorkerService>(*impl->dispatcher, impl->links, worker_options);
  TrackerServiceOptions tracker_options;
  tracker_options.token = options.token;
  impl->tracker_service = std::make_unique<TrackerService>(
      *impl->jobs, *impl->model_jobs, *impl->dispatcher, std::move(*store), tracker_options);
  SessionServiceOptions session_options;
  session_options.token = options.token;
  session_options.clock = options.clock;
  impl->session_service =
      std::make_unique<SessionService>(*impl->dispatcher, impl->links, session_options);

  if (!options.http_listen.empty()) {
    auto dashboard_records = tuner::RecordStore::Open(options.db_path);
    if (!dashboard_records.ok()) {
      impl->StopJobs();
      return dashboard_records.status();
    }
    DashboardOptions dashboard_options;
    dashboard_options.listen = options.http_listen;
    dashboard_options.token = options.token;
    dashboard_options.clock = options.clock;
    auto dashboard =
        DashboardServer::Start(dashboard_options, *impl->dispatcher, *impl->jobs, impl->metrics,
                               *std::move(dashboard_records), impl->model_jobs.get());
    if (!dashboard.ok()) {
      impl->StopJobs();
      return dashboard.status();
    }
    impl->dashboard = std::move(*dashboard);
  }

  grpc::ServerBuilder builder;
  // gRPC binds with SO_REUSEPORT by default, so a second tracker on a taken port would start
  // and share the traffic silently; refuse it instead.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.AddListeningPort(options.listen, *credentials, &impl->port);
  builder.RegisterService(impl->worker_service.get());
  builder.RegisterService(impl->tracker_service.get());
  builder.RegisterService(impl->session_service.get());
  const int max_bytes = static_cast<int>(std::min<int64_t>(options.max_message_bytes, INT_MAX));
  builder.SetMaxReceiveMessageSize(max_bytes);
  builder.SetMaxSendMessageSize(max_bytes);
  impl->server = builder.BuildAndStart();
  if (!impl->server || impl->port == 0) {
    impl->dashboard.reset();
    impl->StopJobs();
    return absl::UnavailableError("cannot listen on " + options.listen);
  }
  impl->host = options.listen.substr(0, options.listen.rfind(':'));
  if (impl->host.empty() || impl->host == "0.0.0.0" || impl->host == "[::]" || impl->host == "::") {
    impl->host = "127.0.0.1";
  }
  Impl* raw = impl.get();
  impl->ticker = std::thread([raw] { raw->RunTicker(); });
  spdlog::info("tracker listening on {}:{} (database {})", impl->host, impl->port, options.db_path);
  return std::unique_ptr<TrackerServer>(new TrackerServer(std::move(impl)));
}

TrackerServer::TrackerServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

TrackerServer::~TrackerServer() { Shutdown(); }

int TrackerServer::port() const { return impl_->port; }
int TrackerServer::http_port() const { return impl_->dashboard ? impl_->dashboard->port() : 0; }

std::string TrackerServer::address() const {
  return impl_->host + ":" + std::to_string(impl_->port);
}

Dispatcher& TrackerServer::dispatcher() { return *impl_->dispatcher; }
JobManager& TrackerServer::jobs() { return *impl_->jobs; }
ModelJobManager& TrackerServer::model_jobs() { return *impl_->model_jobs; }
LeaseSender& TrackerServer::lease_sender() { return impl_->links; }
const Metrics& TrackerServer::metrics() const { return impl_->metrics; }

void TrackerServer::Shutdown() {
  {
    std::lock_guard lock(impl_->mu);
    if (impl_->stopping) return;
    impl_->stopping = true;
  }
  impl_->cv.notify_all();
  // The dashboard first: its handlers read the jobs and the dispatcher torn down below.
  if (impl_->dashboard) impl_->dashboard->Stop();
  if (impl_->ticker.joinable()) impl_->ticker.join();
  // Jobs first: their threads stop while workers are still connected, so no lease is counted
  // lost because the tracker itself went away; the jobs stay resumable in the database.
  impl_->StopJobs();
  impl_->session_service->Shutdown();
  for (auto& [id, link] : impl_->links.All()) {
    link->Close(static_cast<int>(grpc::StatusCode::UNAVAILABLE), "tracker is shutting down");
  }
  impl_->server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
  impl_->server->Wait();
  {
    std::lock_guard lock(impl_->mu);
    impl_->stopped = true;
  }
  impl_->cv.notify_all();
  spdlog::info("tracker stopped");
}

void TrackerServer::Wait() {
  std::unique_lock lock(impl_->mu);
  impl_->cv.wait(lock, [this] { return impl_->stopped; });
}

}  // namespace tunefarm::tracker
