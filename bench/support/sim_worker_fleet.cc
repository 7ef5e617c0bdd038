// SimWorkerFleet: one ClientBidiReactor per simulated worker, a few channels shared by them, a
// heartbeat thread, and a timer thread that sends held results when they fall due. Each stream
// keeps one write in flight and queues the rest, as the callback API requires; its read chain
// alone touches the latency records, so the hot path takes only the stream's own lock.
#include "bench/support/sim_worker_fleet.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <queue>
#include <random>
#include <thread>
#include <utility>

#include "grpcpp/grpcpp.h"
#include "proto/tunefarm/v1/worker.grpc.pb.h"
#include "runtime/clock.h"

namespace tunefarm::bench {
namespace {

using Clock = std::chrono::steady_clock;

class SimStream;

}  // namespace

struct SimWorkerFleet::Impl {
  SimFleetOptions options;
  std::vector<std::shared_ptr<grpc::Channel>> channels;
  std::vector<std::unique_ptr<v1::WorkerService::Stub>> stubs;
  std::vector<std::unique_ptr<SimStream>> streams;
  std::atomic<int64_t> leases{0};
  std::atomic<int> heartbeat_interval_ms{1000};
  std::atomic<int> phase{0};
  std::atomic<int64_t> hold_ns{0};

  // Held results, earliest due first.
  struct Held {
    Clock::time_point due;
    SimStream* stream;
    int64_t lease_id;
    bool operator>(const Held& o) const { return due > o.due; }
  };
  std::mutex timer_mu;
  std::condition_variable timer_cv;
  std::priority_queue<Held, std::vector<Held>, std::greater<Held>> held;
  bool timer_stop = false;
  std::thread timer;

  std::mutex mu;
  std::condition_variable cv;
  int registered = 0;
  int done = 0;
  int ended_ok = 0;
  int ended_early = 0;
  bool stopping = false;  // Stop() began: a stream ending now is not "early"
  std::string first_error;
  std::thread heartbeats;
  std::condition_variable heartbeats_cv;  // its own: registrations must not wake it
  bool heartbeats_stop = false;
  bool stopped = false;
  SimFleetStats stats;  // filled by the first Stop()

  void OnRegistered(int interval_ms) {
    if (interval_ms > 0) heartbeat_interval_ms = interval_ms;
    std::lock_guard lock(mu);
    ++registered;
    cv.notify_all();
  }
  void OnStreamDone(const grpc::Status& status) {
    std::lock_guard lock(mu);
    ++done;
    if (status.ok()) {
      ++ended_ok;
    } else if (first_error.empty()) {
      first_error = std::to_string(status.error_code()) + ": " + status.error_message();
    }
    if (!stopping) ++ended_early;
    cv.notify_all();
  }
  void RunHeartbeats();
  void RunTimer();
  void Hold(SimStream* stream, int64_t lease_id, Clock::duration hold) {
    {
      std::lock_guard lock(timer_mu);
      held.push({Clock::now() + hold, stream, lease_id});
    }
    timer_cv.notify_one();
  }
};

std::string SimDeviceKey(const std::string& device_key, int device_keys, int k) {
  return device_keys > 1 ? device_key + "-" + std::to_string(k) : device_key;
}

namespace {

class SimStream final : public grpc::ClientBidiReactor<v1::WorkerMessage, v1::TrackerMessage> {
 public:
  SimStream(SimWorkerFleet::Impl& fleet, int index) : fleet_(fleet), index_(index) {}

  void Begin(v1::WorkerService::Stub& stub) {
    stub.async()->Connect(&context_, this);
    v1::WorkerMessage hello;
    v1::Register* reg = hello.mutable_register_();
    reg->set_device_key(SimDeviceKey(fleet_.options.device_key, fleet_.options.device_keys,
                                     index_ % std::max(fleet_.options.device_keys, 1)));
    reg->set_target("llvm");
    reg->set_cores(1);
    reg->set_hostname("sim" + std::to_string(index_));
    reg->set_tunefarm_version("bench");
    Enqueue(std::move(hello));
    StartRead(&in_);
    StartCall();
  }

