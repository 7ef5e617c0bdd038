// SessionHost: the worker's side of remote sessions. The tracker relays each client call
// (upload a module, alloc/copy arrays, call or time a function, close) over the worker stream;
// this holds the session's modules and arrays and answers each call with a SessionReply.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace tunefarm::v1 {
class SessionCall;
class SessionReply;
}  // namespace tunefarm::v1

namespace tunefarm::rpc_server {

// What one session may hold on this device.
struct SessionLimits {
  // Arrays plus uploaded libraries, in bytes; past it an alloc or upload is RESOURCE_EXHAUSTED.
  int64_t memory_bytes = int64_t{2} << 30;
  // The largest reply (a CopyFromArray's bytes): the tracker's message limit, less headroom.
  int64_t max_reply_bytes = int64_t{255} << 20;
};

class SessionHost {
 public:
  // Uploaded libraries are written under `dir` (created when needed).
  explicit SessionHost(std::string dir, SessionLimits limits = {});
  ~SessionHost();
  SessionHost(const SessionHost&) = delete;
  SessionHost& operator=(const SessionHost&) = delete;

  // Answers one relayed call. Errors are the reply's status (a grpc::StatusCode and message):
  // NotFound for an unknown session object, InvalidArgument for bad input (a size mismatch, an
  // argument the kernel's signature rejects).
  void Handle(const v1::SessionCall& call, v1::SessionReply* reply);
  // Frees every session's modules and arrays (the connection ended).
  void CloseAll();
  size_t open_sessions() const;

  struct Session;

 private:
  Session& SessionFor(const std::string& session_id);

  std::string dir_;
  SessionLimits limits_;
  mutable std::mutex mu_;
  std::map<std::string, std::unique_ptr<Session>> sessions_;
  int64_t next_id_ = 1;
};

}  // namespace tunefarm::rpc_server
