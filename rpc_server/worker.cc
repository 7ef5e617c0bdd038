#include "rpc_server/worker.h"

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "proto/tunefarm/v1/worker.pb.h"
#include "rpc_server/artifact_cache.h"
#include "rpc_server/backoff.h"
#include "rpc_server/device_info.h"
#include "rpc_server/lease_executor.h"
#include "rpc_server/lease_request.h"
#include "rpc_server/served_gpu.h"
#include "rpc_server/session_program.h"
#include "rpc_server/session_runner.h"
#include "rpc_server/tracker_connection.h"
#include "rpc_server/worker_log.h"
#include "runtime/measure/measure_program.h"
#include "runtime/measure/sha256.h"

namespace tunefarm::rpc_server {
namespace {

namespace fs = std::filesystem;
using SteadyClock = std::chrono::steady_clock;

// How long the tracker gets to end the stream after our last write on a drain.
constexpr double kCloseGraceS = 3;

absl::StatusOr<std::string> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

absl::StatusOr<std::string> MakeTempWorkDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern =
      absl::StrCat(tmp != nullptr && *tmp ? tmp : "/tmp", "/tunefarm-worker-XXXXXX");
  if (mkdtemp(pattern.data()) == nullptr) {
    return absl::InternalError(absl::StrCat("cannot create a work dir like ", pattern));
  }
  return pattern;
}

// Refusals that a retry cannot fix end Run; anything else is worth reconnecting for.
bool IsPermanent(const absl::Status& status) {
  return absl::IsUnauthenticated(status) || absl::IsPermissionDenied(status) ||
         absl::IsInvalidArgument(status);
}

// A build-only lease's libraries, with their bytes: the tracker has none of them.
void FillBuilt(const BuiltLibraryBytes& built, v1::LeaseResult& result) {
  v1::Artifact* library = result.mutable_library();
  library->set_sha256(runtime::measure::Sha256Hex(built.library));
  library->set_bytes(built.library);
  library->set_name("candidate.so");
  result.set_function_name(built.function_name);
  if (!built.reference.empty()) {
    v1::Artifact* reference = result.mutable_reference_library();
    reference->set_sha256(runtime::measure::Sha256Hex(built.reference));
    reference->set_bytes(built.reference);
    reference->set_name("reference.so");
    result.set_reference_key(built.reference_key);
  }
}

// A bare "llvm" means this machine, which the tracker (often of another architecture) cannot
// guess: it is told the architecture, so that it refuses jobs this worker cannot run.
std::string RegisteredTarget(const std::string& target) {
  if (target != "llvm") return target;
#if defined(__aarch64__)
  return "llvm -mtriple=aarch64-linux-gnu";
#elif defined(__x86_64__)
  return "llvm -mtriple=x86_64-linux-gnu";
#else
  return target;
#endif
}

}  // namespace

struct Worker::Impl {
  WorkerOptions options;
  ConnectionOptions connection;
  DeviceInfo device;
  std::optional<ServedGpu> gpu;  // options.gpu, opened
  std::string work_dir;
  bool owns_work_dir = false;
  std::unique_ptr<ArtifactCache> cache;
  std::unique_ptr<SessionRunner> sessions;
  std::unique_ptr<LeaseExecutor> executor;  // last: its thread calls back into the rest

  std::mutex send_mu;  // one Pump at a time, so results go out in order and exactly once
  mutable std::mutex mu;
  std::condition_variable cv;
  bool stop = false;
  bool drain = false;
  bool draining_sent = false;                  // on the current connection
  bool closing = false;                        // the drain is complete and writes are closed
  std::shared_ptr<TrackerConnection> current;  // from before registering: Stop cancels it
  std::shared_ptr<TrackerConnection> live;     // registered: what Pump writes to
  std::set<int64_t> in_hand;                   // leases accepted whose outcome has not come back
  std::deque<v1::LeaseResult> pending;         // results not yet written to a tracker
  std::string previous_worker_id;
  WorkerStats stats;

  ~Impl() {
    executor.reset();  // kills a measurement in hand and joins, before the rest goes away
    sessions.reset();  // no session reply reaches this worker after this
    if (owns_work_dir) {
      std::error_code ec;
      fs::remove_all(work_dir, ec);
    }
  }

