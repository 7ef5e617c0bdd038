#include "rpc_server/tracker_connection.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <grpcpp/grpcpp.h>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "proto/tunefarm/v1/worker.grpc.pb.h"

namespace tunefarm::rpc_server {

using Clock = std::chrono::steady_clock;
using Stream = grpc::ClientReaderWriter<v1::WorkerMessage, v1::TrackerMessage>;

struct TrackerConnection::State {
  std::string tracker;
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<v1::WorkerService::Stub> stub;
  grpc::ClientContext context;
  std::unique_ptr<Stream> stream;

  std::mutex write_mu;  // one Write/WritesDone at a time (gRPC's rule for a sync stream)
  bool writes_closed = false;

  std::mutex keeper_mu;
  std::condition_variable keeper_cv;
  std::thread keeper;
  int heartbeat_interval_ms = 0;
  std::function<int64_t()> lease_in_hand;  // set before the keeper starts
  bool keeper_stop = false;
  bool close_pending = false;
  Clock::time_point close_deadline;

  bool finished = false;
  const runtime::Clock* wall_clock = nullptr;  // heartbeats' send times
};

namespace {

absl::Status FromGrpc(const grpc::Status& status) {
  return absl::Status(static_cast<absl::StatusCode>(status.error_code()), status.error_message());
}

}  // namespace

TrackerConnection::TrackerConnection(const ConnectionOptions& options)
    : state_(std::make_unique<State>()) {
  grpc::ChannelArguments args;
  // A proxy from the environment must never sit between a worker and its (often local) tracker.
  args.SetInt(GRPC_ARG_ENABLE_HTTP_PROXY, 0);
  const int max_bytes = static_cast<int>(std::min<int64_t>(options.max_message_bytes, INT32_MAX));
  args.SetMaxReceiveMessageSize(max_bytes);
  args.SetMaxSendMessageSize(max_bytes);
  std::shared_ptr<grpc::ChannelCredentials> credentials;
  if (options.tls_root_pem.empty()) {
    credentials = grpc::InsecureChannelCredentials();
  } else {
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = options.tls_root_pem;
    credentials = grpc::SslCredentials(ssl);
  }
  state_->tracker = options.tracker;
  state_->wall_clock = options.clock;
  state_->channel = grpc::CreateCustomChannel(options.tracker, credentials, args);
  state_->stub = v1::WorkerService::NewStub(state_->channel);
  if (!options.token.empty()) {
    state_->context.AddMetadata("authorization", absl::StrCat("Bearer ", options.token));
  }
}

TrackerConnection::~TrackerConnection() {
  {
    std::lock_guard<std::mutex> lock(state_->keeper_mu);
    state_->keeper_stop = true;
  }
  state_->keeper_cv.notify_all();
  if (state_->keeper.joinable()) state_->keeper.join();
  if (state_->stream != nullptr && !state_->finished) {
    state_->context.TryCancel();
    v1::TrackerMessage ignored;
    while (state_->stream->Read(&ignored)) {
    }
    state_->stream->Finish();
  }
}

absl::Status TrackerConnection::Register(const v1::Register& hello, v1::Registered* registered) {
  state_->stream = state_->stub->Connect(&state_->context);
  v1::WorkerMessage message;
  *message.mutable_register_() = hello;
  if (Write(message)) {
    v1::TrackerMessage reply;
    if (state_->stream->Read(&reply)) {
      if (reply.has_registered()) {
        *registered = reply.registered();
        return absl::OkStatus();
      }
      Cancel();
      while (state_->stream->Read(&reply)) {
      }
      Finish().IgnoreError();
      return absl::FailedPreconditionError(
          absl::StrCat("tracker ", state_->tracker, " answered the registration with message kind ",
                       static_cast<int>(reply.kind_case()), " instead of registered"));
    }
  }
  v1::TrackerMessage unread;
  while (state_->stream->Read(&unread)) {
  }
  absl::Status status = Finish();
  if (status.ok()) {
    return absl::UnavailableError(
        absl::StrCat("tracker ", state_->tracker, " closed the stream without registering us"));
  }
  return absl::Status(status.code(),
                      absl::StrCat("tracker ", state_->tracker, ": ", status.message()));
}

void TrackerConnection::StartHeartbeats(int interval_ms, std::function<int64_t()> lease_in_hand) {
  std::lock_guard<std::mutex> lock(state_->keeper_mu);
  state_->heartbeat_interval_ms = interval_ms > 0 ? interval_ms : 1000;
  if (!state_->keeper.joinable()) state_->lease_in_hand = std::move(lease_in_hand);
  if (!state_->keeper.joinable()) state_->keeper = std::thread([this] { Keep(); });
}

void TrackerConnection::Keep() {
  std::unique_lock<std::mutex> lock(state_->keeper_mu);
  Clock::time_point next_beat =
      Clock::now() + std::chrono::milliseconds(state_->heartbeat_interval_ms);
  while (!state_->keeper_stop) {
    Clock::time_point wake = next_beat;
    if (state_->close_pending && state_->close_deadline < wake) wake = state_->close_deadline;
    state_->keeper_cv.wait_until(lock, wake);
    if (state_->keeper_stop) break;
    const Clock::time_point now = Clock::now();
    if (state_->close_pending && now >= state_->close_deadline) {
      // The tracker did not end the stream after our last write: end it ourselves.
      state_->close_pending = false;
      state_->context.TryCancel();
      continue;
    }
    if (now >= next_beat) {
      next_beat = now + std::chrono::milliseconds(state_->heartbeat_interval_ms);
      lock.unlock();
      v1::WorkerMessage beat;
      beat.mutable_heartbeat()->set_sent_ms(state_->wall_clock->NowMs());
      if (state_->lease_in_hand) beat.mutable_heartbeat()->set_lease_id(state_->lease_in_hand());
      Write(beat);
      lock.lock();
    }
  }
}

bool TrackerConnection::Read(v1::TrackerMessage* message) { return state_->stream->Read(message); }

bool TrackerConnection::Write(const v1::WorkerMessage& message) {
  std::lock_guard<std::mutex> lock(state_->write_mu);
  if (state_->writes_closed || state_->stream == nullptr) return false;
  return state_->stream->Write(message);
}

void TrackerConnection::CloseWrites(double grace_s) {
  {
    std::lock_guard<std::mutex> lock(state_->write_mu);
    if (state_->writes_closed || state_->stream == nullptr) return;
    state_->writes_closed = true;
    state_->stream->WritesDone();
  }
  std::lock_guard<std::mutex> lock(state_->keeper_mu);
  state_->close_pending = true;
  state_->close_deadline =
      Clock::now() + std::chrono::milliseconds(static_cast<int64_t>(grace_s * 1000));
  if (!state_->keeper.joinable()) {
    state_->heartbeat_interval_ms = 1 << 30;  // only the deadline matters now
    state_->keeper = std::thread([this] { Keep(); });
  }
  state_->keeper_cv.notify_all();
}

void TrackerConnection::Cancel() { state_->context.TryCancel(); }

absl::Status TrackerConnection::Finish() {
  {
    std::lock_guard<std::mutex> lock(state_->keeper_mu);
    state_->keeper_stop = true;
  }
  state_->keeper_cv.notify_all();
  if (state_->keeper.joinable()) state_->keeper.join();
  if (state_->stream == nullptr || state_->finished) return absl::OkStatus();
  state_->finished = true;
  return FromGrpc(state_->stream->Finish());
}

}  // namespace tunefarm::rpc_server
