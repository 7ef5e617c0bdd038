// `tunefarm session --tracker HOST:PORT --key KEY lib.so`: runs one built module on a device of
// the farm (through the tracker, so the device may sit behind NAT) on seeded random inputs and
// prints its time.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "client/farm_client.h"

namespace tunefarm::tools {

struct SessionCommandOptions {
  client::FarmAddress farm;
  std::string key;       // the device key to borrow a worker of
  std::string library;   // built by `tunefarm build` for the device's target
  std::string function;  // empty: the library's only function
  std::string bind;      // values of symbolic sizes and integer arguments: n=512
  int repeat = 5;
  double min_repeat_ms = 50;
  int threads = 0;
  uint64_t seed = 1;
  double wait_s = 30;  // for an idle worker of the key
  // Set: another build of the same computation, timed against `library` on the same device in
  // `rounds` alternating rounds (one repeat of at least min_repeat_ms each).
  std::string compare;
  int rounds = 10;
};

// 0 with the device, the signature and, last, "median_ms=<ms>" (with --compare: a line per
// library and "speedup of OTHER over LIB: ..." with its 95 % CI, runtime/measure/
// interleaved_timing.h); 1 with "tunefarm: ..." when the
// farm or the device refuses (no idle worker, a library the device cannot load, a bad argument);
// 2 for bad options (missing file, unknown function, unbound size).
int RunSessionCommand(const SessionCommandOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tunefarm::tools
