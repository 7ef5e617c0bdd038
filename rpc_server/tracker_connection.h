// TrackerConnection: one WorkerService.Connect stream to the tracker, from registration to its
// end. Writes from any thread are serialized; a keeper thread sends heartbeats and, once writes
// are closed, cancels a stream the tracker does not end by itself. gRPC stays in the .cc.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "runtime/clock.h"

namespace tunefarm::v1 {
class Register;
class Registered;
class TrackerMessage;
class WorkerMessage;
}  // namespace tunefarm::v1

namespace tunefarm::rpc_server {

struct ConnectionOptions {
  std::string tracker;       // HOST:PORT
  std::string token;         // empty: no authorization metadata
  std::string tls_root_pem;  // non-empty: TLS, verifying the tracker against this CA (PEM)
  int64_t max_message_bytes = 512ll << 20;
  const runtime::Clock* clock = &runtime::SystemClock();  // heartbeats' send times
};

class TrackerConnection {
 public:
  explicit TrackerConnection(const ConnectionOptions& options);
  // Cancels the stream if it is still open and waits for the keeper thread.
  ~TrackerConnection();
  TrackerConnection(const TrackerConnection&) = delete;
  TrackerConnection& operator=(const TrackerConnection&) = delete;

  // Opens the stream, sends `hello` and waits for the tracker's answer. The tracker's closing
  // status when it refuses (Unauthenticated, InvalidArgument, ...); Unavailable when it cannot
  // be reached. Call once, before anything else.
  absl::Status Register(const v1::Register& hello, v1::Registered* registered);
  // Sends a heartbeat every `interval_ms` from now on, naming the lease `lease_in_hand` returns
  // (0: none; called on the heartbeat thread, so it must be safe to call from there).
  void StartHeartbeats(int interval_ms, std::function<int64_t()> lease_in_hand = nullptr);

  // The next message; false when the stream has ended (then call Finish). One reader at a time.
  bool Read(v1::TrackerMessage* message);
  // Thread-safe. False when the stream is broken or writes were closed.
  bool Write(const v1::WorkerMessage& message);
  // Tells the tracker nothing more will come; if the stream has not ended `grace_s` later, it
  // is cancelled (Read then returns false).
  void CloseWrites(double grace_s);
  // Ends the stream now from any thread (Stop); Read returns false soon after.
  void Cancel();
  // The stream's final status, after Read returned false.
  absl::Status Finish();

  struct State;

 private:
  void Keep();
  std::unique_ptr<State> state_;
};

}  // namespace tunefarm::rpc_server
