#include "farm_api/worker_info.h"

namespace tunefarm::farm_api {

std::string_view WorkerStateName(WorkerState state) {
  switch (state) {
    case WorkerState::kIdle:
      return "idle";
    case WorkerState::kBusy:
      return "measuring";
    case WorkerState::kSession:
      return "session";
    case WorkerState::kDraining:
      return "draining";
    case WorkerState::kGone:
      return "gone";
  }
  return "unknown";
}

}  // namespace tunefarm::farm_api
