#include "driver/c_api/model_build_c_api.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <nlohmann/json.hpp>
#include <string>

#include "absl/strings/str_split.h"
#include "driver/model_compiler.h"
#include "driver/model_tuning_tasks.h"

namespace {

using tunefarm::driver::ModelCompileOptions;

int32_t Fail(absl::string_view message, char* error, size_t error_size) {
  if (error != nullptr && error_size > 0) {
    const size_t n = std::min(message.size(), error_size - 1);
    std::memcpy(error, message.data(), n);
    error[n] = '\0';
  }
  return 1;
}

std::string Text(const char* s) { return s == nullptr ? std::string() : std::string(s); }

absl::Status ParseShapes(const char* text, ModelCompileOptions& options) {
  for (absl::string_view entry : absl::StrSplit(Text(text), ';', absl::SkipWhitespace())) {
    absl::Status s = tunefarm::driver::ParseInputShape(std::string(entry), &options.input_shapes);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::StatusOr<tunefarm::target::Target> ParseTarget(const char* text) {
  const std::string t = Text(text);
  return tunefarm::target::ParseTarget(t.empty() ? "llvm" : t);
}

// A C++ exception never crosses the ABI: it becomes the call's error.
template <typename Body>
int32_t Guarded(char* error, size_t error_size, Body body) {
  try {
    return body();
  } catch (const std::exception& e) {
    return Fail(std::string("internal error: ") + e.what(), error, error_size);
  }
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
    if (absl::Status s = ParseShapes(input_shapes, options); !s.ok()) {
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
    if (absl::Status s = ParseShapes(input_shapes, request.compile); !s.ok()) {
      return Fail(s.message(), error, error_size);
    }
    request.trials = trials;
    request.batch_size = batch_size;
    request.layouts = layouts < 0   ? tunefarm::driver::LayoutTuning::kAuto
                      : layouts > 0 ? tunefarm::driver::LayoutTuning::kOn
                                    : tunefarm::driver::LayoutTuning::kOff;
    absl::StatusOr<tunefarm::target::Target> t = ParseTarget(target);
    if (!t.ok()) return Fail(t.status().message(), error, error_size);
    absl::StatusOr<tunefarm::driver::ModelTuning> tuning =
        tunefarm::driver::ModelTuningTasks(request, *t);
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
    const std::string text = out.dump();
    *json = static_cast<char*>(std::malloc(text.size() + 1));
    if (*json == nullptr) return Fail("out of memory", error, error_size);
    std::memcpy(*json, text.c_str(), text.size() + 1);
    return 0;
  });
}

void TFFreeString(char* text) { std::free(text); }

}  // extern "C"
