#include "compiler/codegen/llvm/jit_session.h"

#include <atomic>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <spdlog/spdlog.h>

#include "compiler/codegen/llvm/codegen_logger.h"
#include "compiler/codegen/llvm/llvm_error.h"
#include "compiler/codegen/llvm/llvm_target_machine.h"

namespace tunefarm::codegen {
namespace {

absl::StatusOr<llvm::orc::LLJIT*> MakeProcessJit() {
  InitializeLlvmTargets();
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> host =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!host) return FromLlvmError(host.takeError(), "detecting the JIT's host");
  llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> jit =
      llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*host)).create();
  if (!jit) return FromLlvmError(jit.takeError(), "creating the JIT");
  // Never destroyed: modules may be released during static destruction, after any owner of the
  // session would be gone.
  return jit->release();
}

absl::StatusOr<llvm::orc::LLJIT*> ProcessJit() {
  static const absl::StatusOr<llvm::orc::LLJIT*> jit = MakeProcessJit();
  return jit;
}

}  // namespace

JitCode::~JitCode() {
  absl::Status s =
      FromLlvmError(jit_->getExecutionSession().removeJITDylib(*dylib_), "removing a JIT module");
  if (!s.ok()) CodegenLogger().warn("{}", std::string(s.message()));
}

absl::StatusOr<void*> JitCode::Lookup(const std::string& name) const {
  llvm::Expected<llvm::orc::ExecutorAddr> addr = jit_->lookup(*dylib_, name);
  if (!addr) return FromLlvmError(addr.takeError(), "linking JIT code");
  return addr->toPtr<void*>();
}

absl::StatusOr<std::shared_ptr<JitCode>> LoadIntoJit(std::unique_ptr<llvm::MemoryBuffer> object) {
  absl::StatusOr<llvm::orc::LLJIT*> jit = ProcessJit();
  if (!jit.ok()) return jit.status();
  static std::atomic<uint64_t> next_id{0};
  llvm::Expected<llvm::orc::JITDylib&> dylib =
      (*jit)->createJITDylib("tunefarm_module_" + std::to_string(next_id++));
  if (!dylib) return FromLlvmError(dylib.takeError(), "creating a JIT module");
  auto code = std::make_shared<JitCode>(*jit, &*dylib);  // removes the dylib on any failure below
  if (llvm::Error e = (*jit)->addObjectFile(*dylib, std::move(object))) {
    return FromLlvmError(std::move(e), "adding an object to the JIT");
  }
  return code;
}

}  // namespace tunefarm::codegen
