// The `tunefarm` command line: CLI11 parses the arguments into each subcommand's options and the
// subcommand (tools/commands/) does the work. Only this file sees CLI11, which is slow to compile.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>
#include <spdlog/cfg/helpers.h>

#include "tools/commands/build_command.h"
#include "tools/commands/lower_command.h"
#include "tools/commands/run_command.h"

namespace {

constexpr int kUsageError = 2;

}  // namespace

int main(int argc, char** argv) {
  // Per-logger levels, e.g. TUNEFARM_LOG="passes=debug,ir=warn"; loggers made later pick them up.
  if (const char* levels = std::getenv("TUNEFARM_LOG")) spdlog::cfg::helpers::load_levels(levels);
  CLI::App app{"tunefarm: a tensor compiler and autotuning service"};
  app.require_subcommand(1);

  tunefarm::tools::LowerOptions lower;
  CLI::App* lower_cmd = app.add_subcommand("lower", "Print the lowered IR of a TE script");
  lower_cmd->add_option("file", lower.file, "The .te script")->required();

  tunefarm::tools::RunOptions run;
  CLI::App* run_cmd = app.add_subcommand(
      "run",
      "Run a TE script's schedule and its unscheduled definition on random inputs and "
      "compare the outputs");
  run_cmd->add_option("file", run.file, "The .te script")->required();
  run_cmd->add_option("--bind", run.bind, "Values of the symbolic variables: n=67,m=45");
  run_cmd
      ->add_option("--target", run.target,
                   "Where to run: interp, or llvm [-mcpu=...] (compiled for this machine)")
      ->capture_default_str();
  run_cmd->add_option("--seed", run.seed, "Seed of the random inputs")->capture_default_str();
  run_cmd->add_option("--rtol", run.rtol, "Relative tolerance")->capture_default_str();
  run_cmd->add_option("--atol", run.atol, "Absolute tolerance")->capture_default_str();
  run_cmd->add_flag("--time", run.time,
                    "Also time the scheduled function; last line: median_ms=<ms> gflops=<n>");
  run_cmd->add_option("--threads", run.threads,
                      "Parallel width of compiled kernels (default: TUNEFARM_NUM_THREADS or all "
                      "cores)");

  tunefarm::tools::BuildOptions build;
  CLI::App* build_cmd =
      app.add_subcommand("build", "Compile a TE script's schedule into a shared library");
  build_cmd->add_option("file", build.file, "The .te script")->required();
  build_cmd
      ->add_option("--target", build.target,
                   "llvm, llvm -mtriple=aarch64-linux-gnu -mattr=+neon, "
                   "llvm -mtriple=x86_64-linux-gnu -mcpu=znver3, ...")
      ->capture_default_str();
  build_cmd->add_option("-o,--output", build.output, "The shared library to write")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "tunefarm: " << e.what() << " (see tunefarm --help)\n";
    return kUsageError;
  }
  if (lower_cmd->parsed()) return tunefarm::tools::RunLowerCommand(lower, std::cout, std::cerr);
  if (build_cmd->parsed()) return tunefarm::tools::RunBuildCommand(build, std::cout, std::cerr);
  return tunefarm::tools::RunRunCommand(run, std::cout, std::cerr);
}
