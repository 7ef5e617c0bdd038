// ParseTarget: the kind is the first word; LLVM checks CPU targets against its own tables.
#include "compiler/target/target.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/ir/check.h"

namespace tunefarm::target {
namespace {

bool IsCudaText(std::string_view text) { return text == "cuda" || text.substr(0, 5) == "cuda "; }

}  // namespace

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

const Target& Target::Host() {
  static const Target host = [] {
    absl::StatusOr<codegen::LlvmTarget> llvm = codegen::ParseLlvmTarget("llvm");
    TF_CHECK(llvm.ok()) << "this machine's own target: " << llvm.status().message();
    return Llvm(*std::move(llvm));
  }();
  return host;
}

const codegen::LlvmTarget& Target::llvm() const { return is_cuda() ? Host().llvm() : llvm_; }

absl::StatusOr<Target> ParseTarget(std::string_view text) {
  if (IsCudaText(text)) {
    absl::StatusOr<CudaTarget> cuda = ParseCudaTarget(text);
    if (!cuda.ok()) return cuda.status();
    return Target::Cuda(*cuda);
  }
  absl::StatusOr<codegen::LlvmTarget> llvm = codegen::ParseLlvmTarget(text);
  if (!llvm.ok()) {
    return absl::Status(llvm.status().code(),
                        absl::StrCat(llvm.status().message(),
                                     "; or 'cuda' / 'cuda -arch=sm_XY' for an NVIDIA GPU"));
  }
  return Target::Llvm(*std::move(llvm));
}

}  // namespace tunefarm::target
