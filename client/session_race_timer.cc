#include "client/session_race_timer.h"

#include <filesystem>
#include <memory>

#include "client/remote_session.h"
#include "runtime/measure/library_file.h"

namespace tunefarm::client {
namespace {

// What a worker's session holds at most (rpc_server::SessionLimits): larger modules are refused
// here, before they are read.
constexpr int64_t kSessionBytes = int64_t{2} << 30;

}  // namespace

driver::ModuleRaceTimer SessionRaceTimer(FarmClientOptions farm, std::string device_key,
                                         int threads, int rounds, double slot_ms) {
  return [farm = std::move(farm), device_key = std::move(device_key), threads, rounds, slot_ms](
             const std::string& incumbent,
             const std::string& challenger) -> absl::StatusOr<driver::RaceTimes> {
    // Both read before a worker is borrowed: a missing or oversized file holds no device.
    const std::string* paths[2] = {&incumbent, &challenger};
    std::string bytes[2];
    for (int m = 0; m < 2; ++m) {
      absl::StatusOr<std::string> read =
          runtime::measure::ReadLibraryFile(*paths[m], kSessionBytes / 2);
      if (!read.ok()) return read.status();
      bytes[m] = *std::move(read);
    }
    absl::StatusOr<std::unique_ptr<RemoteSession>> session =
        RemoteSession::Open(farm, device_key, /*wait_s=*/120);
    if (!session.ok()) return session.status();
    std::string ids[2];
    for (int m = 0; m < 2; ++m) {
      absl::StatusOr<UploadedModule> module =
          (*session)->Upload(bytes[m], std::filesystem::path(*paths[m]).filename().string());
      if (!module.ok()) return module.status();
      ids[m] = module->module_id;
    }
    // One repeat per slot: the worker raises the slot's runs until it lasts slot_ms.
    SessionTiming slot;
    slot.repeat = 1;
    slot.min_repeat_ms = slot_ms;
    slot.threads = threads;
    driver::RaceTimes times;
    times.timed_by = (*session)->worker_id();
    for (int r = 0; r < rounds; ++r) {
      double sum[2] = {0, 0};
      const int order[4] = {r % 2, 1 - r % 2, 1 - r % 2, r % 2};
      for (int m : order) {
        absl::StatusOr<std::vector<double>> seconds = (*session)->TimeModel(ids[m], slot);
        if (!seconds.ok()) return seconds.status();
        if (seconds->empty()) return absl::InternalError("the worker timed no repeat");
        sum[m] += seconds->front();
      }
      times.incumbent.push_back(sum[0] / 2);
      times.challenger.push_back(sum[1] / 2);
    }
    return times;
  };
}

}  // namespace tunefarm::client
