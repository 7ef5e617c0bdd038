// The ModuleRaceTimer of a model job's last step: both modules uploaded to a worker of the device
// key in one remote session and timed there in turns, as the model will run on that device.
#pragma once

#include <string>

#include "client/farm_client.h"
#include "driver/algorithm_race.h"

namespace tunefarm::client {

// Each call borrows a worker of `device_key` (waiting up to 120 s) and gives it back, so that no
// session holds more than the two modules it races. Rounds as LocalRaceTimer's: `rounds` of four
// slots of at least `slot_ms` each, at `threads` (0: the device's default).
driver::ModuleRaceTimer SessionRaceTimer(FarmClientOptions farm, std::string device_key,
                                         int threads, int rounds = 16, double slot_ms = 100);

}  // namespace tunefarm::client