  void SendHeartbeat() {
    if (!registered_.load(std::memory_order_acquire)) return;
    v1::WorkerMessage msg;
    msg.mutable_heartbeat()->set_sent_ms(runtime::SystemClock().NowMs());
    Enqueue(std::move(msg));
  }

  // Half-closes once the queued writes are out.
  void RequestWritesDone() {
    {
      std::lock_guard lock(mu_);
      if (writes_done_requested_) return;
      writes_done_requested_ = true;
      if (writing_) return;  // OnWriteDone starts it
      writing_ = true;       // WritesDone counts as the write in flight
    }
    StartWritesDone();
  }
  void Cancel() { context_.TryCancel(); }

  // --- reactions ---
  void OnReadDone(bool ok) override {
    if (!ok) return;  // the stream is ending; OnDone follows
    switch (in_.kind_case()) {
      case v1::TrackerMessage::kRegistered:
        registered_.store(true, std::memory_order_release);
        fleet_.OnRegistered(in_.registered().heartbeat_interval_ms());
        break;
      case v1::TrackerMessage::kLease:
        AnswerLease(in_.lease());
        break;
      case v1::TrackerMessage::kCancel:
        ++cancels_;
        break;
      default:
        break;  // drain, session calls: a simulated worker ignores them
    }
    StartRead(&in_);
  }

  void OnWriteDone(bool ok) override {
    bool next = false;
    bool writes_done = false;
    {
      std::lock_guard lock(mu_);
      if (!ok) queue_.clear();  // broken stream: OnDone reports it
      if (!queue_.empty()) {
        current_ = std::move(queue_.front());
        queue_.pop_front();
        next = true;
      } else if (writes_done_requested_ && ok) {
        writes_done = true;  // writing_ stays true: WritesDone is in flight
      } else {
        writing_ = false;
      }
    }
    if (next) {
      StartWrite(&current_);
    } else if (writes_done) {
      StartWritesDone();
    }
  }

  void OnDone(const grpc::Status& status) override { fleet_.OnStreamDone(status); }

  // Read after OnDone only.
  const std::vector<std::vector<double>>& latencies() const { return latencies_; }
  const std::vector<std::string>& functions() const { return functions_; }
  int64_t cancels() const { return cancels_; }
  int64_t library_bytes() const { return library_bytes_; }
  bool registered() const { return registered_.load(); }

 private:
  void AnswerLease(const v1::Lease& lease) {
    const Clock::time_point now = Clock::now();
    const int phase = fleet_.phase.load();
    {
      std::lock_guard lock(mu_);
      if (has_last_result_ && last_result_phase_ == phase) {
        if (latencies_.size() <= static_cast<size_t>(phase)) latencies_.resize(phase + 1);
        latencies_[phase].push_back(std::chrono::duration<double>(now - last_result_).count());
      }
      has_last_result_ = false;
    }
    functions_.push_back(lease.function_name());
    library_bytes_ += static_cast<int64_t>(lease.library().bytes().size());
    fleet_.leases.fetch_add(1, std::memory_order_relaxed);
    const int64_t hold = fleet_.hold_ns.load();
    if (hold > 0) {
      // Uniform in [0.5, 1.5] x hold: workers that started together must not answer in lockstep
      // forever (real measurements vary), or every result would arrive in one burst.
      const double jitter = std::uniform_real_distribution<double>(0.5, 1.5)(rng_);
      fleet_.Hold(this, lease.lease_id(),
                  std::chrono::nanoseconds(static_cast<int64_t>(jitter * hold)));
    } else {
      SendResult(lease.lease_id());
    }
  }

 public:
  // Called by the read chain (no hold) or the timer thread (held).
  void SendResult(int64_t lease_id) {
    v1::WorkerMessage msg;
    v1::LeaseResult* result = msg.mutable_result();
    result->set_lease_id(lease_id);
    result->mutable_outcome()->set_error_kind("ok");
    result->mutable_outcome()->add_repeat_seconds(fleet_.options.repeat_seconds);
    {
      std::lock_guard lock(mu_);
      last_result_ = Clock::now();
      last_result_phase_ = fleet_.phase.load();
      has_last_result_ = true;
    }
    Enqueue(std::move(msg));
  }

