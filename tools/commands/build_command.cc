#include "tools/commands/build_command.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/codegen/llvm/build.h"
#include "compiler/passes/lower.h"
#include "compiler/target/target.h"
#include "driver/bindings.h"
#include "driver/gpu_module_writer.h"
#include "driver/script_file.h"
#include "driver/tuned_schedule.h"
#include "runtime/signature_text.h"
#include "tools/commands/exit_codes.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tools {
namespace {

// The library template's schedule of a workload key: the best recorded config when the database
// has one, else the template's default config.
absl::StatusOr<topi::ScheduledOp> WorkloadSchedule(const tuner::Task& task,
                                                   const driver::TunedLookup& lookup,
                                                   std::ostream& log) {
  if (!lookup.db.empty()) {
    absl::StatusOr<std::optional<driver::TunedSchedule>> best = driver::BestSchedule(task, lookup);
    if (!best.ok()) return best.status();
    if (best->has_value()) {
      log << "schedule: best recorded config of " << task.key() << ": "
          << (*best)->record.config_json << "\n";
      return (*best)->op;
    }
    log << "schedule: default config (" << driver::NoRecordText(task, lookup) << ")\n";
  }
  absl::StatusOr<space::Config> config = task.DefaultConfig();
  if (!config.ok()) return config.status();
  return task.Apply(*config);
}

}  // namespace

int RunBuildCommand(const BuildOptions& options, std::ostream& out, std::ostream& err) {
  absl::StatusOr<target::Target> target = target::ParseTarget(options.target);
  if (!target.ok()) {
    err << "tunefarm: " << target.status().message() << "\n";
    return kExitUsage;
  }
  if (options.output.empty()) {
    err << "tunefarm: build needs -o PATH for the shared library\n";
    return kExitUsage;
  }
  auto fail = [&](const absl::Status& status) {
    err << "tunefarm: " << status.message() << "\n";
    return kExitFailed;
  };
  if (options.file.empty() == options.workload.empty()) {
    err << "tunefarm: build needs a TE script or --workload KEY (not both)\n";
    return kExitUsage;
  }
  absl::StatusOr<driver::Bindings> bindings = driver::ParseBindings(options.bind);
  if (!bindings.ok()) {
    err << "tunefarm: " << bindings.status().message() << "\n";
    return kExitUsage;
  }
  driver::TunedLookup lookup{options.db, *target, options.device_key};
  absl::StatusOr<ir::PrimFunc> func = absl::UnknownError("unset");
  if (!options.workload.empty()) {
    // A bad key is a usage error here as in every command that takes one. A cuda target gets
    // the GPU template of the workload's op (and its best tuned config).
    absl::StatusOr<tuner::Workload> workload = tuner::ParseWorkloadKey(options.workload);
    absl::StatusOr<std::unique_ptr<tuner::Task>> task =
        workload.ok() ? tuner::CreateTask(*workload, *target) : workload.status();
    if (!task.ok()) {
      err << "tunefarm: " << task.status().message() << "\n";
      return kExitUsage;
    }
    absl::StatusOr<topi::ScheduledOp> op = WorkloadSchedule(**task, lookup, out);
    if (!op.ok()) return fail(op.status());
    passes::PassOptions pass_options = passes::PassOptions::FromEnv();
    pass_options.target = target->lowering();
    func =
        passes::Lower(op->schedule, op->args, driver::FuncNameFor(options.workload), pass_options);
  } else {
    absl::StatusOr<script::ScriptResult> script = driver::LoadScheduledScript(
        options.file, *bindings, lookup, [&out](const std::string& line) { out << line << "\n"; });
    if (!script.ok()) return fail(script.status());
    passes::PassOptions pass_options = passes::PassOptions::FromEnv();
    pass_options.target = target->lowering();
    func = driver::LowerScript(*script, driver::FuncNameFor(options.file), pass_options);
  }
  if (!func.ok()) {
    return fail(absl::Status(func.status().code(),
                             absl::StrCat(options.file.empty() ? options.workload : options.file,
                                          ": ", func.status().message())));
  }
  absl::StatusOr<runtime::FunctionSignature> signature = codegen::SignatureOf(*func);
  if (!signature.ok()) return fail(signature.status());
  if (target->is_gpu()) {
    absl::StatusOr<std::string> report = driver::WriteGpuModule(*func, *target, options.output);
    if (!report.ok()) return fail(report.status());
    out << "wrote " << options.output << ": " << (target->is_cuda() ? "CUDA" : "OpenCL")
        << " module, function " << runtime::SignatureText(*signature) << " for "
        << target::DisplayTarget(target->str()) << "\n"
        << *report;
    return 0;
  }
  if (absl::Status st = codegen::ExportLibrary({*func}, target->llvm(), options.output); !st.ok()) {
    return fail(st);
  }
  out << "wrote " << options.output << ": kernel " << runtime::SignatureText(*signature) << " for "
      << target::DisplayTarget(target->str()) << "\n";
  return 0;
}

}  // namespace tunefarm::tools
