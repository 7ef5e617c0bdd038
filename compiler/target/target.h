// The device kernels are built for, parsed once from a TVM-style string at the edge (CLI flag,
// job spec, build spec) and passed typed to templates, lowering, code generation and records:
// a CPU through LLVM (`llvm ...`), an NVIDIA GPU through CUDA C and NVRTC (`cuda ...`), or any
// OpenCL GPU through OpenCL C, built by the device's own compiler (`opencl [-device=...]`).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "compiler/codegen/llvm/llvm_target.h"
#include "compiler/passes/pass.h"
#include "compiler/target/cuda_target.h"
#include "compiler/target/opencl_target.h"

namespace tunefarm::target {

class Target {
 public:
  // Compiled through LLVM / CUDA C and NVRTC / OpenCL C.
  enum class Kind : uint8_t { kCpu, kCuda, kOpenCl };

  // This machine (`llvm`), so that records and options holding a target start valid.
  Target() : Target(Host()) {}

  static Target Llvm(codegen::LlvmTarget llvm);
  static Target Cuda(CudaTarget cuda);
  static Target OpenCl(OpenClTarget opencl);
  // `llvm` on this machine, parsed once per process.
  static const Target& Host();

  Kind kind() const { return kind_; }
  bool is_cuda() const { return kind_ == Kind::kCuda; }
  bool is_opencl() const { return kind_ == Kind::kOpenCl; }
  // A GPU of either API: lowered alike (threads bound, shared memory, barriers), the same
  // templates, a GPU module for a file.
  bool is_gpu() const { return kind_ != Kind::kCpu; }
  const char* kind_name() const { return KindName(kind_); }
  static const char* KindName(Kind kind) {
    return kind == Kind::kCuda ? "cuda" : kind == Kind::kOpenCl ? "opencl" : "cpu";
  }

  // The LLVM target of a kCpu target. A GPU target's kernels are launched by the host, so it
  // answers the host's: what its host-side code and its templates' CPU knobs are built for.
  const codegen::LlvmTarget& llvm() const;
  const CudaTarget& cuda() const { return cuda_; }        // kCuda only
  const OpenClTarget& opencl() const { return opencl_; }  // kOpenCl only

  // The canonical string records and caches are keyed by: "llvm -mtriple=... -mcpu=...
  // [-mattr=...]", "cuda -arch=sm_90" or "opencl -device=mali". Parsing it gives this target back.
  const std::string& str() const { return canonical_; }
  // What the lowering pipeline lowers for (PassOptions::target).
  passes::LoweringTarget lowering() const {
    return is_gpu() ? passes::LoweringTarget::kCuda : passes::LoweringTarget::kLlvm;
  }
  // The extension of a built kernel file: ".so" (shared library), ".cuda" or ".opencl" (GPU
  // modules).
  const char* library_extension() const {
    return is_cuda() ? ".cuda" : is_opencl() ? ".opencl" : ".so";
  }

  bool operator==(const Target& other) const { return canonical_ == other.canonical_; }

 private:
  explicit Target(Kind kind) : kind_(kind) {}

  Kind kind_;
  codegen::LlvmTarget llvm_;  // kCpu
  CudaTarget cuda_;           // kCuda
  OpenClTarget opencl_;       // kOpenCl
  std::string canonical_;
};

// `llvm [-mtriple=..] [-mcpu=..] [-mattr=..]`, `cuda [-arch=sm_XY]` or `opencl [-device=D]`. Errors
// name the string and list what is accepted (ParseLlvmTarget's, ParseCudaTarget's and
// ParseOpenClTarget's messages).
absl::StatusOr<Target> ParseTarget(std::string_view text);

// A target as a person writes it, for tables and progress lines: the canonical string without its
// -mattr feature list (a thousand characters for a server CPU, implied by -mcpu). Records, the
// API and --json keep the canonical string.
std::string DisplayTarget(std::string_view canonical);

}  // namespace tunefarm::target
