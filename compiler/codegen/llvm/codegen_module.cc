#include "compiler/codegen/llvm/codegen_module.h"

#include <chrono>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <spdlog/spdlog.h>
#include <unordered_set>

#include "absl/strings/str_cat.h"
#include "compiler/codegen/llvm/codegen_llvm.h"
#include "compiler/codegen/llvm/codegen_logger.h"
#include "compiler/codegen/llvm/kernel_args.h"
#include "compiler/codegen/llvm/optimize.h"
#include "compiler/codegen/llvm/same_computation.h"

namespace tunefarm::codegen {
namespace {

double MillisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace

absl::StatusOr<GeneratedModule> GenerateModule(const std::vector<ir::PrimFunc>& funcs,
                                               llvm::TargetMachine& tm, bool optimize) {
  const auto start = std::chrono::steady_clock::now();
  GeneratedModule out;
  std::vector<KernelArgs> args;
  std::unordered_set<std::string> names;
  for (const ir::PrimFunc& f : funcs) {
    if (!names.insert(f.name).second) {
      return absl::InvalidArgumentError(absl::StrCat("two functions are named ", f.name));
    }
    absl::StatusOr<KernelArgs> a = AnalyzeKernelArgs(f);
    if (!a.ok()) return a.status();
    out.signatures.push_back(a->signature);
    args.push_back(*std::move(a));
  }
  out.context = std::make_unique<llvm::LLVMContext>();
  // A module without functions still has its manifest: a model module whose kernels run on a GPU.
  out.module =
      std::make_unique<llvm::Module>(funcs.empty() ? "tunefarm_data" : funcs[0].name, *out.context);
  out.module->setTargetTriple(tm.getTargetTriple().str());
  out.module->setDataLayout(tm.createDataLayout());
  {
    CodeGenLLVM cg(*out.module, tm);
    const std::vector<int> same = EarlierSameComputation(funcs, args);
    int shared = 0;
    for (size_t i = 0; i < funcs.size(); ++i) {
      absl::Status s = same[i] < 0 ? cg.AddFunction(funcs[i], args[i])
                                   : cg.AddEntrySharingBody(funcs[i], args[i], funcs[same[i]]);
      if (!s.ok()) return s;
      shared += same[i] >= 0 ? 1 : 0;
    }
    if (shared > 0) {
      CodegenLogger().debug("{}: {} of {} functions share the body of an earlier one",
                            out.module->getName().str(), shared, funcs.size());
    }
    cg.DefineManifest(runtime::SerializeManifest(out.signatures));
  }
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*out.module, &os)) {
    return absl::InternalError(absl::StrCat("the code generator made invalid LLVM IR for ",
                                            out.module->getName().str(), ": ", problems));
  }
  const double generated = MillisecondsSince(start);
  if (optimize) OptimizeModule(*out.module, tm);
  CodegenLogger().debug("{}: IR generated in {:.2f} ms, optimized in {:.2f} ms",
                        out.module->getName().str(), generated,
                        MillisecondsSince(start) - generated);
  return out;
}

}  // namespace tunefarm::codegen
