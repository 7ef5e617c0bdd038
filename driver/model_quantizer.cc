#include "driver/model_quantizer.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/codegen/llvm/temp_dir.h"
#include "runtime/core/dtype_name.h"
#include "runtime/data_type.h"

namespace tunefarm::driver {
namespace {

namespace onnx = frontend::onnx;

constexpr int64_t kMaxModelBytes = (int64_t{1} << 31) - 1;
constexpr int kHistogramBins = 4096;

absl::StatusOr<std::string> ReadModelBytes(const std::string& path) {
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return absl::NotFoundError(absl::StrCat("cannot open ", path, ": ", ec.message()));
  if (size > static_cast<uintmax_t>(kMaxModelBytes)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, " is ", size, " bytes; at most ", kMaxModelBytes, " are read"));
  }
  std::ifstream file(path, std::ios::binary);
  std::string bytes(size, '\0');
  if (!file || !file.read(bytes.data(), static_cast<std::streamsize>(size))) {
    return absl::NotFoundError(absl::StrCat("cannot read ", path));
  }
  return bytes;
}

absl::Status WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file || !file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
    return absl::PermissionDeniedError(absl::StrCat("cannot write ", path));
  }
  return absl::OkStatus();
}

std::string ShapeText(const std::vector<int64_t>& shape) {
  return absl::StrCat("[", absl::StrJoin(shape, ","), "]");
}

