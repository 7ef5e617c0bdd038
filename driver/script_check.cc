#include "driver/script_check.h"

#include <algorithm>
#include <memory>
#include <sstream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/passes/lower.h"
#include "compiler/te/flop_count.h"
#include "driver/array_check.h"
#include "driver/kernel_runner.h"
#include "driver/kernel_timer.h"
#include "driver/script_file.h"
#include "driver/tuned_schedule.h"
#include "runtime/data_type.h"

namespace tunefarm::driver {
namespace {

// Above this many FLOPs the interpreter (tens of millions of operations a second) would take
// longer than the user should wait, so the reference is compiled like the schedule under test.
constexpr double kInterpReferenceMaxFlops = 2e7;

bool IsScriptInput(const te::Tensor& t) { return t.op()->kind == te::OpKind::kPlaceholder; }

std::vector<te::Tensor> ComputedOutputs(const std::vector<te::Tensor>& args) {
  std::vector<te::Tensor> outputs;
  for (const te::Tensor& t : args) {
    if (!IsScriptInput(t)) outputs.push_back(t);
  }
  return outputs;
}

// The same computation with a default schedule: the definition the user's tensors still hold
// (primitives rewrite the schedule's stages, never the ops behind the user's handles).
absl::StatusOr<ir::PrimFunc> LowerUnscheduled(const script::ScriptResult& script,
                                              const std::string& name) {
  std::vector<te::Operation> outputs;
  for (const te::Tensor& t : ComputedOutputs(script.args)) outputs.push_back(t.op());
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
absl::StatusOr<std::vector<runtime::NDArray>> AllocateCheckArgs(const std::vector<te::Tensor>& args,
                                                                const ir::VarMap& values,
                                                                uint64_t seed) {
  std::vector<runtime::NDArray> arrays;
  for (size_t i = 0; i < args.size(); ++i) {
    absl::StatusOr<std::vector<int64_t>> shape = ConcreteShape(args[i], values);
    if (!shape.ok()) return shape.status();
    absl::StatusOr<DLDataType> dtype = runtime::ParseDataType(args[i].dtype().ToString());
    if (!dtype.ok()) return dtype.status();
    absl::StatusOr<runtime::NDArray> array = runtime::NDArray::Empty(*shape, *dtype);
    if (!array.ok()) return array.status();
    if (IsScriptInput(args[i])) {
      absl::Status st = FillRandom(*array, seed + 0x9e3779b97f4a7c15ULL * (i + 1));
      if (!st.ok()) return st;
    } else {
      FillPoison(*array);
    }
    arrays.push_back(*std::move(array));
  }
  return arrays;
}

// Runs `runner` on the inputs of `arrays` and fresh copies of its outputs (both functions start
// from the same poison); returns those copies.
absl::StatusOr<std::vector<runtime::NDArray>> RunOnCopies(const KernelRunner& runner,
                                                          const std::string& name,
                                                          const std::vector<te::Tensor>& args,
                                                          std::vector<runtime::NDArray>& arrays,
                                                          const Bindings& bindings) {
  std::vector<runtime::NDArray> outputs;
  // Reserved up front: `pointers` keeps addresses into it.
  outputs.reserve(args.size());
  std::vector<runtime::NDArray*> pointers;
  for (size_t i = 0; i < args.size(); ++i) {
    if (IsScriptInput(args[i])) {
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

// Each computed output against the reference's: its error, and the first mismatch of all.
absl::Status CompareOutputs(const std::vector<te::Tensor>& args,
                            const std::vector<runtime::NDArray>& got,
                            const std::vector<runtime::NDArray>& expected, double rtol, double atol,
                            ScriptCheck& check) {
  size_t k = 0;
  for (const te::Tensor& t : ComputedOutputs(args)) {
    absl::StatusOr<Comparison> c = CompareArrays(got[k], expected[k], rtol, atol);
    if (!c.ok()) {
      return absl::Status(c.status().code(), absl::StrCat(t.name(), ": ", c.status().message()));
    }
    check.outputs.push_back(OutputError{t.name(), c->max_abs_err});
    check.max_abs_err = std::max(check.max_abs_err, c->max_abs_err);
    if (c->first_mismatch >= 0 && !check.mismatch.has_value()) {
      check.mismatch = OutputMismatch{t.name(), FormatIndex(c->first_mismatch, got[k].shape()),
                                      c->got, c->expected};
    }
    ++k;
  }
  return absl::OkStatus();
}

}  // namespace

std::string OutputMismatch::Describe() const {
  return absl::StrCat(tensor, index, " = ", got, ", expected ", expected);
}

absl::StatusOr<ScriptCheck> CheckScript(const ScriptCheckOptions& options) {
  if (options.threads < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("threads must be 0 (all cores) or positive, got ", options.threads));
  }
  if (!options.db.empty() && !options.target.has_value()) {
    return absl::InvalidArgumentError(
        "a tuned schedule is looked up for a compiled target, not the interpreter");
  }
  const std::optional<target::Target>& target = options.target;
  // Without a database the lookup's target is never read: the interpreter's is the host's.
  TunedLookup lookup{options.db, target.value_or(target::Target::Host()), options.device_key};
  absl::StatusOr<script::ScriptResult> script =
      LoadScheduledScript(options.file, options.bindings, lookup, [&](const std::string& line) {
        if (options.on_schedule) options.on_schedule(line);
      });
  if (!script.ok()) return script.status();
  // A script with knobs ran with its sizes bound to constants: nothing is left to bind.
  Bindings bindings = options.bindings;
  if (!script->knob_names.empty() || !script->bound_vars.empty()) bindings.clear();
  absl::StatusOr<ir::VarMap> values =
      ResolveBindings(bindings, script->symbolic_vars, script->args);
  if (!values.ok()) return values.status();
  std::string name = FuncNameFor(options.file);
  passes::PassOptions pass_options = passes::PassOptions::FromEnv();
  pass_options.target = target ? target->lowering() : passes::LoweringTarget::kInterp;
  absl::StatusOr<ir::PrimFunc> scheduled = LowerScript(*script, name, pass_options);
  if (!scheduled.ok()) {
    return absl::Status(scheduled.status().code(),
                        absl::StrCat(options.file, ": ", scheduled.status().message()));
  }
  absl::StatusOr<std::unique_ptr<KernelRunner>> runner =
      target ? KernelRunner::Create(*scheduled, *target) : KernelRunner::Interpret(*scheduled);
  if (!runner.ok()) return runner.status();
  if (options.threads > 0) {
    if (absl::Status st = SetKernelThreads(options.threads); !st.ok()) return st;
  }
  absl::StatusOr<double> flops = te::CountFlops(ComputedOutputs(script->args), *values);
  if (!flops.ok()) return flops.status();

  absl::StatusOr<ir::PrimFunc> reference = LowerUnscheduled(*script, name);
  if (!reference.ok()) return reference.status();
  bool interp_reference = !target || *flops <= kInterpReferenceMaxFlops;
  absl::StatusOr<std::unique_ptr<KernelRunner>> reference_runner =
      interp_reference   ? KernelRunner::Interpret(*reference)
      : target->is_gpu() ? KernelRunner::Create(*reference, target::Target::Host())  // CPU code
                         : KernelRunner::Create(*reference, *target);
  if (!reference_runner.ok()) return reference_runner.status();

  absl::StatusOr<std::vector<runtime::NDArray>> arrays =
      AllocateCheckArgs(script->args, *values, options.seed);
  if (!arrays.ok()) return arrays.status();
  absl::StatusOr<std::vector<runtime::NDArray>> got =
      RunOnCopies(**runner, name, script->args, *arrays, bindings);
  if (!got.ok()) return got.status();
  absl::StatusOr<std::vector<runtime::NDArray>> expected =
      RunOnCopies(**reference_runner, reference->name, script->args, *arrays, bindings);
  if (!expected.ok()) return expected.status();

  ScriptCheck check;
  if (!interp_reference) check.compiled_reference = (*reference_runner)->Describe();
  if (absl::Status st =
          CompareOutputs(script->args, *got, *expected, options.rtol, options.atol, check);
      !st.ok()) {
    return st;
  }
  if (!check.ok() || !options.time) return check;

  absl::StatusOr<KernelTiming> timing = TimeKernel(**runner, *arrays, bindings);
  if (!timing.ok()) return timing.status();
  check.timing =
      ScriptTiming{(*runner)->Describe(), timing->median_seconds,
                   *flops / (timing->median_seconds * 1e9), timing->repeats, timing->threads};
  return check;
}

}  // namespace tunefarm::driver
