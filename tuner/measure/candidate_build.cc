#include "tuner/measure/candidate_build.h"

#include "absl/strings/str_cat.h"
#include "compiler/codegen/gpu_target/build_gpu_module.h"
#include "compiler/codegen/llvm/build.h"
#include "compiler/passes/lower.h"

namespace tunefarm::tuner {

BuildOutcome LowerAndExport(const topi::ScheduledOp& op, const std::string& function_name,
                            const target::Target& target, const std::string& path) {
  if (const absl::Status& sticky = op.schedule.error(); !sticky.ok()) {
    return {ErrorKind::kInvalidConfig, std::string(sticky.message())};
  }
  passes::PassOptions options = passes::PassOptions::FromEnv();
  options.target = target.lowering();
  options.verify = false;  // as compile_time_bench measures builds: the passes are tested
  absl::StatusOr<ir::PrimFunc> func = passes::Lower(op.schedule, op.args, function_name, options);
  if (!func.ok()) {
    return {ErrorKind::kBuildError, absl::StrCat("lowering: ", func.status().message())};
  }
  absl::Status s = target.is_gpu() ? codegen::ExportGpuModule({*func}, target, path)
                                   : codegen::ExportLibrary({*func}, target.llvm(), path);
  if (!s.ok()) return {ErrorKind::kBuildError, absl::StrCat("code generation: ", s.message())};
  return {};
}

}  // namespace tunefarm::tuner
