// `tunefarm model tune MODEL.onnx --trials 400 --db tf.db`: tunes a model's kernels on this
// machine under one trial budget. Its fused groups become tuning tasks (one per distinct anchor
// workload, weighted by how many groups share it); a task scheduler gives each batch to the task
// expected to cut the model's latency most; every result is recorded, so `tunefarm model build
// --db tf.db --device-key KEY` then builds the model with the best of them.
#pragma once

#include <atomic>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "driver/model_compiler.h"
#include "driver/model_tuning_tasks.h"
#include "farm_api/model_job.h"
#include "tools/commands/tune_command.h"
#include "tuner/model_tasks.h"

namespace tunefarm::tools {

struct ModelTuneOptions {
  std::string file;
  driver::ModelCompileOptions compile;  // --input-shape, --disable
  // The target (tune.target) and the search and measurement flags of `tunefarm tune` (--trials
  // over all tasks, --tuner,
  // --db, --batch-size, --seed, --threads, --repeat, --timing, ..., --device-key, --no-transfer).
  // A model's tasks are timed as its layers run: each call with the weights evicted (--timing
  // weights). Back to back (hot), ResNet-18's last layer picked a Winograd tile whose 38 MB of
  // weights stayed cached between calls and ran 1.13 ms in the model against 0.60 ms measured.
  TuneCommandOptions tune = [] {
    TuneCommandOptions t;
    t.cache_flush = tuner::CacheFlush::kWeights;
    return t;
  }();
  bool round_robin = false;  // give the tasks batches in turn instead (a baseline)
  // Whether to tune every channel block a graph-level layout choice could give each blocked
  // conv, and the layout transforms between them (tuner::ExtractModelTasks' `layouts`), so that
  // a build with the records chooses each conv's blocks by measurement (layout_plan.h).
  driver::LayoutTuning layouts = driver::LayoutTuning::kAuto;
  // Farm mode (tune.tracker set): tasks whose jobs tune at once on the device key's workers.
  int parallel_tasks = 2;
  // Farm mode: once tuning succeeded, build the model with the farm's best records into this
  // file, time it and the untuned build on a worker of the key, and store that latency with the
  // model job. Empty: stop after tuning.
  std::string output;
  // Farm mode with `output`: before that build, race each conv's close rival algorithms in the
  // model on a worker of the key (driver/algorithm_race.h), for at most race_seconds.
  bool race = true;
  double race_seconds = 600;
};

// What the model's task list depends on, from the command's flags.
driver::ModelTuningRequest TuningRequestOf(const ModelTuneOptions& options);

// One task's line of the closing table, and the table with the trials and the tuned kernels'
// estimated share of the model's latency ("tuned_kernels_ms=", tuner::EstimateModel once every
// kernel the build runs has a best). The tasks the build would run are marked "*": a layer's
// fastest alternative, and with a layout choice the block pairs and transforms of its layout.
struct TunedTaskLine {
  std::string workload_key;
  double weight = 1;
  int layer = -1;  // tuner::ModelTask::layer (-1: a layer of its own)
  int trials = 0;
  double best_seconds = 0;  // 0: none
};
void PrintTunedTasks(const std::vector<TunedTaskLine>& tasks, int trials_done,
                     const tuner::LayoutChoice& layout, std::ostream& out);
// "12.345 ms".
std::string MsText(double seconds);

// Local mode (no tune.tracker): 0 when tuning ran (interrupted or not) and printed each task's best
// and the model's estimated latency; 1 with "tunefarm: ..." when the model cannot be imported or
// nothing can be recorded; 2 for a bad command line. `stop` is polled between batches.
int RunModelTuneCommand(const ModelTuneOptions& options, const std::atomic<bool>* stop,
                        std::ostream& out, std::ostream& err);

// `tunefarm model tune MODEL.onnx --tracker HOST:PORT --key KEY --trials N`: submits a model job
// (one job per task under one budget, scheduled on the tracker), follows it until it ends
// (Ctrl-C cancels it; --detach returns at once) and prints each task's best; with -o, builds the
// tuned module and times it end to end on the key's device. Exit codes as above.
int RunRemoteModelTuneCommand(const ModelTuneOptions& options, const std::atomic<bool>* stop,
                              std::ostream& out, std::ostream& err);

}  // namespace tunefarm::tools
