// TUNEFARM_LOG as any environment may set it: the check never crashes, and what it accepts
// spdlog's own reader takes without error.
#include <cstdint>
#include <cstdlib>
#include <spdlog/cfg/helpers.h>
#include <string>

#include "tools/cli/environment.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (tunefarm::tools::cli::CheckLogLevels(text).empty()) {
    spdlog::cfg::helpers::load_levels(text);
  }
  return 0;
}
