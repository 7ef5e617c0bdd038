// The `tunefarm` command line: CLI11 parses the arguments into each subcommand's options and the
// subcommand (tools/commands/) does the work. Only this file sees CLI11, which is slow to compile.
#include <CLI/CLI.hpp>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <spdlog/cfg/helpers.h>
#include <sstream>

#include "tools/commands/best_command.h"
#include "tools/commands/build_command.h"
#include "tools/commands/demo_command.h"
#include "tools/commands/exit_codes.h"
#include "tools/commands/jobs_command.h"
#include "tools/commands/lower_command.h"
#include "tools/commands/model_build_command.h"
#include "tools/commands/model_info_command.h"
#include "tools/commands/model_passes_command.h"
#include "tools/commands/model_run_command.h"
#include "tools/commands/model_test_command.h"
#include "tools/commands/model_tune_command.h"
#include "tools/commands/records_command.h"
#include "tools/commands/run_command.h"
#include "tools/commands/session_command.h"
#include "tools/commands/time_command.h"
#include "tools/commands/tracker_command.h"
#include "tools/commands/tune_command.h"
#include "tools/commands/worker_command.h"
#include "tools/commands/workers_command.h"
#include "tunefarm_git_commit.h"  // generated at build time: TUNEFARM_GIT_COMMIT

namespace {

constexpr int kUsageError = tunefarm::tools::kExitUsage;

// Checks that say what is wrong in words ("--priority: must be in 1..100, got 0"), where CLI11's
// own print "Value 0 not in range 0.000000 to" a 300-digit bound.
double ParseNumber(const std::string& text, bool* ok) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  *ok = !text.empty() && end == text.c_str() + text.size() && errno == 0 && std::isfinite(v);
  return v;
}

// A check of a number against `fits`, which says what it must be in `requirement`.
CLI::Validator NumberCheck(std::function<bool(double)> fits, std::string requirement) {
  return CLI::Validator(
      [fits = std::move(fits), requirement = std::move(requirement)](std::string& text) {
        bool ok = false;
        const double v = ParseNumber(text, &ok);
        if (!ok) return "must be a number, got '" + text + "'";
        if (!fits(v)) return "must be " + requirement + ", got " + text;
        return std::string();
      },
      "", "NumberCheck");
}

std::string Words(double v, const char* unit = "") {
  std::ostringstream text;
  text << v << unit;
  return text.str();
}

CLI::Validator InRange(double lo, double hi) {
  return NumberCheck([lo, hi](double v) { return v >= lo && v <= hi; },
                     "in " + Words(lo) + ".." + Words(hi));
}

CLI::Validator AtLeast(double lo, const char* unit = "") {
  return NumberCheck([lo](double v) { return v >= lo; }, "at least " + Words(lo, unit));
}

CLI::Validator Above(double lo, const char* unit = "") {
  return NumberCheck([lo](double v) { return v > lo; }, "more than " + Words(lo, unit));
}

std::atomic<bool> g_stop{false};

// The first Ctrl-C asks the tuning loop to stop after the batch in flight (everything measured is
// recorded); a second one stops at once.
extern "C" void OnInterrupt(int) {
  if (g_stop.exchange(true)) {
    std::signal(SIGINT, SIG_DFL);
    std::raise(SIGINT);
  }
}

// A tuning command stopped by Ctrl-C exits 130, locally and through a farm alike, whatever it
// managed to record before it stopped.
int UnlessInterrupted(int code) { return g_stop.load() ? tunefarm::tools::kExitInterrupted : code; }

void AddTimingOption(CLI::App* cmd, tunefarm::tools::TuneCommandOptions& t,
                     const std::string& default_name) {
  cmd->add_option("--timing", t.cache_flush,
                  "hot: back-to-back calls, as a kernel runs in a loop; weights: each timed call "
                  "finds the caches as a layer inside a model does (its weights evicted, other "
                  "data in their place, its input cached); cold: each starts with every cache "
                  "flushed (weights and cold: one call per repeat; give --repeat 10)")
      ->transform(CLI::CheckedTransformer(tunefarm::tools::TimingChoices()))
      ->option_text("hot|weights|cold (default: " + default_name + ")");
}

