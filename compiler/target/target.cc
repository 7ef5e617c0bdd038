// ParseTarget: the kind is the first word; LLVM checks CPU targets against its own tables.
#include "compiler/target/target.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "compiler/ir/check.h"

namespace tunefarm::target {
Target Target::Llvm(codegen::LlvmTarget llvm) {
  Target t(Kind::kCpu);
  t.canonical_ = llvm.ToString();
  t.llvm_ = std::move(llvm);
  return t;
}

Target Target::Cuda(CudaTarget cuda) {
  Target t(Kind::kCuda);
  t.canonical_ = cuda.ToString();
  t.cuda_ = cuda;
  return t;
}

Target Target::OpenCl(OpenClTarget opencl) {
  Target t(Kind::kOpenCl);
  t.canonical_ = opencl.ToString();
  t.opencl_ = opencl;
  return t;
}

const Target& Target::Host() {
  static const Target host = [] {
    absl::StatusOr<codegen::LlvmTarget> llvm = codegen::ParseLlvmTarget("llvm");
    TF_CHECK(llvm.ok()) << "this machine's own target: " << llvm.status().message();
    return Llvm(*std::move(llvm));
  }();
  return host;
}

const codegen::LlvmTarget& Target::llvm() const { return is_gpu() ? Host().llvm() : llvm_; }

std::string DisplayTarget(std::string_view canonical) {
  std::string shown;
  for (absl::string_view word : absl::StrSplit(
           absl::string_view(canonical.data(), canonical.size()), ' ', absl::SkipEmpty())) {
    if (absl::StartsWith(word, "-mattr=")) continue;
    if (!shown.empty()) shown += ' ';
    shown.append(word.data(), word.size());
  }
  return shown;
}

absl::StatusOr<Target> ParseTarget(std::string_view text) {
  const std::vector<std::string> words =
      absl::StrSplit(absl::string_view(text.data(), text.size()), ' ', absl::SkipWhitespace());
  if (words.empty() || (words[0] != "llvm" && words[0] != "cuda" && words[0] != "opencl")) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bad target '", std::string(text),
        "': the kind must be 'llvm', 'cuda' or 'opencl'; accepted: 'llvm' (this host) or 'llvm "
        "-mtriple=<arch>-linux-gnu [-mcpu=<cpu>] [-mattr=<+feature,...>]' for a CPU (arch: "
        "x86_64, aarch64), 'cuda' / 'cuda -arch=sm_XY' for an NVIDIA GPU, 'opencl' / 'opencl "
        "-device=mali|adreno|intel_graphics|pocl' for an OpenCL GPU"));
  }
  if (words[0] == "opencl") {
    absl::StatusOr<OpenClTarget> opencl = ParseOpenClTarget(text);
    if (!opencl.ok()) return opencl.status();
    return Target::OpenCl(*opencl);
  }
  if (words[0] == "cuda") {
    absl::StatusOr<CudaTarget> cuda = ParseCudaTarget(text);
    if (!cuda.ok()) return cuda.status();
    return Target::Cuda(*cuda);
  }
  absl::StatusOr<codegen::LlvmTarget> llvm = codegen::ParseLlvmTarget(text);
  if (!llvm.ok()) return llvm.status();
  return Target::Llvm(*std::move(llvm));
}

}  // namespace tunefarm::target
