// Turns a stop request (the CLI's Ctrl-C flag) into one cancel call while a farm job is watched:
// the watch blocks on the tracker's stream, so a thread polls the flag beside it.
#pragma once

#include <atomic>
#include <functional>
#include <thread>

namespace tunefarm::client {

class CancelOnStop {
 public:
  // Polls `stop` (null: never) every 100 ms and calls `cancel` once when it is set.
  CancelOnStop(const std::atomic<bool>* stop, std::function<void()> cancel);
  // Stops polling; waits for a cancel call in progress.
  ~CancelOnStop();
  CancelOnStop(const CancelOnStop&) = delete;
  CancelOnStop& operator=(const CancelOnStop&) = delete;

 private:
  std::atomic<bool> watching_{true};
  std::thread thread_;
};

}  // namespace tunefarm::client
