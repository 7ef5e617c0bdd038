// Pass: one named lowering step on a PrimFunc, and the one runner that applies an ordered list of
// them — skipping disabled passes, timing, verifying and dumping the IR as PassOptions ask.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/function.h"

namespace spdlog {
class logger;
}  // namespace spdlog

namespace tunefarm::passes {

// Phases of the lowering pipeline. The runner verifies flat IR after a kPhaseFlatten pass ran;
// kPhaseAfterFlatten and kPhaseBeforeCodegen are the insertion points for extra passes.
inline constexpr const char* kPhaseFlatten = "flatten";
inline constexpr const char* kPhaseAfterFlatten = "after_flatten";
inline constexpr const char* kPhaseTransform = "transform";
inline constexpr const char* kPhaseCleanup = "cleanup";
inline constexpr const char* kPhaseBeforeCodegen = "before_codegen";

// What lowered code runs on: the reference interpreter, a CPU through LLVM, or a GPU (whose
// kernels run blocks of threads, so the pipeline inserts barriers).
enum class LoweringTarget : uint8_t { kInterp, kLlvm, kCuda };

struct PassOptions {
  std::vector<std::string> disabled_passes;
  std::string dump_ir;  // a pass name, or "all": log the IR after it
  bool time_passes = false;
  bool verify = true;
  LoweringTarget target = LoweringTarget::kInterp;
  // Reads TUNEFARM_DUMP_IR=<pass>|all, TUNEFARM_TIME_PASSES=1 and TUNEFARM_DISABLE_PASS=a,b.
  static PassOptions FromEnv();
};

struct Pass {
  std::string name;
  std::string phase;
  std::function<absl::StatusOr<ir::PrimFunc>(ir::PrimFunc)> fn;
  std::function<bool(const PassOptions&)> enabled_if;  // empty: always enabled
};

// Runs the enabled passes in order. A name in opts.disabled_passes that names no pass is an
// InvalidArgument error listing the valid names; a failing pass or verification returns its
// Status prefixed with the pass name.
absl::StatusOr<ir::PrimFunc> RunPasses(ir::PrimFunc f, const std::vector<Pass>& passes,
                                       const PassOptions& opts);

// The "passes" logger (stderr), shared by the runner and the passes.
spdlog::logger& PassLogger();

}  // namespace tunefarm::passes
