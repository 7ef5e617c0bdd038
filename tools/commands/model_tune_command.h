// `tunefarm model tune MODEL.onnx --trials 400 --db tf.db`: tunes a model's kernels on this
// machine under one trial budget. Its fused groups become tuning tasks (one per distinct anchor
// workload, weighted by how many groups share it); a task scheduler gives each batch to the task
// expected to cut the model's latency most; every result is recorded, and `-o model.so` builds the
// model with the best of them (or `tunefarm model build --db tf.db --device-key KEY` later).
#pragma once

#include <atomic>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "driver/model_compiler.h"
#include "driver/model_tune.h"
#include "driver/model_tuning_tasks.h"
#include "tools/commands/tune_command.h"
#include "tuner/layout_choice.h"

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
    t.measure.cache_flush = tuner::CacheFlush::kWeights;
    return t;
  }();
  bool round_robin = false;  // give the tasks batches in turn instead (a baseline)
  // Whether to tune every channel block a graph-level layout choice could give each blocked
  // conv, and the layout transforms between them (tuner::ExtractModelTasks' `layouts`), so that
  // a build with the records chooses each conv's blocks by measurement (layout_plan.h).
  driver::LayoutTuning layouts = driver::LayoutTuning::kAuto;
  // Farm mode (tune.tracker set): tasks whose jobs tune at once on the device key's workers.
  int parallel_tasks = 2;
  // Once tuning succeeded: build the model with the best records into this file, time it and the
  // untuned build on the tuned device (here, or a worker of the key, where the latency is stored
  // with the model job). Empty: stop after tuning.
  std::string output;
  // With `output`: before that build, race each conv's close rival algorithms in the model on
  // that device (driver/algorithm_race.h), for at most race_seconds.
  bool race = true;
  double race_seconds = 600;
};

// What the command asks the driver, from its flags: the model, the tuning request (the device key
// the local runner's default or --key with --tracker), the scheduler and the last step.
driver::ModelTuneRequest ModelTuneRequestOf(const ModelTuneOptions& options);

// The closing table: each task's line, the trials and the tuned kernels' estimated share of the
// model's latency ("tuned_kernels_ms=", tuner::EstimateModel once every kernel the build runs
// has a best). The tasks the build would run are marked "*": a layer's fastest alternative, and
// with a layout choice the block pairs and transforms of its layout.
void PrintTunedTasks(const std::vector<driver::TunedTask>& tasks, int trials_done,
                     const tuner::LayoutChoice& layout, std::ostream& out);
// "12.345 ms".
std::string MsText(double seconds);

// Here, or with tune.tracker through a farm's model job (Ctrl-C, `stop`, cancels it; --detach
// returns once it is submitted): tunes the model's tasks under one budget and prints each task's
// best; with -o then builds the module with the best records, races each conv's algorithms and
// times it against the untuned build on the tuned device (driver::TuneModel). 0 when tuning ran
// (a local run stopped by request included); 1 with "tunefarm: ..." when the model cannot be
// imported, nothing can be recorded or the farm's job did not succeed; 2 for a bad command line.
int RunModelTuneCommand(const ModelTuneOptions& options, const std::atomic<bool>* stop,
                        std::ostream& out, std::ostream& err);

}  // namespace tunefarm::tools
