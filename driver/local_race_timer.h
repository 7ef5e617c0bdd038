// The ModuleRaceTimer of `model build --race` on this machine: both modules loaded in this
// process on the same seeded random inputs, timed in turns at the runtime pool's thread count.
#pragma once

#include "driver/algorithm_race.h"

namespace tunefarm::driver {

// `rounds` rounds, each four slots of at least `slot_ms` (incumbent, challenger, challenger,
// incumbent; reversed every other round, so that a drift of the machine's speed falls on both);
// a round's time of a module is the mean run of its two slots.
ModuleRaceTimer LocalRaceTimer(int rounds = 16, double slot_ms = 100);

}  // namespace tunefarm::driver
