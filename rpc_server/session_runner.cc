#include "rpc_server/session_runner.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>

#include "proto/tunefarm/v1/session.pb.h"
#include "rpc_server/session_host.h"
#include "rpc_server/worker_log.h"

namespace tunefarm::rpc_server {
namespace {

// How long destruction waits for a running call before leaving it to its thread.
constexpr std::chrono::seconds kJoinGrace{2};

}  // namespace

struct SessionRunner::State {
  explicit State(std::string dir) : host(std::move(dir)) {}

  SessionHost host;
  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::function<void()>> tasks;
  bool busy = false;
  bool stopping = false;
  // Held while a reply is handed over, and by destruction to end replies for good: a reply
  // callback points into the worker, which is gone once the runner is.
  std::mutex reply_mu;
  bool replies_off = false;
};

namespace {

void Serve(const std::shared_ptr<SessionRunner::State>& state) {
  std::unique_lock<std::mutex> lock(state->mu);
  for (;;) {
    state->cv.wait(lock, [&] { return state->stopping || !state->tasks.empty(); });
    if (state->stopping) return;
    std::function<void()> task = std::move(state->tasks.front());
    state->tasks.pop_front();
    state->busy = true;
    lock.unlock();
    task();
    lock.lock();
    state->busy = false;
    state->cv.notify_all();
  }
}

}  // namespace

SessionRunner::SessionRunner(std::string dir) : state_(std::make_shared<State>(std::move(dir))) {
  // The thread shares the state, so a call left running past destruction still has it.
  std::thread([state = state_] { Serve(state); }).detach();
}

SessionRunner::~SessionRunner() {
  {
    std::unique_lock<std::mutex> lock(state_->mu);
    state_->stopping = true;
    state_->tasks.clear();
    state_->cv.notify_all();
    if (!state_->cv.wait_for(lock, kJoinGrace, [&] { return !state_->busy; })) {
      WorkerLog(LogLevel::kWarn, "a session call is still running at exit: left to its thread");
    }
  }
  std::lock_guard<std::mutex> lock(state_->reply_mu);
  state_->replies_off = true;
}

void SessionRunner::Submit(const v1::SessionCall& call, ReplyFn reply) {
  std::weak_ptr<State> weak = state_;
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->tasks.push_back([weak, call, reply = std::move(reply)] {
    std::shared_ptr<State> state = weak.lock();
    if (state == nullptr) return;
    v1::SessionReply answer;
    state->host.Handle(call, &answer);
    std::lock_guard<std::mutex> reply_lock(state->reply_mu);
    if (!state->replies_off) reply(answer);
  });
  state_->cv.notify_all();
}

void SessionRunner::CloseAll() {
  std::weak_ptr<State> weak = state_;
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->tasks.push_back([weak] {
    if (std::shared_ptr<State> state = weak.lock()) state->host.CloseAll();
  });
  state_->cv.notify_all();
}

}  // namespace tunefarm::rpc_server
