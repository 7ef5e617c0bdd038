#include "tools/commands/model_run_command.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iomanip>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "driver/array_file.h"
#include "driver/element_value.h"
#include "runtime/core/dtype_name.h"
#include "runtime/core/thread_pool.h"
#include "runtime/data_type.h"

namespace tunefarm::tools {
namespace {

bool SameDtype(DLDataType a, DLDataType b) {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

bool IsFloat32(DLDataType t) { return SameDtype(t, DLDataType{kDLFloat, 32, 1}); }

std::string ShapeText(const std::vector<int64_t>& shape) {
  return absl::StrCat("[", absl::StrJoin(shape, ","), "]");
}

// Reads the inputs the options name into the executor; the rest get uniform random values in
// [-1, 1) from a fixed seed, so two runs of one model see the same data.
absl::Status BindInputs(const ModelRunOptions& options, driver::ModelExecutor& executor,
                        std::ostream& out) {
  const std::vector<runtime::GraphTensorInfo>& inputs = executor.inputs();
  const std::string names = absl::StrJoin(
      inputs, ", ", [](std::string* o, const runtime::GraphTensorInfo& i) { o->append(i.name); });
  std::vector<char> bound(inputs.size(), 0);
  size_t next_positional = 0;
  for (const std::string& spec : options.inputs) {
    const size_t eq = spec.find('=');
    int index = -1;
    std::string file = spec;
    std::error_code ec;
    if (eq != std::string::npos && executor.InputIndex(spec.substr(0, eq)) >= 0) {
      index = executor.InputIndex(spec.substr(0, eq));
      file = spec.substr(eq + 1);
    } else if (eq != std::string::npos && !std::filesystem::exists(spec, ec)) {
      // NAME=FILE with a name the model does not have (not a file whose name holds a '=').
      return absl::InvalidArgumentError(absl::StrCat("--input ", spec, ": the model has no input '",
                                                     spec.substr(0, eq), "' (its inputs: ", names,
                                                     ")"));
    } else {
      while (next_positional < inputs.size() && bound[next_positional]) ++next_positional;
      if (next_positional == inputs.size()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "--input ", spec, ": every input is given already (the model's inputs: ", names, ")"));
      }
      index = static_cast<int>(next_positional);
    }
    absl::StatusOr<runtime::NDArray> array = driver::ReadArrayFile(file);
    if (!array.ok()) return array.status();
    const runtime::GraphTensorInfo& info = inputs[index];
    if (!SameDtype(array->dtype(), info.dtype) || array->shape() != info.shape) {
      return absl::InvalidArgumentError(
          absl::StrCat("input '", info.name, "' is ", ShapeText(info.shape), " ",
                       runtime::DTypeName(info.dtype), "; ", file, " holds ",
                       ShapeText(array->shape()), " ", runtime::DTypeName(array->dtype())));
    }
    if (absl::Status s = executor.SetInput(index, array->data(), array->NumBytes()); !s.ok()) {
      return s;
    }
    bound[index] = 1;
  }
  std::mt19937 random(0);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (bound[i]) continue;
    if (!IsFloat32(inputs[i].dtype)) {
      return absl::InvalidArgumentError(
          absl::StrCat("input '", inputs[i].name, "' is not float32: give it with --input"));
    }
    std::vector<float> data(inputs[i].bytes / sizeof(float));
    for (float& e : data) e = uniform(random);
    if (absl::Status s = executor.SetInput(static_cast<int>(i), data.data(), inputs[i].bytes);
        !s.ok()) {
      return s;
    }
    out << "input " << inputs[i].name << " " << ShapeText(inputs[i].shape)
        << ": random uniform [-1, 1) (seed 0)\n";
  }
  return absl::OkStatus();
}

uint64_t ElementCount(const DLTensor& t) {
  uint64_t n = 1;
  for (int d = 0; d < t.ndim; ++d) n *= static_cast<uint64_t>(t.shape[d]);
  return n;
}

absl::Status PrintOutputs(driver::ModelExecutor& executor, std::ostream& out) {
  for (size_t i = 0; i < executor.outputs().size(); ++i) {
    const runtime::GraphTensorInfo& info = executor.outputs()[i];
    absl::StatusOr<const DLTensor*> output = executor.Output(static_cast<int>(i));
    if (!output.ok()) return output.status();
    const DLTensor* t = *output;
    out << "output " << info.name << " " << ShapeText(info.shape) << ":";
    if (driver::IsNumericElementType(info.dtype)) {
      const uint64_t n = std::min<uint64_t>(10, ElementCount(*t));
      out << std::setprecision(6);
      for (uint64_t e = 0; e < n; ++e) {
        out << " " << driver::ElementValue(info.dtype, t->data, static_cast<int64_t>(e));
      }
    } else {
      out << " (" << runtime::DataTypeToString(info.dtype) << ")";
    }
    out << "\n";
  }
  return absl::OkStatus();
}

