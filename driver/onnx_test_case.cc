#include "driver/onnx_test_case.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/codegen/llvm/temp_dir.h"
#include "compiler/frontend/onnx/onnx_importer.h"
#include "driver/array_file.h"
#include "driver/element_value.h"
#include "driver/model_compiler.h"
#include "runtime/data_type.h"

namespace tunefarm::driver {
namespace {

namespace fs = std::filesystem;

CaseResult Failed(const absl::Status& s) {
  return {s.code() == absl::StatusCode::kUnimplemented ? CaseOutcome::kUnsupported
                                                       : CaseOutcome::kFailed,
          std::string(s.message())};
}

std::vector<fs::path> DataSets(const fs::path& dir) {
  std::vector<fs::path> sets;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.is_directory() && entry.path().filename().string().rfind("test_data_set_", 0) == 0) {
      sets.push_back(entry.path());
    }
  }
  std::sort(sets.begin(), sets.end());
  return sets;
}

std::string CaseShapeText(const std::vector<int64_t>& shape) {
  return absl::StrCat("[", absl::StrJoin(shape, ","), "]");
}

// "" when `got` matches `want` element by element: floats (16, 32 or 64 bits) within the
// tolerance, integers and bools (quantized tensors, indices, masks) exactly.
std::string Compare(const DLTensor& got, const runtime::NDArray& want, double rtol, double atol) {
  std::vector<int64_t> shape(got.shape, got.shape + got.ndim);
  if (shape != want.shape()) {
    return absl::StrCat("the shape differs: got ", CaseShapeText(shape), ", want ",
                        CaseShapeText(want.shape()));
  }
  if (!runtime::SameDataType(got.dtype, want.dtype())) {
    return absl::StrCat("the dtype differs: got ", runtime::DataTypeToString(got.dtype), ", want ",
                        runtime::DataTypeToString(want.dtype()));
  }
  if (got.dtype.code != kDLFloat) {
    const size_t bytes = runtime::DataTypeBytes(got.dtype);
    const auto* g = static_cast<const unsigned char*>(got.data);
    const auto* w = static_cast<const unsigned char*>(want.data());
    for (int64_t i = 0; i < want.NumElements(); ++i) {
      if (std::memcmp(g + i * bytes, w + i * bytes, bytes) != 0) {
        return absl::StrCat("element ", i, " differs (", runtime::DataTypeToString(got.dtype), ")");
      }
    }
    return "";
  }
  const int bits = got.dtype.bits;
  if (bits != 16 && bits != 32 && bits != 64) {
    return absl::StrCat("cannot compare ", runtime::DataTypeToString(got.dtype));
  }
  for (int64_t i = 0; i < want.NumElements(); ++i) {
    const double g = ElementValue(got.dtype, got.data, i);
    const double w = ElementValue(want.dtype(), want.data(), i);
    const bool both_nan = std::isnan(g) && std::isnan(w);
    if (!both_nan && !(std::fabs(g - w) <= atol + rtol * std::fabs(w)) && g != w) {
      return absl::StrCat("element ", i, ": got ", g, ", want ", w);
    }
  }
  return "";
}

}  // namespace

CaseResult RunOnnxTestCase(const std::string& case_dir, const target::Target& target, double rtol,
                           double atol) {
  const fs::path dir(case_dir);
  const std::string model = (dir / "model.onnx").string();
  absl::StatusOr<std::vector<std::string>> names = frontend::onnx::ReadOnnxInputNames(model);
  if (!names.ok()) return Failed(names.status());
  absl::StatusOr<std::set<std::string>> parameters = frontend::onnx::ReadOnnxParameterInputs(model);
  if (!parameters.ok()) return Failed(parameters.status());
  const std::vector<fs::path> sets = DataSets(dir);
  if (sets.empty()) return {CaseOutcome::kFailed, "no test_data_set_* folder"};
  // Parameters passed as inputs (Reshape's shape, Resize's scales, Clip's bounds; integers and
  // scalars too) must be known when the model is built; they are read from the first data set.
  ModelCompileOptions compile;
  std::vector<std::vector<runtime::NDArray>> data(sets.size());
  for (size_t s = 0; s < sets.size(); ++s) {
    for (size_t i = 0; i < names->size(); ++i) {
      absl::StatusOr<runtime::NDArray> a =
          ReadArrayFile((sets[s] / absl::StrCat("input_", i, ".pb")).string());
      if (!a.ok()) return Failed(a.status());
      const bool parameter =
          a->dtype().code == kDLInt || a->ndim() == 0 || parameters->count((*names)[i]) != 0;
      if (s == 0 && parameter) {
        absl::StatusOr<runtime::NDArray> view = a->View(a->shape());
        if (!view.ok()) return Failed(view.status());
        compile.constant_inputs.emplace((*names)[i],
                                        std::make_shared<const runtime::NDArray>(*std::move(view)));
      }
      data[s].push_back(*std::move(a));
    }
  }
  absl::StatusOr<CompiledModel> compiled = CompileModel(model, compile, target);
  if (!compiled.ok()) return Failed(compiled.status());
  absl::StatusOr<codegen::TempDir> tmp = codegen::TempDir::Create("tunefarm-model-test");
  if (!tmp.ok()) return Failed(tmp.status());
  const std::string module = tmp->path() + "/model.so";
  if (absl::Status s = ExportCompiledModel(*compiled, module); !s.ok()) return Failed(s);
  absl::StatusOr<std::unique_ptr<ModelExecutor>> executor = OpenModelModule(module);
  if (!executor.ok()) return Failed(executor.status());
  for (size_t s = 0; s < sets.size(); ++s) {
    for (size_t i = 0; i < names->size(); ++i) {
      if (compile.constant_inputs.count((*names)[i])) continue;
      const int index = (*executor)->InputIndex((*names)[i]);
      if (index < 0) return {CaseOutcome::kFailed, "the model has no input " + (*names)[i]};
      absl::Status set = (*executor)->SetInput(index, data[s][i].data(), data[s][i].NumBytes());
      if (!set.ok()) return Failed(set);
    }
    if (absl::Status run = (*executor)->Run(); !run.ok()) return Failed(run);
    for (size_t o = 0; o < (*executor)->outputs().size(); ++o) {
      absl::StatusOr<runtime::NDArray> want =
          ReadArrayFile((sets[s] / absl::StrCat("output_", o, ".pb")).string());
      if (!want.ok()) return Failed(want.status());
      absl::StatusOr<const DLTensor*> got = (*executor)->Output(static_cast<int>(o));
      if (!got.ok()) return Failed(got.status());
      std::string diff = Compare(**got, *want, rtol, atol);
      if (!diff.empty()) {
        return {CaseOutcome::kFailed,
                absl::StrCat(sets[s].filename().string(), " output ", o, ": ", diff)};
      }
    }
  }
  return {CaseOutcome::kPassed, ""};
}

}  // namespace tunefarm::driver