  v1::Register MakeRegister() const;
  absl::Status Run();
  void HandleMessage(const v1::TrackerMessage& message,
                     const std::shared_ptr<TrackerConnection>& conn);
  void SendSessionReply(const v1::SessionReply& reply,
                        const std::shared_ptr<TrackerConnection>& conn);
  void OnLease(const v1::Lease& lease);
  void OnOutcome(LeaseOutcome outcome);
  void BeginDrain(const std::string& reason);
  void Pump();
  bool NothingToDeliverLocked() const { return in_hand.empty() && pending.empty(); }
};

v1::Register Worker::Impl::MakeRegister() const {
  v1::Register hello;
  hello.set_device_key(options.device_key);
  hello.set_target(gpu ? gpu->target : RegisteredTarget(options.target));
  if (gpu) {
    hello.set_gpu_model(gpu->attributes.name);
    hello.set_gpu_memory_bytes(gpu->attributes.global_memory_bytes);
    v1::GpuLimits* limits = hello.mutable_gpu();
    limits->set_api("opencl");
    limits->set_vendor(gpu->attributes.vendor);
    limits->set_driver_version(gpu->attributes.driver_version);
    limits->set_arch(gpu->attributes.arch);
    limits->set_extensions(gpu->attributes.extensions);
    limits->set_compute_units(gpu->attributes.compute_units);
    limits->set_max_threads_per_block(gpu->attributes.max_threads_per_block);
    for (int64_t d : gpu->attributes.max_block_dims) limits->add_max_block_dims(d);
    limits->set_max_shared_bytes(gpu->attributes.max_shared_bytes);
  }
  hello.set_cpu_model(device.cpu_model);
  hello.set_cores(device.cores);
  hello.set_memory_bytes(device.memory_bytes);
  // Only a worker given a builder (`tunefarm worker`, which links the compiler) builds; the slim
  // server measures the libraries it is sent.
  hello.set_can_build(options.builder != nullptr);
  hello.set_build_only(options.build_only && options.builder != nullptr);
  hello.set_tunefarm_version(WorkerVersion());
  hello.set_hostname(device.hostname);
  for (const std::string& f : device.cpu_features) hello.add_cpu_features(f);
  hello.set_emulated(device.emulated || options.emulated);
  hello.set_speed_probe_seconds(device.speed_probe_seconds);
  std::lock_guard<std::mutex> lock(mu);
  hello.set_previous_worker_id(previous_worker_id);
  return hello;
}

// Writes what is owed to the tracker on the current connection, in order: Draining once per
// connection when draining, then the results not yet delivered; then, when draining and nothing
// is left, closes our side of the stream. Called after every change from any thread.
void Worker::Impl::Pump() {
  std::lock_guard<std::mutex> send_lock(send_mu);
  std::unique_lock<std::mutex> lock(mu);
  std::shared_ptr<TrackerConnection> conn = live;
  if (conn == nullptr || closing) return;
  if (drain && !draining_sent) {
    lock.unlock();
    v1::WorkerMessage message;
    message.mutable_draining()->set_reason("worker draining");
    bool ok = conn->Write(message);
    lock.lock();
    if (!ok) return;  // the stream broke: Run reconnects and pumps again
    draining_sent = true;
  }
  while (!pending.empty() && live == conn) {
    v1::WorkerMessage message;
    *message.mutable_result() = pending.front();
    lock.unlock();
    bool ok = conn->Write(message);
    lock.lock();
    if (!ok) return;
    pending.pop_front();  // only Pump pops, and Pumps are serialized: still the same front
  }
  if (drain && draining_sent && NothingToDeliverLocked() && live == conn) {
    closing = true;
    lock.unlock();
    WorkerLog(LogLevel::kInfo, "drained: closing the stream");
    conn->CloseWrites(kCloseGraceS);
  }
}