 private:
  void Enqueue(v1::WorkerMessage msg) {
    {
      std::lock_guard lock(mu_);
      if (writes_done_requested_) return;
      if (writing_) {
        queue_.push_back(std::move(msg));
        return;
      }
      writing_ = true;
      current_ = std::move(msg);
    }
    StartWrite(&current_);
  }

  SimWorkerFleet::Impl& fleet_;
  const int index_;
  grpc::ClientContext context_;
  v1::TrackerMessage in_;  // the read chain only
  std::atomic<bool> registered_{false};
  // The read chain only:
  std::vector<std::vector<double>> latencies_;  // by phase
  std::minstd_rand rng_{static_cast<uint32_t>(index_ + 1)};
  std::vector<std::string> functions_;
  int64_t cancels_ = 0;
  int64_t library_bytes_ = 0;

  std::mutex mu_;  // the outbound side, and when our last result went out
  Clock::time_point last_result_;
  int last_result_phase_ = 0;
  bool has_last_result_ = false;
  std::deque<v1::WorkerMessage> queue_;
  v1::WorkerMessage current_;
  bool writing_ = false;
  bool writes_done_requested_ = false;
};

}  // namespace

void SimWorkerFleet::Impl::RunHeartbeats() {
  // Each stream once per interval, as a real worker (rpc_server/tracker_connection.cc) beats on
  // its own clock: spread over the interval in 10 ms slices, not all 10,000 in one burst (which
  // queued the results behind it and made the tail of the dispatch latency the generator's).
  constexpr int kSliceMs = 10;
  size_t next_stream = 0;
  double owed = 0;  // streams due, carried between slices
  std::unique_lock lock(mu);
  auto next = Clock::now();
  while (!heartbeats_stop) {
    next += std::chrono::milliseconds(kSliceMs);
    if (heartbeats_cv.wait_until(lock, next, [&] { return heartbeats_stop; })) break;
    lock.unlock();
    const int slices = std::max(1, heartbeat_interval_ms.load() / kSliceMs);
    owed += static_cast<double>(streams.size()) / slices;
    for (; owed >= 1 && !streams.empty(); owed -= 1) {
      streams[next_stream]->SendHeartbeat();
      next_stream = (next_stream + 1) % streams.size();
    }
    lock.lock();
  }
}

void SimWorkerFleet::Impl::RunTimer() {
  std::unique_lock lock(timer_mu);
  while (!timer_stop) {
    if (held.empty()) {
      timer_cv.wait(lock);
      continue;
    }
    const Held next = held.top();
    if (Clock::now() < next.due) {
      timer_cv.wait_until(lock, next.due);
      continue;
    }
    held.pop();
    lock.unlock();
    next.stream->SendResult(next.lease_id);
    lock.lock();
  }
}

absl::StatusOr<std::unique_ptr<SimWorkerFleet>> SimWorkerFleet::Start(SimFleetOptions options) {
  if (options.tracker.rfind("127.0.0.1:", 0) != 0) {
    return absl::InvalidArgumentError("the load generator only targets 127.0.0.1, not '" +
                                      options.tracker + "'");
  }
  if (options.workers <= 0 || options.workers_per_channel <= 0) {
    return absl::InvalidArgumentError("workers and workers_per_channel must be positive");
  }
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  const int channels =
      (options.workers + options.workers_per_channel - 1) / options.workers_per_channel;
  for (int c = 0; c < channels; ++c) {
    grpc::ChannelArguments args;
    args.SetInt(GRPC_ARG_ENABLE_HTTP_PROXY, 0);
    // A distinct argument per channel: gRPC would otherwise share one connection among them.
    args.SetInt("tunefarm.bench.channel", c);
    impl->channels.push_back(
        grpc::CreateCustomChannel(options.tracker, grpc::InsecureChannelCredentials(), args));
    impl->stubs.push_back(v1::WorkerService::NewStub(impl->channels.back()));
  }
  for (int i = 0; i < options.workers; ++i) {
    impl->streams.push_back(std::make_unique<SimStream>(*impl, i));
  }
  for (int i = 0; i < options.workers; ++i) {
    impl->streams[i]->Begin(*impl->stubs[i / options.workers_per_channel]);
  }
  Impl* raw = impl.get();
  impl->heartbeats = std::thread([raw] { raw->RunHeartbeats(); });
  impl->timer = std::thread([raw] { raw->RunTimer(); });
  return std::unique_ptr<SimWorkerFleet>(new SimWorkerFleet(std::move(impl)));
}

SimWorkerFleet::SimWorkerFleet(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

SimWorkerFleet::~SimWorkerFleet() { Stop(); }

bool SimWorkerFleet::WaitRegistered(double timeout_s) {
  std::unique_lock lock(impl_->mu);
  const int n = static_cast<int>(impl_->streams.size());
  impl_->cv.wait_for(lock, std::chrono::duration<double>(timeout_s),
                     [&] { return impl_->registered == n || impl_->ended_early > 0; });
  return impl_->registered == n && impl_->ended_early == 0;
}

int SimWorkerFleet::registered() const {
  std::lock_guard lock(impl_->mu);
  return impl_->registered;
}

int64_t SimWorkerFleet::leases() const { return impl_->leases.load(); }

int SimWorkerFleet::BeginPhase(double hold_seconds) {
  impl_->hold_ns = static_cast<int64_t>(hold_seconds * 1e9);
  return ++impl_->phase;
}

SimFleetStats SimWorkerFleet::Stop(double timeout_s) {
  Impl& m = *impl_;
  {
    std::lock_guard lock(m.mu);
    if (m.stopped) return m.stats;
    m.stopping = true;
    m.heartbeats_stop = true;
  }
  m.heartbeats_cv.notify_all();
  if (m.heartbeats.joinable()) m.heartbeats.join();
  {
    std::lock_guard lock(m.timer_mu);
    m.timer_stop = true;
  }
  m.timer_cv.notify_all();
  if (m.timer.joinable()) m.timer.join();
  for (auto& stream : m.streams) stream->RequestWritesDone();
  const int n = static_cast<int>(m.streams.size());
  std::unique_lock lock(m.mu);
  if (!m.cv.wait_for(lock, std::chrono::duration<double>(timeout_s), [&] { return m.done == n; })) {
    lock.unlock();
    for (auto& stream : m.streams) stream->Cancel();
    lock.lock();
    // TryCancel always ends a call; if even that hangs, leak the streams rather than free
    // reactors gRPC may still call.
    if (!m.cv.wait_for(lock, std::chrono::seconds(30), [&] { return m.done == n; })) {
      for (auto& stream : m.streams) (void)stream.release();
    }
  }
  SimFleetStats& s = m.stats;
  s.streams = n;
  s.registered = m.registered;
  s.ended_ok = m.ended_ok;
  s.ended_early = m.ended_early;
  s.first_error = m.first_error;
  s.leases = m.leases.load();
  for (auto& stream : m.streams) {
    if (!stream) continue;
    s.cancels += stream->cancels();
    s.library_bytes += stream->library_bytes();
    const auto& by_phase = stream->latencies();
    if (s.dispatch_latency_s.size() < by_phase.size()) s.dispatch_latency_s.resize(by_phase.size());
    for (size_t p = 0; p < by_phase.size(); ++p) {
      s.dispatch_latency_s[p].insert(s.dispatch_latency_s[p].end(), by_phase[p].begin(),
                                     by_phase[p].end());
    }
    s.lease_functions.insert(s.lease_functions.end(), stream->functions().begin(),
                             stream->functions().end());
  }
  if (s.dispatch_latency_s.size() < static_cast<size_t>(m.phase.load()) + 1) {
    s.dispatch_latency_s.resize(m.phase.load() + 1);
  }
  m.stopped = true;
  lock.unlock();
  m.streams.clear();
  m.stubs.clear();
  m.channels.clear();
  return s;
}

}  // namespace tunefarm::bench
