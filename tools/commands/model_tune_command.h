// `tunefarm model tune MODEL.onnx --trials 400 --db tf.db`: tunes a model's kernels on this
// machine under one trial budget. Its fused groups become tuning tasks (one per distinct anchor
// workload, weighted by how many groups share it); a task scheduler gives each batch to the task
// expected to cut the model's latency most; every result is recorded, so `tunefarm model build
// --db tf.db --device-key KEY` then builds the model with the best of them.
#pragma once

#include <atomic>
#include <ostream>
#include <string>

#include "tools/commands/model_compiler.h"
#include "tools/commands/tune_command.h"

namespace tunefarm::tools {

struct ModelTuneOptions {
  std::string file;
  ModelCompileOptions compile;  // --input-shape, --disable (target: this host)
  // The search and measurement flags of `tunefarm tune` (--trials over all tasks, --tuner,
  // --db, --batch-size, --seed, --threads, --repeat, ..., --device-key, --no-transfer).
  TuneCommandOptions tune;
  bool round_robin = false;  // give the tasks batches in turn instead (a baseline)
};

// 0 when tuning ran (interrupted or not) and printed each task's best and the model's estimated
// latency; 1 with "tunefarm: ..." when the model cannot be imported or nothing can be recorded;
// 2 for a bad command line. `stop` is polled between batches.
int RunModelTuneCommand(const ModelTuneOptions& options, const std::atomic<bool>* stop,
                        std::ostream& out, std::ostream& err);

}  // namespace tunefarm::tools
