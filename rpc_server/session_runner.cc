#include "rpc_server/session_runner.h"

#include <algorithm>
#include <condition_variable>
#include <csignal>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "proto/tunefarm/v1/session.pb.h"
#include "rpc_server/message_frames.h"
#include "rpc_server/session_program.h"
#include "rpc_server/session_server.h"
#include "rpc_server/worker_log.h"
#include "runtime/measure/child_process.h"

namespace tunefarm::rpc_server {
namespace {

struct Pending {
  v1::SessionCall call;
  SessionRunner::ReplyFn reply;
};

// One session: its queue, its process and the thread that feeds it. Fields under State::mu.
struct Slot {
  std::string dir;
  std::deque<Pending> queue;
  std::condition_variable cv;
  bool closing = false;  // closed, or the connection ended: the process is killed
  pid_t pid = 0;         // the running process, so that a close can kill it
  std::thread thread;
};

const char* CallName(const v1::SessionCall& call) {
  switch (call.call_case()) {
    case v1::SessionCall::kUpload:
      return "UploadModule";
    case v1::SessionCall::kAlloc:
      return "AllocArray";
    case v1::SessionCall::kCopyTo:
      return "CopyToArray";
    case v1::SessionCall::kCopyFrom:
      return "CopyFromArray";
    case v1::SessionCall::kCallFunction:
      return "CallFunction";
    case v1::SessionCall::kTimeFunction:
      return "TimeFunction";
    case v1::SessionCall::kTimeModel:
      return "TimeModel";
    case v1::SessionCall::kClose:
      return "CloseSession";
    case v1::SessionCall::CALL_NOT_SET:
      break;
  }
  return "an empty call";
}

v1::SessionReply ErrorReply(const v1::SessionCall& call, absl::StatusCode code,
                            std::string message) {
  v1::SessionReply reply;
  reply.set_call_id(call.call_id());
  reply.set_status_code(static_cast<int>(code));  // absl and gRPC share the codes
  reply.set_status_message(std::move(message));
  return reply;
}

}  // namespace

struct SessionRunner::State {
  explicit State(SessionRunnerOptions o) : options(std::move(o)) {}

  SessionRunnerOptions options;
  mutable std::mutex mu;
  std::map<std::string, std::shared_ptr<Slot>> sessions;
  std::vector<std::shared_ptr<Slot>> ended;  // threads done or ending, joined later
  int64_t next_dir = 1;
  bool stopping = false;
  // Held while a reply is handed over, and by destruction to end replies for good: a reply
  // callback points into the worker.
  std::mutex reply_mu;
  bool replies_off = false;

  void Deliver(const ReplyFn& reply, const v1::SessionReply& answer) {
    std::lock_guard<std::mutex> lock(reply_mu);
    if (!replies_off) reply(answer);
  }

  // Under mu: ends the session's process now (a call in it ends with an error).
  static void Kill(Slot& slot) {
    slot.closing = true;
    if (slot.pid > 0) kill(slot.pid, SIGKILL);  // not reaped yet, so the pid is still ours
    slot.cv.notify_all();
  }

