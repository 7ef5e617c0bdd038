// A 3x3 stride-1 conv workload whose algorithm a model build chose from records of both direct
// and Winograd: what `model build --race` settles by timing the model itself.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace tunefarm::driver {

struct AlgorithmChoice {
  std::string workload;                    // its conv2d_nchwc key
  int convs = 0;                           // the model's convs of it
  int64_t chosen = 0;                      // Winograd's m, or 0 for the direct conv, as built
  bool forced = false;                     // chosen by the build's options, not by the records
  std::map<int64_t, double> best_seconds;  // each algorithm's best record, by m (0: direct)
};

}  // namespace tunefarm::driver
