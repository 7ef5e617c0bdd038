// SessionRunner: the worker's remote sessions, each in a process of its own (the session program,
// tunefarm-rpc-server --serve-sessions) with a thread here that feeds it the session's calls in
// arrival order. A library that crashes, hangs or eats memory costs its session only: the
// stream's read loop never waits on a call, closing a session kills its process, and the worker
// and its other sessions go on.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rpc_server/session_host.h"

namespace tunefarm::v1 {
class SessionCall;
class SessionReply;
}  // namespace tunefarm::v1

namespace tunefarm::rpc_server {

struct SessionRunnerOptions {
  // Serves one session: `program` `program_args` --serve-sessions <SessionServerArgs>.
  std::string program;
  std::vector<std::string> program_args;
  std::string dir;  // each session's uploads go under dir/sN, removed when it ends
  SessionLimits limits;
  int max_sessions = 8;  // open at once; past it a new session is RESOURCE_EXHAUSTED
};

class SessionRunner {
 public:
  // Gets each call's reply on a session's thread; never called once the runner is destroyed.
  using ReplyFn = std::function<void(const v1::SessionReply&)>;

  explicit SessionRunner(SessionRunnerOptions options);
  // Kills every session's process and joins its thread: nothing is left running.
  ~SessionRunner();
  SessionRunner(const SessionRunner&) = delete;
  SessionRunner& operator=(const SessionRunner&) = delete;

  // Queues the call on its session (starting the session's process with its first call). Each
  // call gets exactly one reply. A close kills the session's process at once, so a call that
  // hangs ends with an error and the close is answered.
  void Submit(const v1::SessionCall& call, ReplyFn reply);
  // Ends every session (the connection ended): their processes are killed, calls not yet
  // answered get no reply.
  void CloseAll();
  // The largest reply the tracker accepts (from Registered); sessions opened later use it.
  void SetMaxReplyBytes(int64_t bytes);
  size_t open_sessions() const;

  struct State;

 private:
  std::shared_ptr<State> state_;
};

}  // namespace tunefarm::rpc_server
