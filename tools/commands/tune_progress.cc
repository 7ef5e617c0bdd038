#include "tools/commands/tune_progress.h"

#include <cstdio>

namespace tunefarm::tools {
namespace {

std::string FormatDuration(double seconds) {
  long s = static_cast<long>(seconds + 0.5);
  char buf[32];
  if (s >= 3600) {
    std::snprintf(buf, sizeof(buf), "%ldh%02ldm", s / 3600, (s / 60) % 60);
  } else if (s >= 60) {
    std::snprintf(buf, sizeof(buf), "%ldm%02lds", s / 60, s % 60);
  } else {
    std::snprintf(buf, sizeof(buf), "%lds", s);
  }
  return buf;
}

}  // namespace

std::string FormatTuneProgress(const tuner::TuneProgress& p) {
  char buf[256];
  int width = static_cast<int>(std::to_string(p.trials_total).size());
  std::string line;
  std::snprintf(buf, sizeof(buf), "[%*d/%d]", width, p.trials_done, p.trials_total);
  line += buf;
  if (p.best_seconds > 0) {
    std::snprintf(buf, sizeof(buf), "  best %.2f GFLOPS (%.4f ms)", p.best_gflops,
                  p.best_seconds * 1e3);
  } else {
    std::snprintf(buf, sizeof(buf), "  best -");
  }
  line += buf;
  std::snprintf(buf, sizeof(buf), "  errors %d", p.errors);
  line += buf;
  if (p.elapsed_seconds > 0 && p.trials_done > 0) {
    double rate = p.trials_done / p.elapsed_seconds;
    std::snprintf(buf, sizeof(buf), "  %.1f trials/s", rate);
    line += buf;
    int left = p.trials_total - p.trials_done;
    if (left > 0) line += "  ETA " + FormatDuration(left / rate);
  }
  return line;
}

void TuneProgressPrinter::Update(const tuner::TuneProgress& p) {
  std::string line = FormatTuneProgress(p);
  if (!redraw_) {
    out_ << line << "\n" << std::flush;
    return;
  }
  size_t width = line.size();
  if (width < last_width_) line.append(last_width_ - width, ' ');
  last_width_ = width;
  out_ << "\r" << line << std::flush;
}

void TuneProgressPrinter::Finish() {
  if (redraw_ && last_width_ > 0) out_ << "\n" << std::flush;
  last_width_ = 0;
}

}  // namespace tunefarm::tools
