// Shared by the CUDA code generator's tests: a TE script lowered for target cuda.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include "absl/status/statusor.h"
#include "compiler/ir/function.h"
#include "compiler/passes/lower.h"
#include "compiler/script/script.h"
#include "tests/unit/compiler/codegen/gpu_test_scripts.h"

namespace tunefarm::codegen::cuda {

using testing::kSharedMatmul;
using testing::kSplitBind;
using testing::TwoStages;

inline absl::StatusOr<ir::PrimFunc> LowerScriptForCuda(const std::string& source,
                                                       const std::string& name) {
  absl::StatusOr<script::ScriptResult> script = script::RunScript(source, name + ".te");
  if (!script.ok()) return script.status();
  passes::PassOptions options = passes::PassOptions::FromEnv();  // TUNEFARM_DUMP_IR etc.
  options.target = passes::LoweringTarget::kCuda;
  return passes::Lower(script->schedule, script->args, name, options);
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace tunefarm::codegen::cuda
