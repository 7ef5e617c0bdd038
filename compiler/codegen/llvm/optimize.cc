#include "compiler/codegen/llvm/optimize.h"

#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/TargetParser/Triple.h>

namespace tunefarm::codegen {

void OptimizeModule(llvm::Module& module, llvm::TargetMachine& tm) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  tuning.LoopInterleaving = true;
  // Unrolling is a schedule decision (the `unroll` primitive, a tuning knob): LLVM only unrolls
  // loops marked llvm.loop.unroll.full. Its own heuristic unrolling of bodies the schedule had
  // already unrolled tripled the build time of a tiled matmul (about 120 ms to 40 ms without)
  // and did not make it faster.
  tuning.LoopUnrolling = false;
  llvm::PassBuilder pb(&tm, tuning);
  // Which C library functions exist (expf, aligned_alloc) for the target, not for the host.
  llvm::TargetLibraryInfoImpl tlii(llvm::Triple(module.getTargetTriple()));
  fam.registerPass([&] { return llvm::TargetLibraryAnalysis(tlii); });
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  mpm.run(module, mam);
}

}  // namespace tunefarm::codegen
