// Ctrl-C for the commands that run long: the first asks the work to stop after what is in flight
// (everything measured is recorded), a second stops the process at once.
#pragma once

#include <atomic>

namespace tunefarm::tools::cli {

// Installs the handler (for SIGTERM too when `also_sigterm`) and returns the flag it sets.
std::atomic<bool>* StopOnInterrupt(bool also_sigterm = false);
// A tuning command stopped by Ctrl-C exits 130, locally and through a farm alike, whatever it
// managed to record before it stopped.
int UnlessInterrupted(int code);

}  // namespace tunefarm::tools::cli
