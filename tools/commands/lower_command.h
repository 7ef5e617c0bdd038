// `tunefarm lower FILE.te`: prints the lowered IR of a TE script's schedule over its args.
#pragma once

#include <ostream>
#include <string>

namespace tunefarm::tools {

struct LowerOptions {
  std::string file;
};

// 0 on success (the IR on `out`); 1 with one "tunefarm: <message>" line on `err` on failure.
// The pass pipeline follows the environment (TUNEFARM_DUMP_IR, TUNEFARM_DISABLE_PASS, ...).
int RunLowerCommand(const LowerOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tunefarm::tools