void AddTuneCommand(CLI::App& app, tunefarm::tools::TuneCommandOptions& t, CLI::App*& cmd) {
  cmd = app.add_subcommand(
      "tune",
      "Tune a workload (or a TE script with cfg knobs) on this machine and record "
      "every measurement");
  cmd->add_option("--workload", t.workload,
                  "Workload key, e.g. matmul:1024,1024,1024 (templates: matmul M,N,K; dense "
                  "M,N,K; batch_matmul B,M,N,K; conv2d and conv2d_nchwc N,C,H,W,O,KH,KW,stride,"
                  "pad; depthwise_conv2d and depthwise_conv2d_nchwc N,C,H,W,KH,KW,stride,pad; "
                  "conv2d_winograd_nchwc N,C,H,W,O,3,3,1,pad,ic_block,oc_block)");
  cmd->add_option("--template", t.script,
                  "A TE script declaring knobs with cfg (instead of "
                  "--workload)");
  cmd->add_option("--bind", t.bind, "The script's symbolic sizes: n=512,m=256");
  cmd->add_option("--target", t.target,
                  "llvm (this machine), a cross target string, or cuda [-arch=sm_XY] (this "
                  "machine's GPU; the GPU templates)")
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
  cmd->add_option("--min-repeat-ms", t.min_repeat_ms, "Shortest repeat, in ms (--timing hot)")
      ->capture_default_str();
  AddTimingOption(cmd, t, "hot");
  cmd->add_option("--run-timeout", t.run_timeout_s, "Seconds a candidate may run")
      ->capture_default_str();
  cmd->add_option("--build-timeout", t.build_timeout_s, "Seconds a candidate may compile")
      ->capture_default_str();
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
  cmd->add_option("--token-file", t.token_file, "Farm mode: file holding the farm's token");
  cmd->add_option("--tls-root-cert", t.tls_root_cert, "Farm mode: CA certificate (PEM) for TLS");
  cmd->add_option("--priority", t.priority, "Farm mode: share of the fleet, 1..100")
      ->capture_default_str()
      ->check(InRange(1, 100));
  cmd->add_flag("--detach", t.detach, "Farm mode: print the job id and return at once");
}

void AddFarmAddress(CLI::App* cmd, tunefarm::client::FarmAddress& farm) {
  cmd->add_option("--tracker", farm.tracker, "The tracker, HOST:PORT")->capture_default_str();
  cmd->add_option("--token-file", farm.token_file, "File holding the farm's token");
  cmd->add_option("--tls-root-cert", farm.tls_root_cert, "CA certificate (PEM) for TLS");
}

struct FarmCommands {
  tunefarm::tools::TrackerCommandOptions tracker;
  tunefarm::tools::WorkerCommandOptions worker;
  tunefarm::tools::JobsOptions jobs;
  tunefarm::tools::WorkersOptions workers;
  tunefarm::tools::DemoOptions demo;
  tunefarm::tools::SessionCommandOptions session;
  CLI::App* demo_cmd = nullptr;
  CLI::App* session_cmd = nullptr;
  CLI::App* tracker_cmd = nullptr;
  CLI::App* worker_cmd = nullptr;
  CLI::App* jobs_cmd = nullptr;
  CLI::App* workers_cmd = nullptr;
};

