// Private: the process-wide ORC LLJIT that runs JIT-built modules. Each loaded object gets a
// JITDylib of its own, so equal kernel names in different modules never clash and each module's
// `__tf_parallel_launch` is its own; the JITDylib and its code go away with the last JitCode
// handle. One session for the process keeps a build at the cost of linking, not of making a JIT.
#pragma once

#include <llvm/Support/MemoryBuffer.h>
#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace llvm::orc {
class LLJIT;
class JITDylib;
}  // namespace llvm::orc

namespace tunefarm::codegen {

// Code linked into this process. Thread-safe.
class JitCode {
 public:
  JitCode(llvm::orc::LLJIT* jit, llvm::orc::JITDylib* dylib) : jit_(jit), dylib_(dylib) {}
  ~JitCode();
  JitCode(const JitCode&) = delete;
  JitCode& operator=(const JitCode&) = delete;

  // The address of `name`; the first lookup links the object (resolving libc and libm symbols
  // against the process), so unresolved symbols are reported here.
  absl::StatusOr<void*> Lookup(const std::string& name) const;

 private:
  llvm::orc::LLJIT* jit_;
  llvm::orc::JITDylib* dylib_;
};

// Adds a relocatable object for this host to the process's JIT session.
absl::StatusOr<std::shared_ptr<JitCode>> LoadIntoJit(std::unique_ptr<llvm::MemoryBuffer> object);

}  // namespace tunefarm::codegen