void Worker::Impl::OnOutcome(LeaseOutcome outcome) {
  {
    std::lock_guard<std::mutex> lock(mu);
    in_hand.erase(outcome.lease_id);
    if (outcome.cancelled) {
      WorkerLog(LogLevel::kInfo,
                absl::StrCat("lease ", outcome.lease_id, " was cancelled: result dropped"));
    } else {
      const std::string_view kind = runtime::measure::ErrorKindName(outcome.outcome.kind);
      if (outcome.missing_artifacts.empty()) {  // else the lease comes back with the bytes
        ++stats.leases_done;
        if (outcome.outcome.kind != runtime::measure::ErrorKind::kOk) ++stats.leases_failed;
      }
      v1::LeaseResult result;
      result.set_lease_id(outcome.lease_id);
      v1::MeasureOutcome* out = result.mutable_outcome();
      out->set_error_kind(std::string(kind));
      out->set_error_message(outcome.outcome.message);
      for (double s : outcome.outcome.repeat_seconds) out->add_repeat_seconds(s);
      out->set_canary_ratio(outcome.outcome.canary_ratio);
      out->set_noisy(outcome.outcome.noisy);
      result.set_build_seconds(outcome.build_seconds);
      result.set_cannot_build(outcome.cannot_build);
      if (outcome.built) FillBuilt(*outcome.built, result);
      for (std::string& sha256 : outcome.missing_artifacts) {
        result.add_missing_artifacts(std::move(sha256));
      }
      pending.push_back(std::move(result));
      WorkerLog(LogLevel::kDebug,
                absl::StrCat("lease ", outcome.lease_id, ": ", std::string(kind)));
    }
  }
  cv.notify_all();
  Pump();
}

void Worker::Impl::OnLease(const v1::Lease& lease) {
  {
    std::lock_guard<std::mutex> lock(mu);
    if (drain) {
      // The tracker re-queues it when this worker leaves, which it is about to do.
      WorkerLog(LogLevel::kInfo, absl::StrCat("lease ", lease.lease_id(), " ignored: draining"));
      return;
    }
  }
  absl::StatusOr<PreparedLease> prepared =
      PrepareLease(lease, *cache, /*can_build=*/options.builder != nullptr);
  if (!prepared.ok()) {
    LeaseOutcome failed;
    failed.lease_id = lease.lease_id();
    failed.outcome.kind = runtime::measure::ErrorKind::kRuntimeError;
    failed.outcome.message = std::string(prepared.status().message());
    WorkerLog(LogLevel::kWarn,
              absl::StrCat("lease ", lease.lease_id(), ": ", prepared.status().message()));
    OnOutcome(std::move(failed));
    return;
  }
  if (!prepared->missing.empty()) {
    // A tracker that knows missing_artifacts sends the lease again with the bytes; an older one
    // records this runtime error.
    LeaseOutcome missing;
    missing.lease_id = lease.lease_id();
    missing.outcome.kind = runtime::measure::ErrorKind::kRuntimeError;
    missing.outcome.message =
        absl::StrCat(prepared->missing.size() == 1 ? "artifact " : "artifacts ",
                     absl::StrJoin(prepared->missing, ", "), " missing on worker");
    missing.missing_artifacts = std::move(prepared->missing);
    WorkerLog(LogLevel::kInfo, absl::StrCat("lease ", lease.lease_id(), ": ",
                                            missing.outcome.message, "; asking for the bytes"));
    OnOutcome(std::move(missing));
    return;
  }
  cache->EvictToFit(prepared->artifacts);
  {
    std::lock_guard<std::mutex> lock(mu);
    in_hand.insert(lease.lease_id());
  }
  executor->Submit(std::move(prepared->task));
}

void Worker::Impl::BeginDrain(const std::string& reason) {
  {
    std::lock_guard<std::mutex> lock(mu);
    if (drain) return;
    drain = true;
  }
  WorkerLog(LogLevel::kInfo, absl::StrCat("draining (", reason, ")"));
  // Nothing queued will be started: the tracker re-queues those leases when we leave.
  std::vector<int64_t> dropped = executor->DropQueued();
  {
    std::lock_guard<std::mutex> lock(mu);
    for (int64_t id : dropped) in_hand.erase(id);
  }
  cv.notify_all();
  Pump();
}

// A session call's reply goes out on the stream that brought the call, if it is still the live
// one; a stream that ended took its calls with it (the tracker failed them).
void Worker::Impl::SendSessionReply(const v1::SessionReply& reply,
                                    const std::shared_ptr<TrackerConnection>& conn) {
  std::lock_guard<std::mutex> send_lock(send_mu);
  {
    std::lock_guard<std::mutex> lock(mu);
    if (live != conn || closing) return;
  }
  v1::WorkerMessage message;
  *message.mutable_session_reply() = reply;
  conn->Write(message);
}

