// The `tunefarm` command line: CLI11 parses the arguments into each subcommand's options and the
// subcommand (tools/commands/) does the work. Only this file sees CLI11, which is slow to compile.
#include <CLI/CLI.hpp>
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <spdlog/cfg/helpers.h>

#include "tools/commands/best_command.h"
#include "tools/commands/build_command.h"
#include "tools/commands/lower_command.h"
#include "tools/commands/records_command.h"
#include "tools/commands/run_command.h"
#include "tools/commands/tune_command.h"

namespace {

constexpr int kUsageError = 2;

std::atomic<bool> g_stop{false};

// The first Ctrl-C asks the tuning loop to stop after the batch in flight (everything measured is
// recorded); a second one stops at once.
extern "C" void OnInterrupt(int) {
  if (g_stop.exchange(true)) {
    std::signal(SIGINT, SIG_DFL);
    std::raise(SIGINT);
  }
}

void AddTuneCommand(CLI::App& app, tunefarm::tools::TuneCommandOptions& t, CLI::App*& cmd) {
  cmd = app.add_subcommand(
      "tune",
      "Tune a workload (or a TE script with cfg knobs) on this machine and record "
      "every measurement");
  cmd->add_option("--workload", t.workload,
                  "Workload key, e.g. matmul:1024,1024,1024 (templates: matmul M,N,K; dense "
                  "M,N,K; batch_matmul B,M,N,K; conv2d and conv2d_nchwc N,C,H,W,O,KH,KW,stride,"
                  "pad; depthwise_conv2d and depthwise_conv2d_nchwc N,C,H,W,KH,KW,stride,pad)");
  cmd->add_option("--template", t.script,
                  "A TE script declaring knobs with cfg (instead of "
                  "--workload)");
  cmd->add_option("--bind", t.bind, "The script's symbolic sizes: n=512,m=256");
  cmd->add_option("--target", t.target, "llvm (this machine) or a cross target string")
      ->capture_default_str();
  cmd->add_option("--trials", t.trials, "Candidates to measure")->capture_default_str();
  cmd->add_option("--tuner", t.tuner, "xgb (model-based), random, grid or ga")
      ->capture_default_str();
  cmd->add_option("--db", t.db, "The record database (SQLite; created if missing)")
      ->capture_default_str();
  cmd->add_option("--batch-size", t.batch_size, "Candidates per batch")->capture_default_str();
  cmd->add_option("--early-stopping", t.early_stopping,
                  "Stop after this many trials without a new best (0: never)")
      ->capture_default_str();
  cmd->add_option("--seed", t.seed, "Seed of the search")->capture_default_str();
  cmd->add_option("--threads", t.threads, "Parallel width of measured kernels (0: all cores)")
      ->capture_default_str();
  cmd->add_option("--repeat", t.repeat, "Timed repeats per candidate")->capture_default_str();
  cmd->add_option("--min-repeat-ms", t.min_repeat_ms, "Shortest repeat, in ms")
      ->capture_default_str();
  cmd->add_option("--run-timeout", t.run_timeout_s, "Seconds a candidate may run")
      ->capture_default_str();
  cmd->add_option("--build-timeout", t.build_timeout_s, "Seconds a candidate may compile")
      ->capture_default_str();
  cmd->add_option("--device-key", t.device_key,
                  "Device key records are filed under (default: local-<cpu model>)");
  cmd->add_flag("!--no-transfer", t.transfer,
                "Do not warm the model from records of other shapes of the template");
  cmd->add_flag("!--no-progress", t.progress, "No progress line");
}

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
  run_cmd->add_option("--db", run.db,
                      "Record database: run a cfg script at its best recorded config");
  run_cmd->add_option("--device-key", run.device_key,
                      "Device key of the records (default: this machine's)");
  run_cmd->add_option("--threads", run.threads,
                      "Parallel width of compiled kernels (default: TUNEFARM_NUM_THREADS or all "
                      "cores)");

  tunefarm::tools::BuildOptions build;
  CLI::App* build_cmd =
      app.add_subcommand("build", "Compile a TE script's schedule into a shared library");
  build_cmd->add_option("file", build.file, "The .te script (or --workload)");
  build_cmd->add_option("--workload", build.workload,
                        "Build an operator-library workload instead, e.g. matmul:1024,1024,1024");
  build_cmd->add_option("--bind", build.bind, "Sizes of a script with cfg knobs: n=512");
  build_cmd->add_option("--db", build.db,
                        "Record database: build the best recorded config for this target and "
                        "device");
  build_cmd->add_option("--device-key", build.device_key,
                        "Device key of the records (default: this machine's)");
  build_cmd
      ->add_option("--target", build.target,
                   "llvm, llvm -mtriple=aarch64-linux-gnu -mattr=+neon, "
                   "llvm -mtriple=x86_64-linux-gnu -mcpu=znver3, ...")
      ->capture_default_str();
  build_cmd->add_option("-o,--output", build.output, "The shared library to write")->required();

  tunefarm::tools::TuneCommandOptions tune;
  CLI::App* tune_cmd = nullptr;
  AddTuneCommand(app, tune, tune_cmd);

  tunefarm::tools::BestOptions best;
  CLI::App* best_cmd =
      app.add_subcommand("best", "Show the fastest recorded config of a workload per device");
  best_cmd->add_option("--db", best.db, "The record database")->required();
  best_cmd->add_option("--workload", best.workload, "Workload key, e.g. matmul:1024,1024,1024")
      ->required();
  best_cmd->add_option("--target", best.target, "Only this target");
  best_cmd->add_option("--device", best.device, "Only this device key");
  best_cmd->add_flag("--json", best.json, "Print the records as JSON lines");

  tunefarm::tools::RecordsOptions records;
  CLI::App* records_cmd = app.add_subcommand(
      "records", "Export the records as JSON lines, or import them (docs/records.md)");
  records_cmd->add_option("action", records.action, "export or import")->required();
  records_cmd->add_option("--db", records.db, "The record database")->required();
  records_cmd->add_option("file", records.file, "JSON lines file; - for stdout/stdin")
      ->capture_default_str();

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
  if (tune_cmd->parsed()) {
    std::signal(SIGINT, OnInterrupt);
    return tunefarm::tools::RunTuneCommand(tune, &g_stop, std::cout, std::cerr);
  }
  if (best_cmd->parsed()) return tunefarm::tools::RunBestCommand(best, std::cout, std::cerr);
  if (records_cmd->parsed()) {
    return tunefarm::tools::RunRecordsCommand(records, std::cin, std::cout, std::cerr);
  }
  return tunefarm::tools::RunRunCommand(run, std::cout, std::cerr);
}
