// SessionRunner: the worker's remote-session calls, run in arrival order on a thread of their
// own. A session call can block for as long as the code a client uploaded wants (a kernel that
// never returns, a library constructor that hangs); off the stream's read loop it stalls only
// the sessions, while leases, cancels, drains and Stop keep being read.
#pragma once

#include <functional>
#include <memory>
#include <string>

namespace tunefarm::v1 {
class SessionCall;
class SessionReply;
}  // namespace tunefarm::v1

namespace tunefarm::rpc_server {

class SessionRunner {
 public:
  // Gets each call's reply on the runner's thread; never called once the runner is destroyed.
  using ReplyFn = std::function<void(const v1::SessionReply&)>;

  // Uploaded libraries go under `dir` (SessionHost).
  explicit SessionRunner(std::string dir);
  // Drops the calls not started. A call still running after `join_grace_s` is left to end on
  // its own thread, which owns what it uses; its reply is dropped.
  ~SessionRunner();
  SessionRunner(const SessionRunner&) = delete;
  SessionRunner& operator=(const SessionRunner&) = delete;

  void Submit(const v1::SessionCall& call, ReplyFn reply);
  // Frees every session (the connection ended), after the calls submitted before.
  void CloseAll();

  struct State;

 private:
  std::shared_ptr<State> state_;
};

}  // namespace tunefarm::rpc_server