void AddFarmCommands(CLI::App& app, FarmCommands& f) {
  f.demo_cmd = app.add_subcommand(
      "demo",
      "Start a farm here (tracker + 2 workers), tune a matmul and a conv2d through it, and "
      "compare the best configs with the untuned defaults");
  f.demo_cmd->add_option("--db", f.demo.db, "The record database it leaves behind")
      ->capture_default_str();
  f.demo_cmd->add_option("--trials", f.demo.trials, "Trials per job")->capture_default_str();
  f.demo_cmd->add_option("--workers", f.demo.workers, "Local workers")->capture_default_str();
  f.demo_cmd->add_option("--matmul", f.demo.matmul, "The matmul workload")->capture_default_str();
  f.demo_cmd->add_option("--conv", f.demo.conv, "The conv2d workload")->capture_default_str();
  f.demo_cmd->add_flag("!--no-progress", f.demo.progress, "No progress line");
  f.tracker_cmd = app.add_subcommand(
      "tracker", "Run a farm's tracker: workers connect to it, clients submit tuning jobs");
  f.tracker_cmd->add_option("--listen", f.tracker.listen, "Address to serve, HOST:PORT (0: any)")
      ->capture_default_str();
  f.tracker_cmd->add_option("--db", f.tracker.db, "The record database (created if missing)")
      ->capture_default_str();
  f.tracker_cmd->add_option("--token-file", f.tracker.token_file,
                            "Workers and clients must present the token in this file");
  f.tracker_cmd->add_option("--tls-cert", f.tracker.tls_cert, "Serve TLS with this certificate");
  f.tracker_cmd->add_option("--tls-key", f.tracker.tls_key, "... and this private key (PEM)");
  f.tracker_cmd->add_option("--max-jobs", f.tracker.max_jobs, "Unfinished jobs at most")
      ->capture_default_str();
  f.tracker_cmd
      ->add_option("--build-threads", f.tracker.build_threads,
                   "Candidates the tracker compiles at once (0: its cores)")
      ->capture_default_str();
  f.tracker_cmd
      ->add_option("--builds", f.tracker.builds,
                   "Where candidates are compiled when the workers can build: auto (here; an idle "
                   "worker builds what it would otherwise wait for), workers, tracker")
      ->capture_default_str();
  f.tracker_cmd->add_option("--max-trials", f.tracker.max_trials, "Trials per job at most")
      ->capture_default_str();
  f.tracker_cmd
      ->add_option("--max-artifact-mb", f.tracker.max_artifact_mb,
                   "Largest library sent to a worker")
      ->capture_default_str();
  f.tracker_cmd->add_option("--http", f.tracker.http,
                            "Serve the web dashboard, JSON API and /metrics on HOST:PORT");
  f.tracker_cmd->add_option("--port-file", f.tracker.port_file,
                            "Write the bound port here once listening");

  f.worker_cmd = app.add_subcommand(
      "worker", "Serve this machine to a farm: measure the candidates a tracker leases");
  f.worker_cmd->add_option("--tracker", f.worker.tracker, "The tracker, HOST:PORT")
      ->capture_default_str();
  f.worker_cmd->add_option("--key", f.worker.key, "Device key, e.g. epyc-2c")->required();
  f.worker_cmd->add_option("--target", f.worker.target, "The target it runs")
      ->capture_default_str();
  f.worker_cmd->add_option("--token-file", f.worker.token_file, "File holding the farm's token");
  f.worker_cmd->add_option("--tls-root-cert", f.worker.tls_root_cert,
                           "CA certificate (PEM): use TLS and trust only trackers it signed");
  f.worker_cmd->add_option("--work-dir", f.worker.work_dir, "Artifact cache directory");
  f.worker_cmd->add_flag("--no-build", f.worker.no_build,
                         "Measure only: the tracker builds this worker's candidates");
  f.worker_cmd->add_flag("--build-only", f.worker.build_only,
                         "Build for the devices of --key that cannot (the slim server on a "
                         "board): cross-compile for --target, measure nothing");
  f.worker_cmd
      ->add_option("--parallel", f.worker.parallel,
                   "With --build-only: builders in this process, one candidate each at a time "
                   "(e.g. the cores to give)")
      ->capture_default_str();

  f.jobs_cmd = app.add_subcommand("jobs", "List the farm's tuning jobs, or cancel one");
  AddFarmAddress(f.jobs_cmd, f.jobs.farm);
  f.jobs_cmd->add_flag("--all", f.jobs.all, "Finished jobs too");
  f.jobs_cmd->add_option("--limit", f.jobs.limit, "At most this many")->capture_default_str();
  f.jobs_cmd->add_option("--cancel", f.jobs.cancel, "Cancel this job (its records stay)");

  f.session_cmd = app.add_subcommand(
      "session", "Run a built module on a device of the farm (through the tracker) and time it");
  AddFarmAddress(f.session_cmd, f.session.farm);
  f.session_cmd->add_option("--key", f.session.key, "Device key to borrow a worker of")->required();
  f.session_cmd->add_option("library", f.session.library, "Shared library from tunefarm build")
      ->required();
  f.session_cmd->add_option("--function", f.session.function,
                            "Function to run (default: the only one)");
  f.session_cmd->add_option("--bind", f.session.bind,
                            "Symbolic sizes and integer arguments: n=512");
  f.session_cmd->add_option("--repeat", f.session.repeat, "Timed repeats")->capture_default_str();
  f.session_cmd->add_option("--min-repeat-ms", f.session.min_repeat_ms, "Shortest repeat, in ms")
      ->capture_default_str();
  f.session_cmd
      ->add_option("--threads", f.session.threads, "Parallel width on the device (0: its default)")
      ->capture_default_str();
  f.session_cmd->add_option("--compare", f.session.compare,
                            "Another build of the same computation: both timed in alternating "
                            "rounds on the device, their speedup printed with its 95 % CI");
  f.session_cmd->add_option("--rounds", f.session.rounds, "With --compare: rounds (2..1000)")
      ->capture_default_str();
  f.session_cmd->add_option("--wait", f.session.wait_s, "Seconds to wait for an idle worker")
      ->capture_default_str();

  f.workers_cmd = app.add_subcommand("workers", "List the workers connected to the farm");
  AddFarmAddress(f.workers_cmd, f.workers.farm);
  f.workers_cmd->add_option("--key", f.workers.key, "Only this device key");
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
  run_cmd->add_option("--rtol", run.rtol, "Relative tolerance")
      ->capture_default_str()
      ->check(AtLeast(0));
  run_cmd->add_option("--atol", run.atol, "Absolute tolerance")
      ->capture_default_str()
      ->check(AtLeast(0));
  run_cmd->add_flag("--time", run.time,
                    "Also time the scheduled function; last line: median_ms=<ms> gflops=<n>");
  run_cmd->add_option("--db", run.db,
                      "Record database: run a cfg script at its best recorded config");
  run_cmd->add_option("--device-key", run.device_key,
                      "Device key of the records (default: this machine's)");
  run_cmd->add_option("--threads", run.threads,
                      "Parallel width of compiled kernels (default: TUNEFARM_NUM_THREADS or all "
                      "cores)");

  tunefarm::tools::TimeCommandOptions time_opts;
  CLI::App* time_cmd = app.add_subcommand(
      "time",
      "Re-time a built kernel or model module on this machine (the host's timing lock held); "
      "with --compare, time two in alternating rounds and print the speedup with its 95 % CI");
  time_cmd->add_option("library", time_opts.library, "Kernel library or model module")->required();
  time_cmd->add_option("--function", time_opts.function,
                       "The kernel to time (default: the library's only one)");
  time_cmd->add_option("--compare", time_opts.compare,
                       "Another build of the same computation, timed in turns with the first");
  time_cmd->add_option("--compare-function", time_opts.compare_function,
                       "Its kernel (default: --function)");
  time_cmd->add_option("--bind", time_opts.bind, "Values of symbolic sizes: n=512,m=64");
  time_cmd->add_option("--rounds", time_opts.rounds, "Alternating rounds (2..1000)")
      ->capture_default_str();
  time_cmd
      ->add_option("--min-slot-ms", time_opts.min_slot_ms, "Each timing lasts at least this long")
      ->capture_default_str();
  time_cmd->add_option("--threads", time_opts.threads, "Parallel width (0: the default)")
      ->capture_default_str();
  time_cmd->add_option("--seed", time_opts.seed, "Seed of the inputs")->capture_default_str();

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
  best_cmd->add_option("--db", best.db, "The record database (or --tracker)");
  // The same farm flags as every other farm command (--tls-root-cert included).
  AddFarmAddress(best_cmd, best.farm);
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

  FarmCommands farm;
  AddFarmCommands(app, farm);

  tunefarm::tools::ModelInfoOptions model_info;
  CLI::App* model_cmd = app.add_subcommand("model", "Whole models (ONNX)");
  model_cmd->require_subcommand(1);
  CLI::App* model_info_cmd = model_cmd->add_subcommand(
      "info",
      "Import an ONNX model and print its inputs, outputs, op counts, parameters and FLOPs");
  model_info_cmd->add_option("model", model_info.file, "The .onnx file")->required();
  std::vector<std::string> model_input_shapes;
  model_info_cmd->add_option("--input-shape", model_input_shapes,
                             "NAME=D1,D2,...: the shape of an input (batch size, image size)");
  tunefarm::tools::ModelPassesOptions model_passes;
  CLI::App* model_passes_cmd = model_cmd->add_subcommand(
      "passes", "Print the graph after import and after each graph pass, then the fused groups");
  model_passes_cmd->add_option("model", model_passes.file, "The .onnx file")->required();
  model_passes_cmd
      ->add_option("--disable", model_passes.disable,
                   "Graph passes to skip, comma-separated (simplify_inference, fold_scales, "
                   "pack_weights, constant_folding, common_subexpression, dead_code, fuse_ops)")
      ->delimiter(',');
  model_passes_cmd->add_option("--input-shape", model_input_shapes,
                               "NAME=D1,D2,...: the shape of an input (batch size, image size)");
  // Options every command that builds a model takes.
  auto add_compile_options = [&](CLI::App* cmd, tunefarm::driver::ModelCompileOptions& compile) {
    cmd->add_option("--input-shape", model_input_shapes,
                    "NAME=D1,D2,...: the shape of an input (batch size, image size)");
    cmd->add_option("--disable", compile.disabled_passes, "Graph passes to skip, comma-separated")
        ->delimiter(',');
  };
  tunefarm::tools::ModelBuildOptions model_build;
  CLI::App* model_build_cmd = model_cmd->add_subcommand(
      "build", "Build an ONNX model into one module file that the graph runtime loads alone");
  model_build_cmd->add_option("model", model_build.file, "The .onnx file")->required();
  model_build_cmd
      ->add_option("--target", model_build.target,
                   "llvm (this host) or llvm -mtriple=aarch64-linux-gnu ...")
      ->capture_default_str();
  model_build_cmd->add_option("-o,--output", model_build.output, "The module to write")->required();
  model_build_cmd->add_option("--db", model_build.compile.db,
                              "A records database: build each tuned task with its best record");
  model_build_cmd->add_option("--device-key", model_build.compile.device_key,
                              "The device key whose records --db uses");
  model_build_cmd->add_flag(
      "--race", model_build.race,
      "With --db: time the model here with each conv's rival algorithms (direct, Winograd "
      "tiles) whose records are close, and keep what runs fastest in the model");
  model_build_cmd
      ->add_option("--race-seconds", model_build.race_seconds,
                   "No new rival is raced after this many seconds")
      ->capture_default_str()
      ->check(Above(0, " s"));
  model_build_cmd->add_option("--threads", model_build.threads, "--race: threads of the runtime")
      ->check(AtLeast(1));
  add_compile_options(model_build_cmd, model_build.compile);
  tunefarm::tools::ModelRunOptions model_run;
  CLI::App* model_run_cmd = model_cmd->add_subcommand(
      "run", "Run a model (.onnx, built for this host first, or a built module) once");
  model_run_cmd->add_option("model", model_run.model, "The .onnx file or module")->required();
  model_run_cmd
      ->add_option("--target", model_run.target,
                   "What an .onnx model is built for before it runs: llvm (this host) or cuda "
                   "(this machine's GPU)")
      ->capture_default_str();
  model_run_cmd->add_option("--input", model_run.inputs,
                            "NAME=FILE (.pb TensorProto or .npy); inputs not given are random");
  model_run_cmd->add_option("--expect", model_run.expect,
                            "Expected output files, one per output in order");
  model_run_cmd->add_flag("--time", model_run.time, "Print the median latency: median_ms=<ms>");
  model_run_cmd->add_flag("--profile", model_run.profile,
                          "With --time: each kernel's median time, largest first");
  model_run_cmd->add_option("--threads", model_run.threads, "Threads of the runtime's pool")
      ->check(AtLeast(1));
  model_run_cmd
      ->add_option("--rtol", model_run.rtol,
                   "Tolerance relative to the expected output's largest magnitude")
      ->capture_default_str()
      ->check(AtLeast(0));
  add_compile_options(model_run_cmd, model_run.compile);
  tunefarm::tools::ModelTuneOptions model_tune;
  CLI::App* model_tune_cmd = model_cmd->add_subcommand(
      "tune",
      "Tune a model's kernels on this machine under one trial budget (a task scheduler gives "
      "each batch to the kernel that cuts the model's latency most) and record every trial");
  model_tune_cmd->add_option("model", model_tune.file, "The .onnx file")->required();
  {
    tunefarm::tools::TuneCommandOptions& t = model_tune.tune;
    model_tune_cmd->add_option("--trials", t.trials, "Candidates to measure, over all kernels")
        ->capture_default_str();
    model_tune_cmd->add_option("--tuner", t.tuner, "xgb (model-based), random, grid or ga")
        ->capture_default_str();
    model_tune_cmd->add_option("--db", t.db, "The record database (SQLite; created if missing)")
        ->capture_default_str();
    model_tune_cmd->add_option("--batch-size", t.batch_size, "Candidates per batch")
        ->capture_default_str();
    model_tune_cmd->add_option("--seed", t.seed, "Seed of the search")->capture_default_str();
    model_tune_cmd
        ->add_option("--threads", t.threads, "Parallel width of measured kernels (0: all cores)")
        ->capture_default_str();
    model_tune_cmd->add_option("--repeat", t.repeat, "Timed repeats per candidate")
        ->capture_default_str();
    model_tune_cmd
        ->add_option("--min-repeat-ms", t.min_repeat_ms, "Shortest repeat, in ms (--timing hot)")
        ->capture_default_str();
    AddTimingOption(model_tune_cmd, t, "weights");
    model_tune_cmd->add_option("--run-timeout", t.run_timeout_s, "Seconds a candidate may run")
        ->capture_default_str();
    model_tune_cmd
        ->add_option("--build-timeout", t.build_timeout_s, "Seconds a candidate may compile")
        ->capture_default_str();
    model_tune_cmd->add_option(
        "--device-key", t.device_key,
        "Device key records are filed under (default: local-<cpu>, -<N>t with --threads)");
    model_tune_cmd->add_flag("!--no-transfer", t.transfer,
                             "Do not warm each kernel's model from records of other shapes");
    model_tune_cmd->add_flag("!--no-progress", t.progress, "No line per batch");
    model_tune_cmd->add_flag("--round-robin", model_tune.round_robin,
                             "Give the kernels batches in turn (the baseline of the scheduler)");
    CLI::Option* layouts_on = model_tune_cmd->add_flag_callback(
        "--layouts", [&model_tune] { model_tune.layouts = tunefarm::tools::LayoutTuning::kOn; },
        "Also tune each conv at every channel block the build may choose, and the transforms "
        "between blocks, so that `model build --db` picks the blocks by measurement (default: "
        "when --trials gives each of those tasks a batch)");
    model_tune_cmd
        ->add_flag_callback(
            "--no-layouts",
            [&model_tune] { model_tune.layouts = tunefarm::tools::LayoutTuning::kOff; },
            "Tune the convs in the rule's channel blocks only")
        ->excludes(layouts_on);
    model_tune_cmd
        ->add_option("--target", model_tune.tune.target,
                     "llvm (this host), or with --tracker the target of the key's devices")
        ->capture_default_str();
    model_tune_cmd->add_option(
        "--tracker", t.tracker,
        "Tune through a farm: submit a model job to this tracker (HOST:PORT) and watch it");
    model_tune_cmd->add_option("--key", t.key,
                               "Farm mode: the device key of the workers that measure it");
    model_tune_cmd->add_option("--token-file", t.token_file,
                               "Farm mode: file holding the farm's token");
    model_tune_cmd->add_option("--tls-root-cert", t.tls_root_cert,
                               "Farm mode: CA certificate (PEM) to verify the tracker");
    model_tune_cmd->add_option("--priority", t.priority, "Farm mode: share of the fleet, 1..100")
        ->capture_default_str()
        ->check(InRange(1, 100));
    model_tune_cmd
        ->add_option("--parallel-tasks", model_tune.parallel_tasks,
                     "Farm mode: kernels tuning at once on the key's workers")
        ->capture_default_str();
    model_tune_cmd->add_flag("--detach", t.detach,
                             "Farm mode: print the model job's id and return");
    model_tune_cmd->add_option(
        "-o,--output", model_tune.output,
        "Farm mode: build the tuned module here, then time it and the untuned build end to end "
        "on a worker of --key");
    model_tune_cmd->add_flag(
        "!--no-race", model_tune.race,
        "Farm mode with --output: do not race each conv's close rival algorithms (direct, "
        "Winograd tiles) in the model on a worker before the build");
    model_tune_cmd
        ->add_option("--race-seconds", model_tune.race_seconds,
                     "Farm mode with --output: no new rival is raced after this many seconds")
        ->capture_default_str()
        ->check(Above(0, " s"));
  }
  add_compile_options(model_tune_cmd, model_tune.compile);
  tunefarm::tools::ModelTestOptions model_test;
  CLI::App* model_test_cmd = model_cmd->add_subcommand(
      "test", "Build and run ONNX backend test cases (model.onnx + test_data_set_*)");
  model_test_cmd->add_option("cases", model_test.cases, "Case folders")->required();
  model_test_cmd->add_option("--target", model_test.target, "What the cases are built for")
      ->capture_default_str();

  app.set_version_flag("--version", std::string("tunefarm ") + TUNEFARM_VERSION + " (commit " +
                                        TUNEFARM_GIT_COMMIT + ", LLVM " + TUNEFARM_LLVM_VERSION +
                                        ")");
  // A first word that names no command is said so, with the commands there are (CLI11 alone
  // answers "A subcommand is required" or that the word was not expected).
  if (argc > 1 && argv[1][0] != '-') {
    std::string names;
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
      known = known || sub->get_name() == argv[1];
      names += (names.empty() ? "" : ", ") + sub->get_name();
    }
    if (!known) {
      std::cerr << "tunefarm: unknown command '" << argv[1] << "' (commands: " << names
                << "; see tunefarm --help)\n";
      return kUsageError;
    }
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
    return kUsageError;
  }
  if (lower_cmd->parsed()) return tunefarm::tools::RunLowerCommand(lower, std::cout, std::cerr);
  if (model_build_cmd->parsed() || model_run_cmd->parsed() || model_info_cmd->parsed() ||
      model_tune_cmd->parsed() || model_passes_cmd->parsed()) {
    std::map<std::string, std::vector<int64_t>>& shapes =
        model_build_cmd->parsed()    ? model_build.compile.input_shapes
        : model_run_cmd->parsed()    ? model_run.compile.input_shapes
        : model_tune_cmd->parsed()   ? model_tune.compile.input_shapes
        : model_passes_cmd->parsed() ? model_passes.input_shapes
                                     : model_info.input_shapes;
    for (const std::string& shape : model_input_shapes) {
      absl::Status s = tunefarm::driver::ParseInputShape(shape, &shapes);
      if (!s.ok()) {
        std::cerr << "tunefarm: " << s.message() << "\n";
        return kUsageError;
      }
    }
  }
  if (model_passes_cmd->parsed()) {
    return tunefarm::tools::RunModelPassesCommand(model_passes, std::cout, std::cerr);
  }
  if (model_info_cmd->parsed()) {
    return tunefarm::tools::RunModelInfoCommand(model_info, std::cout, std::cerr);
  }
  if (model_build_cmd->parsed()) {
    if (model_build.compile.db.empty() != model_build.compile.device_key.empty()) {
      std::cerr << "tunefarm: --db and --device-key go together\n";
      return kUsageError;
    }
    return tunefarm::tools::RunModelBuildCommand(model_build, std::cout, std::cerr);
  }
  if (model_run_cmd->parsed()) {
    return tunefarm::tools::RunModelRunCommand(model_run, std::cout, std::cerr);
  }
  if (model_tune_cmd->parsed()) {
    std::signal(SIGINT, OnInterrupt);
    return UnlessInterrupted(
        tunefarm::tools::RunModelTuneCommand(model_tune, &g_stop, std::cout, std::cerr));
  }
  if (model_test_cmd->parsed()) {
    return tunefarm::tools::RunModelTestCommand(model_test, std::cout, std::cerr);
  }
  if (build_cmd->parsed()) return tunefarm::tools::RunBuildCommand(build, std::cout, std::cerr);
  if (tune_cmd->parsed()) {
    std::signal(SIGINT, OnInterrupt);
    return UnlessInterrupted(tunefarm::tools::RunTuneCommand(tune, &g_stop, std::cout, std::cerr));
  }
  if (best_cmd->parsed()) {
    if (best.db.empty() == (best_cmd->count("--tracker") == 0)) {
      std::cerr << "tunefarm: best needs exactly one of --db FILE and --tracker HOST:PORT\n";
      return kUsageError;
    }
    return tunefarm::tools::RunBestCommand(best, std::cout, std::cerr);
  }
  if (farm.tracker_cmd->parsed() || farm.worker_cmd->parsed()) {
    // Ctrl-C or SIGTERM: the tracker stops (jobs resume on restart), a worker drains.
    std::signal(SIGINT, OnInterrupt);
    std::signal(SIGTERM, OnInterrupt);
    if (farm.tracker_cmd->parsed()) {
      return tunefarm::tools::RunTrackerCommand(farm.tracker, &g_stop, std::cout, std::cerr);
    }
    return tunefarm::tools::RunWorkerCommand(farm.worker, &g_stop, std::cout, std::cerr);
  }
  if (farm.demo_cmd->parsed()) {
    std::signal(SIGINT, OnInterrupt);
    return UnlessInterrupted(
        tunefarm::tools::RunDemoCommand(farm.demo, &g_stop, std::cout, std::cerr));
  }
  if (farm.jobs_cmd->parsed())
    return tunefarm::tools::RunJobsCommand(farm.jobs, std::cout, std::cerr);
  if (farm.workers_cmd->parsed()) {
    return tunefarm::tools::RunWorkersCommand(farm.workers, std::cout, std::cerr);
  }
  if (records_cmd->parsed()) {
    return tunefarm::tools::RunRecordsCommand(records, std::cin, std::cout, std::cerr);
  }
  if (farm.session_cmd->parsed()) {
    return tunefarm::tools::RunSessionCommand(farm.session, std::cout, std::cerr);
  }
  if (time_cmd->parsed()) return tunefarm::tools::RunTimeCommand(time_opts, std::cout, std::cerr);
  if (run_cmd->parsed()) return tunefarm::tools::RunRunCommand(run, std::cout, std::cerr);
  // Every subcommand is dispatched above; one that is not is a bug here, said as such.
  std::cerr << "tunefarm: internal error: a subcommand with no handler (see tunefarm --help)\n";
  return kUsageError;
}
