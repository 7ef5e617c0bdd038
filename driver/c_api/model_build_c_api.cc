#include "driver/c_api/model_build_c_api.h"

#include <nlohmann/json.hpp>
#include <string>

#include "absl/strings/str_split.h"
#include "driver/c_api/c_call.h"
#include "driver/model_compiler.h"
#include "driver/model_tuning_tasks.h"

namespace {

using tunefarm::c_api::Fail;
using tunefarm::c_api::Guarded;
using tunefarm::c_api::Text;
using tunefarm::driver::ModelCompileOptions;

absl::StatusOr<tunefarm::target::Target> ParseTarget(const char* text) {
  const std::string t = Text(text);
  return tunefarm::target::ParseTarget(t.empty() ? "llvm" : t);
}

}  // namespace

extern "C" {

int32_t TFBuildModel(const char* onnx, const char* input_shapes, const char* target, const char* db,
                     const char* device_key, const char* disabled_passes, const char* output,
                     char* error, size_t error_size) {
  return Guarded(error, error_size, [&]() -> int32_t {
    if (onnx == nullptr || output == nullptr)
      return Fail("no model or no output", error, error_size);
    ModelCompileOptions options;
    if (absl::Status s = tunefarm::c_api::ParseShapeList(input_shapes, &options.input_shapes);
        !s.ok()) {
      return Fail(s.message(), error, error_size);
    }
    for (absl::string_view pass : absl::StrSplit(Text(disabled_passes), ',', absl::SkipEmpty())) {
      options.disabled_passes.emplace_back(pass);
    }
    options.db = Text(db);
    options.device_key = Text(device_key);
    if (options.db.empty() != options.device_key.empty()) {
      return Fail("records need both a database and a device key", error, error_size);
    }
    absl::StatusOr<tunefarm::target::Target> t = ParseTarget(target);
    if (!t.ok()) return Fail(t.status().message(), error, error_size);
    absl::StatusOr<tunefarm::driver::CompiledModel> model =
        tunefarm::driver::CompileModel(onnx, options, *t);
    if (!model.ok()) return Fail(model.status().message(), error, error_size);
    if (absl::Status s = tunefarm::driver::ExportCompiledModel(*model, output); !s.ok()) {
      return Fail(s.message(), error, error_size);
    }
    return 0;
  });
}

int32_t TFModelTuningTasks(const char* onnx, const char* input_shapes, const char* target,
                           int32_t trials, int32_t batch_size, int32_t layouts, char** json,
                           char* error, size_t error_size) {
  return Guarded(error, error_size, [&]() -> int32_t {
    if (onnx == nullptr || json == nullptr) return Fail("no model or no result", error, error_size);
    if (trials <= 0 || batch_size <= 0) {
      return Fail("trials and batch size must be positive", error, error_size);
    }
    if (layouts < -1 || layouts > 1) return Fail("layouts must be -1, 0 or 1", error, error_size);
    tunefarm::driver::ModelTuningRequest request;
    request.file = onnx;
    if (absl::Status s =
            tunefarm::c_api::ParseShapeList(input_shapes, &request.compile.input_shapes);
        !s.ok()) {
      return Fail(s.message(), error, error_size);
    }
    request.layouts = layouts < 0   ? tunefarm::driver::LayoutTuning::kAuto
                      : layouts > 0 ? tunefarm::driver::LayoutTuning::kOn
                                    : tunefarm::driver::LayoutTuning::kOff;
    absl::StatusOr<tunefarm::target::Target> t = ParseTarget(target);
    if (!t.ok()) return Fail(t.status().message(), error, error_size);
    tunefarm::tuner::TuningRequest budget;
    budget.trials = trials;
    budget.batch_size = batch_size;
    absl::StatusOr<tunefarm::driver::ModelTuning> tuning =
        tunefarm::driver::ModelTuningTasks(request, budget, *t);
    if (!tuning.ok()) return Fail(tuning.status().message(), error, error_size);
    nlohmann::json out;
    out["tasks"] = nlohmann::json::array();
    for (const tunefarm::tuner::ModelTask& task : tuning->tasks) {
      out["tasks"].push_back({{"workload_key", task.workload.Key()},
                              {"weight", static_cast<double>(task.groups.size())},
                              {"layer", task.layer}});
    }
    out["layout_choice"] = tuning->layout.empty()
                               ? std::string()
                               : tunefarm::tuner::LayoutChoiceToJson(tuning->layout);
    out["layouts_line"] = tuning->layouts_line;
    *json = tunefarm::c_api::MallocCopy(out.dump());
    if (*json == nullptr) return Fail("out of memory", error, error_size);
    return 0;
  });
}

void TFFreeString(char* text) { std::free(text); }

}  // extern "C"
