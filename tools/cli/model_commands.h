// The model commands: model info, passes, build, run, tune and test.
#pragma once

#include "tools/cli/command_table.h"

namespace tunefarm::tools::cli {

void AddModelCommands(CLI::App& app, CommandTable& table);

}  // namespace tunefarm::tools::cli
