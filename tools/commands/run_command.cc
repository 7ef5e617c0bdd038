#include "tools/commands/run_command.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/passes/lower.h"
#include "compiler/target/target.h"
#include "compiler/te/flop_count.h"
#include "driver/array_check.h"
#include "driver/bindings.h"
#include "driver/kernel_runner.h"
#include "driver/kernel_timer.h"
#include "driver/script_file.h"
#include "driver/tuned_schedule.h"
#include "runtime/data_type.h"
#include "tools/commands/exit_codes.h"

namespace tunefarm::tools {
namespace {

// Above this many FLOPs the interpreter (tens of millions of operations a second) would take
// longer than the user should wait, so the reference is compiled like the schedule under test.
constexpr double kInterpReferenceMaxFlops = 2e7;

bool IsInput(const te::Tensor& t) { return t.op()->kind == te::OpKind::kPlaceholder; }

// The same computation with a default schedule: the definition the user's tensors still hold
// (primitives rewrite the schedule's stages, never the ops behind the user's handles).
absl::StatusOr<ir::PrimFunc> LowerReference(const script::ScriptResult& script,
                                            const std::string& name) {
  std::vector<te::Operation> outputs;
  for (const te::Tensor& t : script.args) {
    if (!IsInput(t)) outputs.push_back(t.op());
  }
  if (outputs.empty()) return absl::InvalidArgumentError("args name no computed tensor to check");
  schedule::Schedule reference = schedule::Schedule::Create(outputs);
  absl::StatusOr<ir::PrimFunc> func =
      passes::Lower(reference, script.args, name + "_reference", passes::PassOptions());
  if (!func.ok()) {
    return absl::InternalError(
        absl::StrCat("lowering the unscheduled definition: ", func.status().message()));
  }
  return func;
}

// One array per argument: inputs filled with seeded random data, outputs with poison so that an
// element the function never writes cannot match.
absl::StatusOr<std::vector<runtime::NDArray>> AllocateArgs(const std::vector<te::Tensor>& args,
                                                           const ir::VarMap& values,
                                                           uint64_t seed) {
  std::vector<runtime::NDArray> arrays;
  for (size_t i = 0; i < args.size(); ++i) {
    absl::StatusOr<std::vector<int64_t>> shape = driver::ConcreteShape(args[i], values);
    if (!shape.ok()) return shape.status();
    absl::StatusOr<DLDataType> dtype = runtime::ParseDataType(args[i].dtype().ToString());
    if (!dtype.ok()) return dtype.status();
    absl::StatusOr<runtime::NDArray> array = runtime::NDArray::Empty(*shape, *dtype);
    if (!array.ok()) return array.status();
    if (IsInput(args[i])) {
      absl::Status st = driver::FillRandom(*array, seed + 0x9e3779b97f4a7c15ULL * (i + 1));
      if (!st.ok()) return st;
    } else {
      driver::FillPoison(*array);
    }
    arrays.push_back(*std::move(array));
  }
  return arrays;
}

// Runs `runner` on the inputs of `arrays` and fresh copies of its outputs; returns those.
absl::StatusOr<std::vector<runtime::NDArray>> RunOn(const driver::KernelRunner& runner,
                                                    const std::string& name,
                                                    const std::vector<te::Tensor>& args,
                                                    std::vector<runtime::NDArray>& arrays,
                                                    const driver::Bindings& bindings) {
  std::vector<runtime::NDArray> outputs;
  outputs.reserve(args.size());
  std::vector<runtime::NDArray*> pointers;
  for (size_t i = 0; i < args.size(); ++i) {
    if (IsInput(args[i])) {
      pointers.push_back(&arrays[i]);
      continue;
    }
    absl::StatusOr<runtime::NDArray> out =
        runtime::NDArray::Empty(arrays[i].shape(), arrays[i].dtype());
    if (!out.ok()) return out.status();
    if (absl::Status st = out->CopyFrom(arrays[i]); !st.ok()) return st;
    outputs.push_back(*std::move(out));
    pointers.push_back(&outputs.back());
  }
  if (absl::Status st = runner.Run(pointers, bindings); !st.ok()) {
    return absl::Status(st.code(), absl::StrCat("running ", name, ": ", st.message()));
  }
  return outputs;
}

// Compares the outputs; prints the verdict. Returns the exit code.
int Report(const std::vector<te::Tensor>& args, const std::vector<runtime::NDArray>& got,
           const std::vector<runtime::NDArray>& expected, const RunOptions& options,
           std::ostream& out, std::ostream& err) {
  double max_abs_err = 0.0;
  std::string mismatch;
  size_t k = 0;
  for (const te::Tensor& t : args) {
    if (IsInput(t)) continue;
    absl::StatusOr<driver::Comparison> c =
        driver::CompareArrays(got[k], expected[k], options.rtol, options.atol);
    if (!c.ok()) {
      err << "tunefarm: " << t.name() << ": " << c.status().message() << "\n";
      return 1;
    }
    max_abs_err = std::max(max_abs_err, c->max_abs_err);
    if (c->first_mismatch >= 0 && mismatch.empty()) {
      mismatch = absl::StrCat("mismatch: ", t.name(),
                              driver::FormatIndex(c->first_mismatch, got[k].shape()), " = ", c->got,
                              ", expected ", c->expected);
    }
    ++k;
  }
  out << "max_abs_err=" << max_abs_err << "\n";
  out << (mismatch.empty() ? "ok" : mismatch) << "\n";
  return mismatch.empty() ? 0 : 1;
}

std::vector<te::Tensor> Outputs(const std::vector<te::Tensor>& args) {
  std::vector<te::Tensor> outputs;
  for (const te::Tensor& t : args) {
    if (!IsInput(t)) outputs.push_back(t);
  }
  return outputs;
}

}  // namespace

int RunRunCommand(const RunOptions& options, std::ostream& out, std::ostream& err) {
  absl::StatusOr<driver::Bindings> bindings = driver::ParseBindings(options.bind);
  if (!bindings.ok()) {
    err << "tunefarm: " << bindings.status().message() << "\n";
    return kExitUsage;
  }
  if (options.threads < 0) {
    err << "tunefarm: --threads must be 0 (all cores) or positive, got " << options.threads << "\n";
    return kExitUsage;
  }
  // The target, parsed once: nullopt is the reference interpreter.
  std::optional<target::Target> target;
  if (options.target != "interp") {
    absl::StatusOr<target::Target> parsed = target::ParseTarget(options.target);
    if (!parsed.ok()) {
      err << "tunefarm: " << parsed.status().message() << " (run also accepts: interp)\n";
      return kExitUsage;
    }
    target = *std::move(parsed);
  }
  auto fail = [&](const absl::Status& status) {
    err << "tunefarm: " << status.message() << "\n";
    return 1;
  };
  if (!options.db.empty() && !target.has_value()) {
    err << "tunefarm: --db looks up a tuned schedule for a compiled target; add --target llvm\n";
    return kExitUsage;
  }
  // Without a database the lookup's target is never read: the interpreter's is the host's.
  driver::TunedLookup lookup{options.db, target.value_or(target::Target::Host()),
                             options.device_key};
  absl::StatusOr<script::ScriptResult> script =
      driver::LoadScheduledScript(options.file, *bindings, lookup, out);
  if (!script.ok()) return fail(script.status());
  // A script with knobs ran with its sizes bound to constants: nothing is left to bind.
  if (!script->knob_names.empty() || !script->bound_vars.empty()) bindings->clear();
  absl::StatusOr<ir::VarMap> values =
      driver::ResolveBindings(*bindings, script->symbolic_vars, script->args);
  if (!values.ok()) return fail(values.status());
  std::string name = driver::FuncNameFor(options.file);
  passes::PassOptions pass_options = passes::PassOptions::FromEnv();
  pass_options.target = target ? target->lowering() : passes::LoweringTarget::kInterp;
  absl::StatusOr<ir::PrimFunc> scheduled = driver::LowerScript(*script, name, pass_options);
  if (!scheduled.ok()) {
    return fail(absl::Status(scheduled.status().code(),
                             absl::StrCat(options.file, ": ", scheduled.status().message())));
  }
  absl::StatusOr<std::unique_ptr<driver::KernelRunner>> runner =
      target ? driver::KernelRunner::Create(*scheduled, *target)
             : driver::KernelRunner::Interpret(*scheduled);
  if (!runner.ok()) return fail(runner.status());
  if (options.threads > 0) {
    if (absl::Status st = driver::SetKernelThreads(options.threads); !st.ok()) return fail(st);
  }
  absl::StatusOr<double> flops = te::CountFlops(Outputs(script->args), *values);
  if (!flops.ok()) return fail(flops.status());

  absl::StatusOr<ir::PrimFunc> reference = LowerReference(*script, name);
  if (!reference.ok()) return fail(reference.status());
  bool interp_reference = !target || *flops <= kInterpReferenceMaxFlops;
  absl::StatusOr<std::unique_ptr<driver::KernelRunner>> reference_runner =
      interp_reference ? driver::KernelRunner::Interpret(*reference)
      : target->is_gpu()
          ? driver::KernelRunner::Create(*reference, target::Target::Host())  // CPU code
          : driver::KernelRunner::Create(*reference, *target);
  if (!reference_runner.ok()) return fail(reference_runner.status());

  absl::StatusOr<std::vector<runtime::NDArray>> arrays =
      AllocateArgs(script->args, *values, options.seed);
  if (!arrays.ok()) return fail(arrays.status());
  absl::StatusOr<std::vector<runtime::NDArray>> got =
      RunOn(**runner, name, script->args, *arrays, *bindings);
  if (!got.ok()) return fail(got.status());
  absl::StatusOr<std::vector<runtime::NDArray>> expected =
      RunOn(**reference_runner, reference->name, script->args, *arrays, *bindings);
  if (!expected.ok()) return fail(expected.status());
  if (!interp_reference) {
    out << "reference=" << (*reference_runner)->Describe()
        << " (unscheduled definition; too large for the interpreter)\n";
  }
  int code = Report(script->args, *got, *expected, options, out, err);
  if (code != 0 || !options.time) return code;

  absl::StatusOr<driver::KernelTiming> timing = driver::TimeKernel(**runner, *arrays, *bindings);
  if (!timing.ok()) return fail(timing.status());
  double gflops = *flops / (timing->median_seconds * 1e9);
  out << "target=" << (*runner)->Describe();
  if (timing->threads > 0) out << " threads=" << timing->threads;
  out << " repeats=" << timing->repeats << "\n";
  out << "median_ms=" << timing->median_seconds * 1e3 << " gflops=" << gflops << "\n";
  return 0;
}

}  // namespace tunefarm::tools
