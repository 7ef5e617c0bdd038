#include "client/cancel_on_stop.h"

#include <chrono>

namespace tunefarm::client {

CancelOnStop::CancelOnStop(const std::atomic<bool>* stop, std::function<void()> cancel) {
  if (stop == nullptr) return;
  thread_ = std::thread([this, stop, cancel = std::move(cancel)] {
    while (watching_.load()) {
      if (stop->load()) {
        cancel();
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
}

CancelOnStop::~CancelOnStop() {
  watching_ = false;
  if (thread_.joinable()) thread_.join();
}

}  // namespace tunefarm::client
