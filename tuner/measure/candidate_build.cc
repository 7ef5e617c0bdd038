#include "tuner/measure/candidate_build.h"

#include "absl/strings/str_cat.h"
#include "compiler/codegen/llvm/build.h"
#include "compiler/passes/lower.h"
#ifdef TUNEFARM_HAVE_CUDA
#include "compiler/codegen/cuda/build_cuda.h"
#endif

namespace tunefarm::tuner {
namespace {

absl::Status ExportCuda(const ir::PrimFunc& func, const target::CudaTarget& target,
                        const std::string& path) {
#ifdef TUNEFARM_HAVE_CUDA
  return codegen::cuda::ExportCudaModule(func, target, path).status();
#else
  (void)func;
  (void)path;
  return absl::UnimplementedError(absl::StrCat(
      "target '", target.ToString(), "': this tunefarm was built without the CUDA toolkit"));
#endif
}

}  // namespace

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
  absl::Status s = target.is_cuda() ? ExportCuda(*func, target.cuda(), path)
                                    : codegen::ExportLibrary({*func}, target.llvm(), path);
  if (!s.ok()) return {ErrorKind::kBuildError, absl::StrCat("code generation: ", s.message())};
  return {};
}

}  // namespace tunefarm::tuner
