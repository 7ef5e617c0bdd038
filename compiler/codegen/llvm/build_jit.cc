// BuildJit: generate, optimize and emit an object for the host, link it into the process's JIT
// session, point its `__tf_parallel_launch` at the runtime's thread pool, and wrap the kernels
// as PackedFunctions that keep the code alive.
#include <chrono>
#include <spdlog/spdlog.h>
#include <unordered_map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/codegen/llvm/build.h"
#include "compiler/codegen/llvm/codegen_logger.h"
#include "compiler/codegen/llvm/codegen_module.h"
#include "compiler/codegen/llvm/jit_session.h"
#include "compiler/codegen/llvm/llvm_target_machine.h"
#include "compiler/codegen/llvm/object_emitter.h"
#include "runtime/core/c_abi.h"

namespace tunefarm::codegen {
namespace {

class JitModule final : public runtime::Module {
 public:
  explicit JitModule(std::vector<runtime::PackedFunction> functions)
      : functions_(std::move(functions)) {}

  absl::StatusOr<runtime::PackedFunction> GetFunction(std::string_view name) const override {
    for (const runtime::PackedFunction& f : functions_) {
      if (f.signature().name == name) return f;
    }
    return absl::NotFoundError(absl::StrCat("no kernel named ", std::string(name),
                                            " in this JIT module; it has ",
                                            absl::StrJoin(FunctionNames(), ", ")));
  }

  std::vector<std::string> FunctionNames() const override {
    std::vector<std::string> names;
    for (const runtime::PackedFunction& f : functions_) names.push_back(f.signature().name);
    return names;
  }

 private:
  std::vector<runtime::PackedFunction> functions_;
};

}  // namespace

absl::StatusOr<std::shared_ptr<runtime::Module>> BuildJit(const std::vector<ir::PrimFunc>& funcs,
                                                          const LlvmTarget& target) {
  if (funcs.empty()) return absl::InvalidArgumentError("BuildJit: no functions to build");
  if (!target.is_host) {
    return absl::InvalidArgumentError(
        absl::StrCat("BuildJit runs code in this process, but this machine cannot run target '",
                     target.ToString(), "'; use ExportLibrary for other machines"));
  }
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<llvm::TargetMachine*> tm = ThreadTargetMachine(target);
  if (!tm.ok()) return tm.status();
  absl::StatusOr<GeneratedModule> generated = GenerateModule(funcs, **tm);
  if (!generated.ok()) return generated.status();
  const auto generated_at = std::chrono::steady_clock::now();
  absl::StatusOr<std::unique_ptr<llvm::MemoryBuffer>> object = EmitObject(*generated->module, **tm);
  if (!object.ok()) return object.status();
  const auto emitted_at = std::chrono::steady_clock::now();
  absl::StatusOr<std::shared_ptr<JitCode>> code = LoadIntoJit(*std::move(object));
  if (!code.ok()) return code.status();
  absl::StatusOr<void*> launch = (*code)->Lookup(TF_PARALLEL_LAUNCH_SYMBOL);
  if (!launch.ok()) return launch.status();
  *static_cast<TFParallelLaunchFunc*>(*launch) = &TFBackendParallelLaunch;
  absl::StatusOr<void*> alloc = (*code)->Lookup(TF_WORKSPACE_ALLOC_SYMBOL);
  if (!alloc.ok()) return alloc.status();
  *static_cast<TFWorkspaceAllocFunc*>(*alloc) = &TFBackendWorkspaceAlloc;
  absl::StatusOr<void*> release = (*code)->Lookup(TF_WORKSPACE_FREE_SYMBOL);
  if (!release.ok()) return release.status();
  *static_cast<TFWorkspaceFreeFunc*>(*release) = &TFBackendWorkspaceFree;
  std::vector<runtime::PackedFunction> functions;
  for (const runtime::FunctionSignature& sig : generated->signatures) {
    absl::StatusOr<void*> entry = (*code)->Lookup(sig.name);
    if (!entry.ok()) return entry.status();
    functions.emplace_back(sig, reinterpret_cast<TFKernelFunc>(*entry), *code);
  }
  auto ms = [](auto from, auto to) {
    return std::chrono::duration<double, std::milli>(to - from).count();
  };
  const auto end = std::chrono::steady_clock::now();
  CodegenLogger().debug("{}: JIT build {:.2f} ms (module {:.2f}, object {:.2f}, link {:.2f})",
                        funcs[0].name, ms(start, end), ms(start, generated_at),
                        ms(generated_at, emitted_at), ms(emitted_at, end));
  return std::make_shared<JitModule>(std::move(functions));
}

}  // namespace tunefarm::codegen