  void Run(const std::shared_ptr<Slot>& slot);
};

void SessionRunner::State::Run(const std::shared_ptr<Slot>& slot) {
  SessionServerConfig config;
  {
    std::lock_guard<std::mutex> lock(mu);
    config.dir = slot->dir;
    config.limits = options.limits;
  }
  std::vector<std::string> args = options.program_args;
  args.push_back(kServeSessionsFlag);
  for (std::string& word : SessionServerArgs(config)) args.push_back(std::move(word));
  std::unique_ptr<runtime::measure::ChildProcess> child;
  std::string ended_how;  // set once the process has ended
  std::optional<Pending> close;
  for (;;) {
    Pending p;
    bool closing = false;
    {
      std::unique_lock<std::mutex> lock(mu);
      slot->cv.wait(lock, [&] { return !slot->queue.empty() || slot->closing; });
      if (slot->queue.empty()) break;
      p = std::move(slot->queue.front());
      slot->queue.pop_front();
      closing = slot->closing;
    }
    if (p.call.has_close()) {
      close = std::move(p);
      break;
    }
    if (closing) {
      Deliver(p.reply,
              ErrorReply(p.call, absl::StatusCode::kCancelled,
                         absl::StrCat("the session was closed before ", CallName(p.call), " ran")));
      continue;
    }
    if (child == nullptr && ended_how.empty()) {
      absl::StatusOr<std::unique_ptr<runtime::measure::ChildProcess>> started =
          runtime::measure::ChildProcess::Start(options.program, args);
      if (!started.ok()) {
        Deliver(p.reply, ErrorReply(p.call, absl::StatusCode::kUnavailable,
                                    absl::StrCat("the session process cannot start: ",
                                                 started.status().message())));
        continue;
      }
      child = *std::move(started);
      std::lock_guard<std::mutex> lock(mu);
      slot->pid = child->pid();
      if (slot->closing) kill(slot->pid, SIGKILL);
    }
    if (child == nullptr) {
      Deliver(p.reply, ErrorReply(p.call, absl::StatusCode::kFailedPrecondition,
                                  absl::StrCat("this session's process ended earlier (", ended_how,
                                               "); open a new session")));
      continue;
    }
    v1::SessionReply answer;
    std::string error;
    const int64_t max_reply = config.limits.max_reply_bytes + kFrameHeadroom;
    const bool answered =
        WriteFrame(child->fd(), p.call, config.limits.memory_bytes + kFrameHeadroom).ok() &&
        ReadFrame(child->fd(), &answer, max_reply, &error) == FrameRead::kMessage;
    if (answered) {
      Deliver(p.reply, answer);
      continue;
    }
    bool closed = false;
    {
      std::lock_guard<std::mutex> lock(mu);
      slot->pid = 0;
      closed = slot->closing;
    }
    ended_how = child->Reap(/*grace_ms=*/0);
    child.reset();
    if (closed) {
      Deliver(p.reply,
              ErrorReply(p.call, absl::StatusCode::kCancelled,
                         absl::StrCat("the session was closed while ", CallName(p.call), " ran")));
      continue;
    }
    WorkerLog(LogLevel::kWarn,
              absl::StrCat("a session's process ended during ", CallName(p.call), ": ", ended_how));
    Deliver(p.reply,
            ErrorReply(p.call, absl::StatusCode::kUnavailable,
                       absl::StrCat("the session's process ended (", ended_how, ") during ",
                                    CallName(p.call),
                                    "; its modules and arrays are gone: open a new session")));
  }
  {
    std::lock_guard<std::mutex> lock(mu);
    slot->pid = 0;
  }
  child.reset();  // closes its input, so it exits; killed past a second
  std::error_code ec;
  std::filesystem::remove_all(config.dir, ec);
  if (close.has_value()) {
    v1::SessionReply answer;
    answer.set_call_id(close->call.call_id());
    answer.mutable_close();
    Deliver(close->reply, answer);
  }
}

SessionRunner::SessionRunner(SessionRunnerOptions options)
    : state_(std::make_shared<State>(std::move(options))) {}

SessionRunner::~SessionRunner() {
  std::vector<std::shared_ptr<Slot>> slots;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    state_->stopping = true;
    for (auto& [id, slot] : state_->sessions) {
      State::Kill(*slot);
      slots.push_back(slot);
    }
    state_->sessions.clear();
    for (std::shared_ptr<Slot>& slot : state_->ended) slots.push_back(std::move(slot));
    state_->ended.clear();
  }
  {
    // Calls still queued end without a reply: the worker is going away.
    std::lock_guard<std::mutex> lock(state_->reply_mu);
    state_->replies_off = true;
  }
  // Every process is killed, so each thread's read or write ends and the thread returns.
  for (std::shared_ptr<Slot>& slot : slots) {
    if (slot->thread.joinable()) slot->thread.join();
  }
}

void SessionRunner::Submit(const v1::SessionCall& call, ReplyFn reply) {
  State& state = *state_;
  std::vector<std::shared_ptr<Slot>> done;
  std::optional<v1::SessionReply> answer_now;
  {
    std::lock_guard<std::mutex> lock(state.mu);
    if (state.stopping) return;
    // Threads of sessions closed earlier have ended or are ending: join them outside the lock.
    done.swap(state.ended);
    auto it = state.sessions.find(call.session_id());
    if (call.has_close()) {
      if (it == state.sessions.end()) {
        // Never used on this worker: nothing to free.
        answer_now.emplace();
        answer_now->set_call_id(call.call_id());
        answer_now->mutable_close();
      } else {
        std::shared_ptr<Slot> slot = it->second;
        slot->queue.push_back({call, std::move(reply)});
        State::Kill(*slot);
        state.sessions.erase(it);
        state.ended.push_back(std::move(slot));
      }
    } else if (it == state.sessions.end() &&
               static_cast<int>(state.sessions.size()) >= state.options.max_sessions) {
      answer_now = ErrorReply(call, absl::StatusCode::kResourceExhausted,
                              absl::StrCat("this worker already runs ", state.sessions.size(),
                                           " sessions, its limit: close one first"));
    } else {
      if (it == state.sessions.end()) {
        auto slot = std::make_shared<Slot>();
        slot->dir = absl::StrCat(state.options.dir, "/s", state.next_dir++);
        it = state.sessions.emplace(call.session_id(), slot).first;
        // The thread shares the state, so it never outlives what it touches.
        slot->thread = std::thread([state = state_, slot] { state->Run(slot); });
      }
      it->second->queue.push_back({call, std::move(reply)});
      it->second->cv.notify_all();
    }
  }
  if (answer_now.has_value()) state.Deliver(reply, *answer_now);
  for (std::shared_ptr<Slot>& slot : done) {
    if (slot->thread.joinable()) slot->thread.join();
  }
}

void SessionRunner::CloseAll() {
  std::lock_guard<std::mutex> lock(state_->mu);
  for (auto& [id, slot] : state_->sessions) {
    State::Kill(*slot);
    state_->ended.push_back(slot);
  }
  state_->sessions.clear();
}

void SessionRunner::SetMaxReplyBytes(int64_t bytes) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->options.limits.max_reply_bytes = std::max<int64_t>(1, bytes - kFrameHeadroom);
}

size_t SessionRunner::open_sessions() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->sessions.size();
}

}  // namespace tunefarm::rpc_server
