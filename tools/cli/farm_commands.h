// The farm's commands: demo, tracker, worker, jobs, session and workers.
#pragma once

#include "tools/cli/command_table.h"

namespace tunefarm::tools::cli {

void AddFarmCommands(CLI::App& app, CommandTable& table);

}  // namespace tunefarm::tools::cli