void Worker::Impl::HandleMessage(const v1::TrackerMessage& message,
                                 const std::shared_ptr<TrackerConnection>& conn) {
  switch (message.kind_case()) {
    case v1::TrackerMessage::kLease:
      OnLease(message.lease());
      break;
    case v1::TrackerMessage::kCancel: {
      const int64_t id = message.cancel().lease_id();
      if (executor->Cancel(id)) {
        std::lock_guard<std::mutex> lock(mu);
        in_hand.erase(id);
      }
      Pump();  // a drain may have been waiting for this lease only
      break;
    }
    case v1::TrackerMessage::kDrain:
      BeginDrain(message.drain().reason().empty() ? "the tracker asked" : message.drain().reason());
      break;
    case v1::TrackerMessage::kSessionCall:
      sessions->Submit(message.session_call(), [this, conn](const v1::SessionReply& reply) {
        SendSessionReply(reply, conn);
      });
      break;
    case v1::TrackerMessage::kRegistered:
    case v1::TrackerMessage::KIND_NOT_SET:
      break;
  }
}

absl::Status Worker::Impl::Run() {
  Backoff backoff(options.reconnect_initial_s, options.reconnect_max_s, std::random_device{}());
  SteadyClock::time_point last_connected = SteadyClock::now();
  absl::Status last_error;
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mu);
      if (stop || (drain && NothingToDeliverLocked())) return absl::OkStatus();
    }
    auto conn = std::make_shared<TrackerConnection>(connection);
    // Published before registering, so Stop() can cancel a registration that hangs.
    {
      std::lock_guard<std::mutex> lock(mu);
      if (stop) return absl::OkStatus();
      current = conn;
      draining_sent = false;
      closing = false;
    }
    v1::Registered registered;
    absl::Status status = conn->Register(MakeRegister(), &registered);
    if (status.ok()) {
      {
        std::lock_guard<std::mutex> lock(mu);
        ++stats.connections;
        stats.worker_id = registered.worker_id();
        previous_worker_id = registered.worker_id();
        live = conn;
      }
      backoff.Reset();
      WorkerLog(LogLevel::kInfo,
                absl::StrCat("registered with ", options.tracker, " as ", registered.worker_id()));
      conn->StartHeartbeats(registered.heartbeat_interval_ms(),
                            [executor = executor.get()] { return executor->Running(); });
      // A session reply must fit the tracker's messages (older trackers do not say).
      if (registered.max_message_bytes() > 0) {
        sessions->SetMaxReplyBytes(registered.max_message_bytes());
      }
      Pump();
      v1::TrackerMessage message;
      while (conn->Read(&message)) HandleMessage(message, conn);
      {
        std::lock_guard<std::mutex> lock(mu);
        live = nullptr;
      }
      // No write may race Finish: wait out a Pump that took the connection before we cleared it.
      { std::lock_guard<std::mutex> send_lock(send_mu); }
      status = conn->Finish();
      if (!status.ok()) {
        status = absl::Status(status.code(),
                              absl::StrCat("tracker ", options.tracker, ": ", status.message()));
      }
      last_connected = SteadyClock::now();
      sessions->CloseAll();
    }
    bool closed_by_drain = false;
    {
      std::lock_guard<std::mutex> lock(mu);
      current = nullptr;
      live = nullptr;
      closed_by_drain = closing;
      if (stop || closed_by_drain) return absl::OkStatus();
    }
    // Leases not started are the tracker's to re-queue; the one in progress keeps running and
    // its result is re-sent after reconnecting.
    std::vector<int64_t> dropped = executor->DropQueued();
    {
      std::lock_guard<std::mutex> lock(mu);
      for (int64_t id : dropped) in_hand.erase(id);
    }
    if (IsPermanent(status)) {
      WorkerLog(LogLevel::kError, status.ToString());
      return status;
    }
    if (!status.ok()) last_error = status;
    const double since = std::chrono::duration<double>(SteadyClock::now() - last_connected).count();
    if (options.give_up_after_s > 0 && since >= options.give_up_after_s) {
      return absl::UnavailableError(
          absl::StrCat("gave up on tracker ", options.tracker, " after ", since,
                       " s without a connection: ", last_error.ToString()));
    }
    const double delay = backoff.NextDelay();
    // A failed status names the tracker already.
    WorkerLog(
        LogLevel::kWarn,
        absl::StrCat(status.ok() ? absl::StrCat("tracker ", options.tracker, " ended the stream")
                                 : status.ToString(),
                     "; reconnecting in ", std::round(delay * 100) / 100, " s"));
    std::unique_lock<std::mutex> lock(mu);
    cv.wait_for(lock, std::chrono::duration<double>(delay),
                [&] { return stop || (drain && NothingToDeliverLocked()); });
  }
}

