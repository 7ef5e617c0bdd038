// `tunefarm tune --workload matmul:1024,1024,1024 --target llvm --trials 500 --tuner xgb
// --db tf.db` (or `--template FILE.te --bind n=512`): tunes one task on this machine with the
// local builder and isolated runner, showing progress; Ctrl-C stops cleanly, everything recorded.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <string_view>

#include "tuner/measure.h"
#include "tuner/tuning_request.h"

namespace tunefarm::tools {

// The request (--target, --trials, --tuner, --batch-size, --early-stopping, --seed, --device-key,
// --no-transfer, --priority; --threads, --repeat, --min-repeat-ms, --timing and the timeouts set
// its measure options) and what only the command has.
struct TuneCommandOptions : tuner::TuningRequest {
  TuneCommandOptions() {
    trials = 100;
    transfer = true;  // warm the xgb model from other shapes of the template
  }
  std::string workload;  // a workload key, or empty with `script`
  std::string script;    // a TE script with cfg knobs (--template)
  std::string bind;      // the script's symbolic sizes, "n=512"
  std::string db = "tunefarm.db";
  bool progress = true;
  // Local CPU tunes: the best recorded configs and the default are timed again here in turns
  // (tuner::VerifyBest) and the speedup is printed with its 95 % CI.
  bool verify = true;
  // Farm mode: submit the job to this tracker instead of measuring here, and watch it.
  std::string tracker;
  std::string key;  // the device key of the workers that measure it (farm mode)
  std::string token_file;
  std::string tls_root_cert;
  bool detach = false;  // print the job id and return instead of watching
};

// The seed of a tuning run's search and of its generated inputs: --seed, 0 meaning 1 (as on the
// tracker), so a local run and a farm job with the same flags search alike.
uint64_t SeedOf(const TuneCommandOptions& options);
// The request as the flags give it: the seed as SeedOf and the measure options as
// MeasureOptionsOf make them.
tuner::TuningRequest TuningRequestOf(const TuneCommandOptions& options);
// The device key local results are filed under: --device-key, else (with --threads N)
// "local-<cpu>-Nt"; empty: the local runner's default ("local-<cpu>").
std::string LocalTuneDeviceKey(const TuneCommandOptions& options);
// --timing's values: hot (kNone), cold (kAll), weights (kWeights); and the name of one.
using runtime::measure::TimingChoices;
using runtime::measure::TimingName;

// The measure options the flags set (--repeat, --min-repeat-ms, --timing, timeouts, --threads) and
// the seed.
tuner::MeasureOptions MeasureOptionsOf(const TuneCommandOptions& options);

// 0 when tuning ran (interrupted or not) and printed the best config; 1 with "tunefarm: ..." on
// `err` when nothing could be tuned (no database, a build infrastructure failure); 2 for a bad
// command line (unknown workload template, target or tuner). `stop` is polled between batches.
int RunTuneCommand(const TuneCommandOptions& options, const std::atomic<bool>* stop,
                   std::ostream& out, std::ostream& err);

// Farm mode (`--tracker`): submits the job and shows the same progress line, fed by WatchJob.
// A stop request (Ctrl-C) cancels the job; its records stay. 0 when the job succeeded (or was
// submitted, with `detach`); 1 when it failed or was cancelled, or the tracker refused it (with
// the tracker's reason); 2 for a bad command line.
int RunRemoteTuneCommand(const TuneCommandOptions& options, const std::atomic<bool>* stop,
                         std::ostream& out, std::ostream& err);

}  // namespace tunefarm::tools
