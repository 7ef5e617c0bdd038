#include "tools/cli/interrupt.h"

#include <csignal>

#include "tools/commands/exit_codes.h"

namespace tunefarm::tools::cli {
namespace {

std::atomic<bool> g_stop{false};

extern "C" void OnInterrupt(int) {
  if (g_stop.exchange(true)) {
    std::signal(SIGINT, SIG_DFL);
    std::raise(SIGINT);
  }
}

}  // namespace

std::atomic<bool>* StopOnInterrupt(bool also_sigterm) {
  std::signal(SIGINT, OnInterrupt);
  if (also_sigterm) std::signal(SIGTERM, OnInterrupt);
  return &g_stop;
}

int UnlessInterrupted(int code) { return g_stop.load() ? kExitInterrupted : code; }

}  // namespace tunefarm::tools::cli