Worker::Worker(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Worker::~Worker() = default;

absl::StatusOr<std::unique_ptr<Worker>> Worker::Create(WorkerOptions options) {
  if (options.device_key.empty()) return absl::InvalidArgumentError("the device key is required");
  if (options.tracker.empty()) return absl::InvalidArgumentError("the tracker address is required");
  if (options.build_only && options.builder == nullptr) {
    return absl::InvalidArgumentError("a build-only worker needs a builder (the compiler)");
  }
  auto impl = std::make_unique<Impl>();
  impl->connection.tracker = options.tracker;
  impl->connection.token = options.token;
  if (!options.tls_root_cert_file.empty()) {
    absl::StatusOr<std::string> pem = ReadWholeFile(options.tls_root_cert_file);
    if (!pem.ok()) return pem.status();
    impl->connection.tls_root_pem = *std::move(pem);
  }
  std::string program = options.measure_program;
  absl::StatusOr<std::string> found = runtime::measure::FindMeasureProgram(program);
  if (!found.ok()) return found.status();
  program = *found;
  if (options.work_dir.empty()) {
    absl::StatusOr<std::string> dir = MakeTempWorkDir();
    if (!dir.ok()) return dir.status();
    impl->work_dir = *dir;
    impl->owns_work_dir = true;
  } else {
    impl->work_dir = options.work_dir;
  }
  absl::StatusOr<std::unique_ptr<ArtifactCache>> cache =
      ArtifactCache::Open(impl->work_dir + "/artifacts", options.max_artifact_cache_bytes);
  if (!cache.ok()) return cache.status();
  impl->cache = *std::move(cache);
  if (options.session_memory_bytes <= 0 || options.max_sessions <= 0) {
    return absl::InvalidArgumentError("session_memory_bytes and max_sessions must be positive");
  }
  absl::StatusOr<std::string> session_program = FindSessionProgram(options.session_program);
  if (!session_program.ok()) return session_program.status();
  SessionRunnerOptions session_options;
  session_options.program = *session_program;
  session_options.program_args = options.session_program_args;
  session_options.dir = impl->work_dir + "/sessions";
  session_options.limits.memory_bytes = options.session_memory_bytes;
  session_options.max_sessions = options.max_sessions;
  impl->sessions = std::make_unique<SessionRunner>(std::move(session_options));
  impl->device = DetectDeviceInfo(options.hostname);
  if (!options.gpu.empty()) {
    absl::StatusOr<ServedGpu> gpu = OpenServedGpu(options.gpu, options.target);
    if (!gpu.ok()) return gpu.status();
    options.measure_program_args.push_back(runtime::devices::kOpenClDeviceFlag);
    options.measure_program_args.push_back(gpu->choice_text);
    impl->gpu = *std::move(gpu);
  }
  Impl* raw = impl.get();
  impl->executor = std::make_unique<LeaseExecutor>(
      program, options.measure_program_args, options.builder,
      [raw](LeaseOutcome outcome) { raw->OnOutcome(std::move(outcome)); });
  impl->options = std::move(options);
  return std::unique_ptr<Worker>(new Worker(std::move(impl)));
}

absl::Status Worker::Run() { return impl_->Run(); }

void Worker::Drain() { impl_->BeginDrain("requested"); }

void Worker::Stop() {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->stop = true;
  if (impl_->current != nullptr) impl_->current->Cancel();
  impl_->cv.notify_all();
}

WorkerStats Worker::stats() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->stats;
}

}  // namespace tunefarm::rpc_server
