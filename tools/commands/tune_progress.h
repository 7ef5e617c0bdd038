// The tune command's progress line: trials done/total, best GFLOPS so far, errors, rate and ETA.
// On a terminal it redraws one line; otherwise (logs, CI) it prints a line per update.
#pragma once

#include <ostream>
#include <string>

#include "tuner/tuning_loop.h"

namespace tunefarm::tools {

// "[ 48/500]  best 98.31 GFLOPS  errors 2  3.1 trials/s  ETA 2m26s".
std::string FormatTuneProgress(const tuner::TuneProgress& p);

class TuneProgressPrinter {
 public:
  TuneProgressPrinter(std::ostream& out, bool redraw) : out_(out), redraw_(redraw) {}
  void Update(const tuner::TuneProgress& p);
  // Ends a redrawn line so later output starts on its own line.
  void Finish();

 private:
  std::ostream& out_;
  bool redraw_;
  size_t last_width_ = 0;
};

}  // namespace tunefarm::tools
