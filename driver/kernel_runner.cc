#include "driver/kernel_runner.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/codegen/llvm/build.h"
#include "compiler/interp/interpreter.h"

namespace tunefarm::driver {
namespace {

class InterpRunner : public KernelRunner {
 public:
  explicit InterpRunner(interp::CompiledFunc func) : func_(std::move(func)) {}
  absl::Status Run(const std::vector<runtime::NDArray*>& arrays, const Bindings&) const override {
    return func_.Run(arrays);
  }
  std::string Describe() const override { return "interp"; }

 private:
  interp::CompiledFunc func_;
};

class LlvmRunner : public KernelRunner {
 public:
  LlvmRunner(runtime::PackedFunction func, std::string target)
      : func_(std::move(func)), target_(std::move(target)) {}

  absl::Status Run(const std::vector<runtime::NDArray*>& arrays,
                   const Bindings& bindings) const override {
    absl::StatusOr<std::vector<runtime::PackedArg>> args =
        PackArguments(func_.signature(), arrays, bindings);
    if (!args.ok()) return args.status();
    return func_.Call(*args);
  }
  std::string Describe() const override { return target_; }

 private:
  runtime::PackedFunction func_;
  std::string target_;
};

}  // namespace

absl::StatusOr<std::vector<runtime::PackedArg>> PackArguments(
    const runtime::FunctionSignature& signature, const std::vector<runtime::NDArray*>& arrays,
    const Bindings& bindings) {
  std::vector<runtime::PackedArg> args;
  size_t next_array = 0;
  for (const runtime::ArgSpec& spec : signature.args) {
    if (spec.kind == runtime::ArgKind::kTensor) {
      if (next_array >= arrays.size()) break;  // the call reports the missing argument
      args.emplace_back(arrays[next_array++]);
      continue;
    }
    auto it = bindings.find(spec.name);
    if (it == bindings.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("the kernel takes an integer argument ", spec.name,
                       " that no shape defines: give it with --bind ", spec.name, "=VALUE"));
    }
    args.emplace_back(it->second);
  }
  return args;
}

absl::StatusOr<std::vector<double>> KernelRunner::Time(
    const std::vector<runtime::NDArray*>& arrays, const Bindings& bindings,
    const runtime::TimeEvaluatorOptions& options) const {
  return runtime::TimeFunction([&] { return Run(arrays, bindings); }, options);
}

absl::StatusOr<std::unique_ptr<KernelRunner>> KernelRunner::Interpret(const ir::PrimFunc& func) {
  absl::StatusOr<interp::CompiledFunc> compiled = interp::CompiledFunc::Compile(func);
  if (!compiled.ok()) return compiled.status();
  return std::make_unique<InterpRunner>(*std::move(compiled));
}

absl::StatusOr<std::unique_ptr<KernelRunner>> KernelRunner::Create(const ir::PrimFunc& func,
                                                                   const target::Target& target) {
  if (target.is_gpu()) return CreateGpuRunner(func, target);
  const codegen::LlvmTarget& llvm = target.llvm();
  if (!llvm.is_host) {
    return absl::FailedPreconditionError(
        absl::StrCat("target '", target.str(),
                     "' is not this machine: build a library for it with `tunefarm build`"));
  }
  absl::StatusOr<std::shared_ptr<runtime::Module>> module = codegen::BuildJit({func}, llvm);
  if (!module.ok()) return module.status();
  absl::StatusOr<runtime::PackedFunction> kernel = (*module)->GetFunction(func.name);
  if (!kernel.ok()) return kernel.status();
  // The host's canonical string lists every CPU feature; the CPU name says the same in one word.
  return std::make_unique<LlvmRunner>(*std::move(kernel), absl::StrCat("llvm -mcpu=", llvm.cpu));
}

}  // namespace tunefarm::driver