// Compares every output with its expected file; false (with the line printed) on a mismatch.
absl::StatusOr<bool> CheckOutputs(const ModelRunOptions& options, driver::ModelExecutor& executor,
                                  std::ostream& out) {
  if (options.expect.size() != executor.outputs().size()) {
    return absl::InvalidArgumentError(absl::StrCat("--expect names ", options.expect.size(),
                                                   " files; the model has ",
                                                   executor.outputs().size(), " outputs"));
  }
  double worst_err = 0;
  bool ok = true;
  for (size_t i = 0; i < options.expect.size(); ++i) {
    absl::StatusOr<runtime::NDArray> want = driver::ReadArrayFile(options.expect[i]);
    if (!want.ok()) return want.status();
    const runtime::GraphTensorInfo& info = executor.outputs()[i];
    if (!runtime::SameDataType(want->dtype(), info.dtype) || want->shape() != info.shape ||
        !driver::IsNumericElementType(info.dtype)) {
      return absl::InvalidArgumentError(
          absl::StrCat(options.expect[i], " holds ", runtime::DataTypeToString(want->dtype()),
                       ShapeText(want->shape()), "; output '", info.name, "' is ",
                       runtime::DataTypeToString(info.dtype), ShapeText(info.shape)));
    }
    absl::StatusOr<const DLTensor*> output = executor.Output(static_cast<int>(i));
    if (!output.ok()) return output.status();
    double max_want = 0, max_err = 0;
    for (int64_t e = 0; e < want->NumElements(); ++e) {
      const double w = driver::ElementValue(info.dtype, want->data(), e);
      max_want = std::max(max_want, std::fabs(w));
      double err = std::fabs(driver::ElementValue(info.dtype, (*output)->data, e) - w);
      // 64-bit integers past 2^53 can differ and still round to one double: compare their bits.
      const size_t bytes = (info.dtype.bits + 7) / 8;
      if (info.dtype.code != kDLFloat && err == 0 &&
          std::memcmp(static_cast<const char*>((*output)->data) + e * bytes,
                      static_cast<const char*>(want->data()) + e * bytes, bytes) != 0) {
        err = 1;
      }
      // NaN compares false: a NaN output is a mismatch.
      max_err = err <= max_err ? max_err : (std::isnan(err) ? INFINITY : err);
    }
    const double tolerance = options.rtol * max_want + options.atol;
    ok = ok && max_err <= tolerance;
    worst_err = std::max(worst_err, max_err);
    out << "output " << info.name << ": max_abs_err=" << std::setprecision(3) << std::scientific
        << max_err << " tolerance=" << tolerance << std::defaultfloat
        << (max_err <= tolerance ? " ok" : " MISMATCH") << "\n";
  }
  out << "max_abs_err=" << std::setprecision(3) << std::scientific << worst_err << std::defaultfloat
      << (ok ? " ok" : " MISMATCH") << "\n";
  return ok;
}

double Median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

// The median of repeated runs (the run before was the warm-up): at least 10 runs and about a
// second.
absl::StatusOr<double> MedianMilliseconds(driver::ModelExecutor& executor) {
  std::vector<double> times;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (times.size() < 10 ||
         (std::chrono::steady_clock::now() < deadline && times.size() < 1000)) {
    const auto start = std::chrono::steady_clock::now();
    if (absl::Status s = executor.Run(); !s.ok()) return s;
    times.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  return Median(times);
}

// Each kernel's median time over 10 profiled runs, largest first, with its share of the total.
absl::Status PrintProfile(driver::ModelExecutor& executor, std::ostream& out) {
  std::vector<std::vector<double>> per_step(executor.num_steps());
  std::vector<double> step_ms;
  for (int r = 0; r < 10; ++r) {
    if (absl::Status s = executor.RunProfiled(&step_ms); !s.ok()) return s;
    for (size_t s = 0; s < step_ms.size(); ++s) per_step[s].push_back(step_ms[s]);
  }
  std::vector<std::pair<double, int>> medians;
  double total = 0;
  for (int s = 0; s < executor.num_steps(); ++s) {
    medians.emplace_back(Median(per_step[s]), s);
    total += medians.back().first;
  }
  std::sort(medians.rbegin(), medians.rend());
  out << std::fixed << std::setprecision(3);
  for (const auto& [ms, s] : medians) {
    out << "step " << s << " " << executor.step_kernel(s) << ": " << ms << " ms ("
        << std::setprecision(1) << 100 * ms / total << "%)" << std::setprecision(3) << "\n";
  }
  out << std::defaultfloat;
  return absl::OkStatus();
}

}  // namespace

int RunModelRunCommand(const ModelRunOptions& options, std::ostream& out, std::ostream& err) {
  auto fail = [&](const absl::Status& s) {
    err << "tunefarm: " << s.message() << "\n";
    return 1;
  };
  if (options.threads > 0) {
    std::string error;
    if (!runtime::SetNumThreads(options.threads, &error)) {
      return fail(absl::InvalidArgumentError("--threads: " + error));
    }
  }
  absl::StatusOr<target::Target> target = driver::ParseTargetToRunHere(options.target);
  if (!target.ok()) {
    err << "tunefarm: --target: " << target.status().message() << "\n";
    return 2;
  }
  absl::StatusOr<std::unique_ptr<driver::ModelExecutor>> executor =
      driver::LoadModelForRun(options.model, options.compile, *target);
  if (!executor.ok()) {
    return fail(absl::Status(executor.status().code(),
                             absl::StrCat(options.model, ": ", executor.status().message())));
  }
  if (absl::Status s = BindInputs(options, **executor, out); !s.ok()) return fail(s);
  if (absl::Status s = (*executor)->Run(); !s.ok()) return fail(s);
  if (absl::Status s = PrintOutputs(**executor, out); !s.ok()) return fail(s);
  bool matched = true;
  if (!options.expect.empty()) {
    absl::StatusOr<bool> ok = CheckOutputs(options, **executor, out);
    if (!ok.ok()) return fail(ok.status());
    matched = *ok;
  }
  if (options.time) {
    absl::StatusOr<double> ms = MedianMilliseconds(**executor);
    if (!ms.ok()) return fail(ms.status());
    if (options.profile) {
      if (absl::Status s = PrintProfile(**executor, out); !s.ok()) return fail(s);
    }
    out << "median_ms=" << std::fixed << std::setprecision(3) << *ms << std::defaultfloat << "\n";
  }
  if (!matched) {
    err << "tunefarm: outputs differ from the expected files beyond the tolerance\n";
    return 1;
  }
  return 0;
}

}  // namespace tunefarm::tools
