// The `tunefarm` command line: CLI11 parses the arguments into each command's options and the
// command (tools/commands/) does the work. Only tools/main.cc and tools/cli/ see CLI11, which is
// slow to compile.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <spdlog/cfg/helpers.h>

#include "tools/cli/command_table.h"
#include "tools/cli/environment.h"
#include "tools/cli/farm_commands.h"
#include "tools/cli/flag_checks.h"
#include "tools/cli/interrupt.h"
#include "tools/cli/model_commands.h"
#include "tools/commands/best_command.h"
#include "tools/commands/build_command.h"
#include "tools/commands/exit_codes.h"
#include "tools/commands/lower_command.h"
#include "tools/commands/records_command.h"
#include "tools/commands/run_command.h"
#include "tools/commands/time_command.h"
#include "tools/commands/tune_command.h"
#include "tunefarm_git_commit.h"  // generated at build time: TUNEFARM_GIT_COMMIT

namespace tunefarm::tools::cli {
namespace {

void AddTuneCommand(CLI::App& app, CommandTable& table) {
  auto tune = std::make_shared<TuneCommandOptions>();
  TuneCommandOptions& t = *tune;
  CLI::App* cmd = table.Add(
      app, "tune",
      "Tune a workload (or a TE script with cfg knobs) on this machine and record every "
      "measurement",
      [tune] {
        return UnlessInterrupted(RunTuneCommand(*tune, StopOnInterrupt(), std::cout, std::cerr));
      });
  cmd->add_option(
      "--workload", t.workload,
      "Workload key, e.g. matmul:1024,1024,1024 (templates: matmul M,N,K; dense "
      "M,N,K; dense_int8 M,N,K and conv2d_int8 N,C,H,W,O,KH,KW,stride,pad with :int8 (uint8 x "
      "int8 on the CPU's dot product); "
      "batch_matmul B,M,N,K; conv2d and conv2d_nchwc N,C,H,W,O,KH,KW,stride,"
      "pad; depthwise_conv2d and depthwise_conv2d_nchwc N,C,H,W,KH,KW,stride,pad; "
      "conv2d_winograd_nchwc N,C,H,W,O,3,3,1,pad,ic_block,oc_block)");
  cmd->add_option("--template", t.script,
                  "A TE script declaring knobs with cfg (instead of "
                  "--workload)")
      ->check(ReadableFile());
  cmd->add_option("--bind", t.bind, "The script's symbolic sizes: n=512,m=256");
  cmd->add_option("--target", t.target,
                  "llvm (this machine), a cross target string, or cuda [-arch=sm_XY] (this "
                  "machine's GPU; the GPU templates)")
      ->capture_default_str();
  AddTuningFlags(cmd, t, "Candidates to measure", "hot");
  cmd->add_option("--early-stopping", t.early_stopping,
                  "Stop after this many trials without a new best (0: never)")
      ->capture_default_str()
      ->check(AtLeast(0));
  cmd->add_option("--device-key", t.device_key,
                  "Device key records are filed under (default: local-<cpu or gpu model>)");
  cmd->add_flag("!--no-transfer", t.transfer,
                "Do not warm the model from records of other shapes of the template");
  cmd->add_flag("!--no-progress", t.progress, "No progress line");
  cmd->add_flag("!--no-verify", t.verify,
                "Local mode: do not time the best configs and the default again in turns at the "
                "end (the speedup is then not printed)");
  cmd->add_option("--tracker", t.tracker,
                  "Tune through a farm: submit the job to this tracker (HOST:PORT) and watch it");
  cmd->add_option("--key", t.key, "Farm mode: the device key of the workers that measure it");
  cmd->add_option("--token-file", t.token_file, "Farm mode: file holding the farm's token")
      ->check(ReadableFile());
  cmd->add_option("--tls-root-cert", t.tls_root_cert, "Farm mode: CA certificate (PEM) for TLS")
      ->check(ReadableFile());
  cmd->add_option("--priority", t.priority, "Farm mode: share of the fleet, 1..100")
      ->capture_default_str()
      ->check(InRange(1, 100));
  cmd->add_flag("--detach", t.detach, "Farm mode: print the job id and return at once");
}

// The commands on one kernel or TE script, and the records.
void AddKernelCommands(CLI::App& app, CommandTable& table) {
  auto lower = std::make_shared<LowerOptions>();
  CLI::App* lower_cmd = table.Add(app, "lower", "Print the lowered IR of a TE script", [lower] {
    return RunLowerCommand(*lower, std::cout, std::cerr);
  });
  lower_cmd->add_option("file", lower->file, "The .te script")->required()->check(ReadableFile());

  auto run = std::make_shared<RunOptions>();
  CLI::App* run_cmd =
      table.Add(app, "run",
                "Run a TE script's schedule and its unscheduled definition on random inputs and "
                "compare the outputs",
                [run] { return RunRunCommand(*run, std::cout, std::cerr); });
  run_cmd->add_option("file", run->file, "The .te script")->required()->check(ReadableFile());
  run_cmd->add_option("--bind", run->bind, "Values of the symbolic variables: n=67,m=45");
  run_cmd
      ->add_option("--target", run->target,
                   "Where to run: interp, or llvm [-mcpu=...] (compiled for this machine)")
      ->capture_default_str();
  run_cmd->add_option("--seed", run->seed, "Seed of the random inputs")->capture_default_str();
  run_cmd->add_option("--rtol", run->rtol, "Relative tolerance")
      ->capture_default_str()
      ->check(AtLeast(0));
  run_cmd->add_option("--atol", run->atol, "Absolute tolerance")
      ->capture_default_str()
      ->check(AtLeast(0));
  run_cmd->add_flag("--time", run->time,
                    "Also time the scheduled function; last line: median_ms=<ms> gflops=<n>");
  run_cmd
      ->add_option("--db", run->db, "Record database: run a cfg script at its best recorded config")
      ->check(ReadableFile());
  run_cmd->add_option("--device-key", run->device_key,
                      "Device key of the records (default: this machine's)");
  run_cmd
      ->add_option("--threads", run->threads,
                   "Parallel width of compiled kernels (default: TUNEFARM_NUM_THREADS or all "
                   "cores)")
      ->check(AtLeast(0));

  auto time_opts = std::make_shared<TimeCommandOptions>();
  CLI::App* time_cmd = table.Add(
      app, "time",
      "Re-time a built kernel or model module on this machine (the host's timing lock held); "
      "with --compare, time two in alternating rounds and print the speedup with its 95 % CI",
      [time_opts] { return RunTimeCommand(*time_opts, std::cout, std::cerr); });
  time_cmd->add_option("library", time_opts->library, "Kernel library or model module")
      ->required()
      ->check(ReadableFile());
  time_cmd->add_option("--function", time_opts->function,
                       "The kernel to time (default: the library's only one)");
  time_cmd
      ->add_option("--compare", time_opts->compare,
                   "Another build of the same computation, timed in turns with the first")
      ->check(ReadableFile());
  time_cmd->add_option("--compare-function", time_opts->compare_function,
                       "Its kernel (default: --function)");
  time_cmd->add_option("--bind", time_opts->bind, "Values of symbolic sizes: n=512,m=64");
  time_cmd->add_option("--rounds", time_opts->rounds, "Alternating rounds (2..1000)")
      ->capture_default_str()
      ->check(InRange(2, 1000));
  time_cmd
      ->add_option("--min-slot-ms", time_opts->min_slot_ms, "Each timing lasts at least this long")
      ->capture_default_str()
      ->check(AtLeast(0, " ms"));
  time_cmd->add_option("--threads", time_opts->threads, "Parallel width (0: the default)")
      ->capture_default_str()
      ->check(AtLeast(0));
  time_cmd->add_option("--seed", time_opts->seed, "Seed of the inputs")->capture_default_str();

  auto build = std::make_shared<BuildOptions>();
  CLI::App* build_cmd =
      table.Add(app, "build", "Compile a TE script's schedule into a shared library",
                [build] { return RunBuildCommand(*build, std::cout, std::cerr); });
  build_cmd->add_option("file", build->file, "The .te script (or --workload)")
      ->check(ReadableFile());
  build_cmd->add_option("--workload", build->workload,
                        "Build an operator-library workload instead, e.g. matmul:1024,1024,1024");
  build_cmd->add_option("--bind", build->bind, "Sizes of a script with cfg knobs: n=512");
  build_cmd
      ->add_option("--db", build->db,
                   "Record database: build the best recorded config for this target and "
                   "device")
      ->check(ReadableFile());
  build_cmd->add_option("--device-key", build->device_key,
                        "Device key of the records (default: this machine's)");
  build_cmd
      ->add_option("--target", build->target,
                   "llvm, llvm -mtriple=aarch64-linux-gnu -mattr=+neon, "
                   "llvm -mtriple=x86_64-linux-gnu -mcpu=znver3, ...")
      ->capture_default_str();
  build_cmd->add_option("-o,--output", build->output, "The shared library to write")->required();

  AddTuneCommand(app, table);

  auto best = std::make_shared<BestOptions>();
  CLI::App* best_cmd = table.Add(
      app, "best", "Show the fastest recorded config of a workload per device", [best, &table] {
        if (best->db.empty() != table.Given("--tracker")) {
          std::cerr << "tunefarm: best needs exactly one of --db FILE and --tracker HOST:PORT\n";
          return kExitUsage;
        }
        return RunBestCommand(*best, std::cout, std::cerr);
      });
  best_cmd->add_option("--db", best->db, "The record database (or --tracker)")
      ->check(ReadableFile());
  // The same farm flags as every other farm command (--tls-root-cert included).
  AddFarmAddress(best_cmd, best->farm);
  best_cmd->add_option("--workload", best->workload, "Workload key, e.g. matmul:1024,1024,1024")
      ->required();
  best_cmd->add_option("--target", best->target, "Only this target");
  best_cmd->add_option("--device", best->device, "Only this device key");
  best_cmd->add_flag("--json", best->json, "Print the records as JSON lines");

  auto records = std::make_shared<RecordsOptions>();
  CLI::App* records_cmd = table.Add(
      app, "records", "Export the records as JSON lines, or import them (docs/records.md)",
      [records] { return RunRecordsCommand(*records, std::cin, std::cout, std::cerr); });
  records_cmd->add_option("action", records->action, "export or import")->required();
  records_cmd->add_option("--db", records->db, "The record database")->required();
  records_cmd->add_option("file", records->file, "JSON lines file; - for stdout/stdin")
      ->capture_default_str();
}

}  // namespace
}  // namespace tunefarm::tools::cli

