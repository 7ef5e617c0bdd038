// Checks of flag values that say what is wrong in words ("--priority: must be in 1..100, got 0"),
// where CLI11's own print "Value 0 not in range 0.000000 to" a 300-digit bound; and the option
// sets several commands share.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

#include "client/farm_client.h"
#include "tools/commands/tune_command.h"

namespace tunefarm::tools::cli {

// A check of a number against `fits`, which says what it must be in `requirement`.
CLI::Validator NumberCheck(std::function<bool(double)> fits, std::string requirement);
CLI::Validator InRange(double lo, double hi);
CLI::Validator AtLeast(double lo, const char* unit = "");
CLI::Validator Above(double lo, const char* unit = "");

// An input file that must exist and be readable before the command starts (a usage error, exit 2,
// like every input refused before anything ran): "cannot read 'x.te': No such file or directory".
CLI::Validator ReadableFile();

// --tracker, --token-file and --tls-root-cert: how every farm command reaches the tracker.
void AddFarmAddress(CLI::App* cmd, client::FarmAddress& farm);
// --timing hot|weights|cold, with the default a command uses.
void AddTimingOption(CLI::App* cmd, TuneCommandOptions& t, const std::string& default_name);
// The search and measurement flags `tune` and `model tune` share: --trials (said as
// `trials_help`), --tuner, --db, --batch-size, --seed, --threads, --repeat, --min-repeat-ms,
// --timing (defaulting to `default_timing`), --run-timeout, --build-timeout.
void AddTuningFlags(CLI::App* cmd, TuneCommandOptions& t, const std::string& trials_help,
                    const std::string& default_timing);

}  // namespace tunefarm::tools::cli