// Binds sample `index` to every input of `executor`.
absl::Status Feed(ModelExecutor& executor, const std::map<std::string, runtime::NDArray>& sample,
                  size_t index) {
  for (size_t i = 0; i < executor.inputs().size(); ++i) {
    const runtime::GraphTensorInfo& info = executor.inputs()[i];
    auto it = sample.find(info.name);
    if (it == sample.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("calibration sample ", index + 1, " has no input '", info.name, "'"));
    }
    const runtime::NDArray& a = it->second;
    if (!runtime::SameDataType(a.dtype(), info.dtype) || a.shape() != info.shape) {
      return absl::InvalidArgumentError(absl::StrCat(
          "calibration sample ", index + 1, ": input '", info.name, "' is ", ShapeText(info.shape),
          " ", runtime::DTypeName(info.dtype), ", the sample holds ", ShapeText(a.shape()), " ",
          runtime::DTypeName(a.dtype())));
    }
    if (absl::Status s = executor.SetInput(static_cast<int>(i), a.data(), a.NumBytes()); !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

// Output `i` as float32 values, or an empty span when it is not float32.
absl::StatusOr<std::pair<const float*, int64_t>> FloatOutput(ModelExecutor& executor, int i) {
  absl::StatusOr<const DLTensor*> out = executor.Output(i);
  if (!out.ok()) return out.status();
  const DLTensor* t = *out;
  if (t->dtype.code != kDLFloat || t->dtype.bits != 32 || t->dtype.lanes != 1) {
    return std::pair<const float*, int64_t>{nullptr, 0};
  }
  int64_t n = 1;
  for (int d = 0; d < t->ndim; ++d) n *= t->shape[d];
  return std::pair<const float*, int64_t>{static_cast<const float*>(t->data), n};
}

// Runs every sample through `executor`, calling `visit(output index, values, count)` for each
// output named in `wanted` (by output index).
template <typename Visit>
absl::Status RunSamples(ModelExecutor& executor, const QuantizeModelOptions& options,
                        const std::map<int, std::string>& wanted, Visit visit) {
  for (size_t s = 0; s < options.calibration.size(); ++s) {
    if (absl::Status st = Feed(executor, options.calibration[s], s); !st.ok()) return st;
    if (absl::Status st = executor.Run(); !st.ok()) return st;
    for (const auto& [index, name] : wanted) {
      absl::StatusOr<std::pair<const float*, int64_t>> values = FloatOutput(executor, index);
      if (!values.ok()) return values.status();
      visit(index, values->first, values->second);
    }
  }
  return absl::OkStatus();
}

struct Histogram {
  double lo = 0, hi = 0;
  std::vector<int64_t> bins;
  int64_t total = 0;

  void Add(const float* v, int64_t n) {
    const double width = (hi - lo) / kHistogramBins;
    for (int64_t i = 0; i < n; ++i) {
      if (std::isnan(v[i])) continue;
      int64_t b = width > 0 ? static_cast<int64_t>((v[i] - lo) / width) : 0;
      ++bins[std::clamp<int64_t>(b, 0, kHistogramBins - 1)];
      ++total;
    }
  }
  // The value below which `share` of the values lie (a bin's edge).
  double Quantile(double share) const {
    const double want = share * static_cast<double>(total);
    int64_t seen = 0;
    for (int b = 0; b < kHistogramBins; ++b) {
      seen += bins[b];
      if (static_cast<double>(seen) >= want) return lo + (hi - lo) * (b + 1) / kHistogramBins;
    }
    return hi;
  }
};

// The calibrated range of each planned tensor.
absl::StatusOr<std::map<std::string, onnx::QdqRange>> Calibrate(
    const std::string& instrumented_path, const std::vector<std::string>& tensors,
    const QuantizeModelOptions& options) {
  absl::StatusOr<std::unique_ptr<ModelExecutor>> executor =
      LoadModelForRun(instrumented_path, options.compile, target::Target::Host());
  if (!executor.ok()) return executor.status();
  const std::set<std::string> planned(tensors.begin(), tensors.end());
  std::map<int, std::string> wanted;
  for (size_t i = 0; i < (*executor)->outputs().size(); ++i) {
    const std::string& name = (*executor)->outputs()[i].name;
    if (planned.count(name)) wanted[static_cast<int>(i)] = name;
  }
  std::map<std::string, onnx::QdqRange> ranges;
  std::map<int, std::pair<double, double>> extent;
  absl::Status ran = RunSamples(**executor, options, wanted, [&](int i, const float* v, int64_t n) {
    auto [it, fresh] = extent.try_emplace(i, std::numeric_limits<double>::infinity(),
                                          -std::numeric_limits<double>::infinity());
    for (int64_t k = 0; k < n; ++k) {
      if (std::isnan(v[k])) continue;
      it->second.first = std::min<double>(it->second.first, v[k]);
      it->second.second = std::max<double>(it->second.second, v[k]);
    }
  });
  if (!ran.ok()) return ran;
  for (const auto& [i, name] : wanted) {
    const auto [lo, hi] = extent[i];
    ranges[name] =
        std::isfinite(lo) && std::isfinite(hi) ? onnx::QdqRange{lo, hi} : onnx::QdqRange{0, 0};
  }
  if (options.method == CalibrationMethod::kPercentile) {
    std::map<int, Histogram> histograms;
    for (const auto& [i, name] : wanted) {
      histograms[i] =
          Histogram{ranges[name].lo, ranges[name].hi, std::vector<int64_t>(kHistogramBins, 0), 0};
    }
    ran = RunSamples(**executor, options, wanted,
                     [&](int i, const float* v, int64_t n) { histograms[i].Add(v, n); });
    if (!ran.ok()) return ran;
    const double share = options.percentile / 100.0;
    for (const auto& [i, name] : wanted) {
      const Histogram& h = histograms[i];
      if (h.total == 0) continue;
      ranges[name] = onnx::QdqRange{std::min(h.Quantile(1.0 - share), ranges[name].hi),
                                    std::max(h.Quantile(share), ranges[name].lo)};
      if (ranges[name].lo > ranges[name].hi) std::swap(ranges[name].lo, ranges[name].hi);
    }
  }
  return ranges;
}

// The quantized model's first output against the float model's, over the samples.
absl::Status Compare(const std::string& float_path, const std::string& int8_path,
                     const QuantizeModelOptions& options, QuantizeModelReport& report) {
  absl::StatusOr<std::unique_ptr<ModelExecutor>> f =
      LoadModelForRun(float_path, options.compile, target::Target::Host());
  if (!f.ok()) return f.status();
  absl::StatusOr<std::unique_ptr<ModelExecutor>> q =
      LoadModelForRun(int8_path, options.compile, target::Target::Host());
  if (!q.ok()) return q.status();
  double largest = 0, worst = 0;
  for (size_t s = 0; s < options.calibration.size(); ++s) {
    for (ModelExecutor* e : {f->get(), q->get()}) {
      if (absl::Status st = Feed(*e, options.calibration[s], s); !st.ok()) return st;
      if (absl::Status st = e->Run(); !st.ok()) return st;
    }
    absl::StatusOr<std::pair<const float*, int64_t>> a = FloatOutput(**f, 0);
    absl::StatusOr<std::pair<const float*, int64_t>> b = FloatOutput(**q, 0);
    if (!a.ok()) return a.status();
    if (!b.ok()) return b.status();
    if (a->first == nullptr || a->second != b->second) return absl::OkStatus();
    for (int64_t k = 0; k < a->second; ++k) {
      largest = std::max(largest, std::fabs(static_cast<double>(a->first[k])));
      worst = std::max(worst, std::fabs(static_cast<double>(a->first[k]) - b->first[k]));
    }
    const std::vector<int64_t>& shape = (*f)->outputs()[0].shape;
    if (shape.size() == 2 && shape[1] > 1) {
      for (int64_t r = 0; r < shape[0]; ++r) {
        const float* x = a->first + r * shape[1];
        const float* y = b->first + r * shape[1];
        report.top1_kept +=
            std::max_element(x, x + shape[1]) - x == std::max_element(y, y + shape[1]) - y;
        ++report.top1_rows;
      }
    }
  }
  report.max_relative_difference = largest > 0 ? worst / largest : worst;
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<QuantizeModelReport> QuantizeModel(const std::string& model_path,
                                                  const std::string& output_path,
                                                  const QuantizeModelOptions& options) {
  if (options.calibration.empty()) {
    return absl::InvalidArgumentError("no calibration inputs: give at least one sample");
  }
  if (options.method == CalibrationMethod::kPercentile &&
      !(options.percentile > 50 && options.percentile <= 100)) {
    return absl::InvalidArgumentError(
        absl::StrCat("percentile ", options.percentile, " must be above 50 and at most 100"));
  }
  absl::StatusOr<std::string> bytes = ReadModelBytes(model_path);
  if (!bytes.ok()) return bytes.status();
  absl::StatusOr<onnx::QdqCalibrationPlan> plan = onnx::PlanQdqCalibration(*bytes);
  if (!plan.ok()) return plan.status();
  absl::StatusOr<codegen::TempDir> scratch = codegen::TempDir::Create("tunefarm-quantize");
  if (!scratch.ok()) return scratch.status();
  const std::string instrumented = scratch->path() + "/calibration.onnx";
  if (absl::Status s = WriteBytes(instrumented, plan->instrumented_model); !s.ok()) return s;
  absl::StatusOr<std::map<std::string, onnx::QdqRange>> ranges =
      Calibrate(instrumented, plan->tensors, options);
  if (!ranges.ok()) return ranges.status();
  QuantizeModelReport report;
  report.samples = static_cast<int>(options.calibration.size());
  absl::StatusOr<std::string> quantized =
      onnx::RewriteAsQdq(*bytes, *ranges, options.qdq, &report.summary);
  if (!quantized.ok()) return quantized.status();
  if (absl::Status s = WriteBytes(output_path, *quantized); !s.ok()) return s;
  if (absl::Status s = Compare(model_path, output_path, options, report); !s.ok()) return s;
  return report;
}

}  // namespace tunefarm::driver
