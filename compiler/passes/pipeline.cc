#include "compiler/passes/pipeline.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/passes/inject_virtual_thread.h"
#include "compiler/passes/partition_vector_tails.h"
#include "compiler/passes/remove_no_op.h"
#include "compiler/passes/simplify.h"
#include "compiler/passes/skip_padding_taps.h"
#include "compiler/passes/storage_flatten.h"
#include "compiler/passes/thread_sync.h"
#include "compiler/passes/unroll_loops.h"
#include "compiler/passes/vectorize_loops.h"

namespace tunefarm::passes {
namespace {

// Barriers matter only where kernels run blocks of threads.
bool RunsThreadBlocks(const PassOptions& opts) { return opts.target != LoweringTarget::kLlvm; }

}  // namespace

std::vector<Pass> LoweringPipeline() {
  return {
      {"storage_flatten", kPhaseFlatten, StorageFlatten, {}},
      {"partition_vector_tails", kPhaseTransform, PartitionVectorTails, {}},
      {"vectorize_loops", kPhaseTransform, VectorizeLoops, {}},
      {"inject_virtual_thread", kPhaseTransform, InjectVirtualThread, {}},
      {"unroll_loops", kPhaseTransform, UnrollLoops, {}},
      {"thread_sync", kPhaseTransform, ThreadSync, RunsThreadBlocks},
      {"simplify", kPhaseCleanup, Simplify, {}},
      {"skip_padding_taps", kPhaseCleanup, SkipPaddingTaps, {}},
      {"remove_no_op", kPhaseCleanup, RemoveNoOp, {}},
  };
}

absl::StatusOr<std::vector<Pass>> LoweringPipeline(std::vector<Pass> extra) {
  std::vector<Pass> passes = LoweringPipeline();
  auto after_flatten = std::find_if(passes.rbegin(), passes.rend(), [](const Pass& p) {
                         return p.phase == kPhaseFlatten;
                       }).base();
  size_t insert_at = static_cast<size_t>(after_flatten - passes.begin());
  for (Pass& p : extra) {
    if (p.phase == kPhaseAfterFlatten) {
      passes.insert(passes.begin() + static_cast<std::ptrdiff_t>(insert_at++), std::move(p));
    } else if (p.phase == kPhaseBeforeCodegen) {
      passes.push_back(std::move(p));
    } else {
      return absl::InvalidArgumentError(absl::StrCat("pass ", p.name, " has phase '", p.phase,
                                                     "'; extra passes go at '", kPhaseAfterFlatten,
                                                     "' or '", kPhaseBeforeCodegen, "'"));
    }
  }
  return passes;
}

}  // namespace tunefarm::passes