int main(int argc, char** argv) {
  using tunefarm::tools::kExitFailed;
  using tunefarm::tools::kExitUsage;
  if (std::string problem = tunefarm::tools::cli::CheckEnvironment(); !problem.empty()) {
    std::cerr << "tunefarm: " << problem << "\n";
    return kExitUsage;
  }
  // Per-logger levels, e.g. TUNEFARM_LOG="passes=debug,codegen=warn"; loggers made later pick
  // them up.
  if (const char* levels = std::getenv("TUNEFARM_LOG")) spdlog::cfg::helpers::load_levels(levels);
  CLI::App app{"tunefarm: a tensor compiler and autotuning service"};
  app.require_subcommand(1);
  tunefarm::tools::cli::CommandTable table;
  tunefarm::tools::cli::AddKernelCommands(app, table);
  tunefarm::tools::cli::AddFarmCommands(app, table);
  tunefarm::tools::cli::AddModelCommands(app, table);
  // A command made without its function is a bug of this binary: every run says so, so the
  // tests catch it before a user does.
  if (std::vector<std::string> broken = table.Unrunnable(app); !broken.empty()) {
    std::cerr << "tunefarm: internal error: command '" << broken.front() << "' runs nothing\n";
    return kExitFailed;
  }
  app.set_version_flag("--version", std::string("tunefarm ") + TUNEFARM_VERSION + " (commit " +
                                        TUNEFARM_GIT_COMMIT + ", LLVM " + TUNEFARM_LLVM_VERSION +
                                        ")");
  // A word that names no command is said so, with the commands there are (CLI11 alone answers
  // "A subcommand is required" or that the word was not expected).
  if (std::string error = table.CheckCommandWords(app, argc, argv); !error.empty()) {
    std::cerr << "tunefarm: " << error << " (see tunefarm --help)\n";
    return kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "tunefarm: " << e.what() << " (see tunefarm --help)\n";
    return kExitUsage;
  }
  return table.RunChosen(app);
}
