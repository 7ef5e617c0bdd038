#include "tuner/search/xgb_cost_model.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <xgboost/c_api.h>

#include "absl/strings/str_cat.h"

namespace tunefarm::tuner {
namespace {

// Every XGBoost call returns 0 or -1; the message of a failure is XGBGetLastError().
absl::Status Check(int rc, const char* what) {
  if (rc == 0) return absl::OkStatus();
  return absl::InternalError(absl::StrCat("xgboost ", what, ": ", XGBGetLastError()));
}

struct DMatrixDeleter {
  void operator()(void* handle) const {
    if (handle != nullptr) XGDMatrixFree(handle);
  }
};
using DMatrixPtr = std::unique_ptr<void, DMatrixDeleter>;

// A dense matrix of `rows` (at least one column: a space without knobs still gets a constant).
absl::StatusOr<DMatrixPtr> MakeMatrix(const std::vector<std::vector<float>>& rows, int ncol,
                                      int nthread) {
  const size_t width = static_cast<size_t>(std::max(ncol, 1));
  std::vector<float> data(rows.size() * width, 0.0f);
  for (size_t r = 0; r < rows.size(); ++r) {
    // An empty row stands for the one constant column of a featureless space.
    if (static_cast<int>(rows[r].size()) != ncol && !(rows[r].empty() && width == 1)) {
      return absl::InvalidArgumentError(absl::StrCat("cost model: feature row ", r, " has ",
                                                     rows[r].size(), " values, expected ", ncol));
    }
    std::copy(rows[r].begin(), rows[r].end(), data.begin() + static_cast<long>(r * width));
  }
  DMatrixHandle handle = nullptr;
  // NaN marks missing values, so a feature that is 0 still splits like any other value.
  absl::Status s =
      Check(XGDMatrixCreateFromMat_omp(data.data(), rows.size(), width, NAN, &handle, nthread),
            "create matrix");
  if (!s.ok()) return s;
  return DMatrixPtr(handle);
}

// Each group's throughput divided by the group's best (all zeros stay zeros).
std::vector<float> NormalizedLabels(const std::vector<double>& throughput,
                                    const std::vector<unsigned>& group_sizes) {
  std::vector<float> labels(throughput.size(), 0.0f);
  size_t begin = 0;
  for (unsigned size : group_sizes) {
    double best = 0;
    for (size_t i = begin; i < begin + size; ++i) best = std::max(best, throughput[i]);
    for (size_t i = begin; i < begin + size; ++i) {
      double t = std::isfinite(throughput[i]) ? std::max(throughput[i], 0.0) : 0.0;
      labels[i] = best > 0 ? static_cast<float>(t / best) : 0.0f;
    }
    begin += size;
  }
  return labels;
}

}  // namespace

void XgbCostModel::BoosterDeleter::operator()(void* handle) const {
  if (handle != nullptr) XGBoosterFree(handle);
}

XgbCostModel::XgbCostModel(XgbOptions options) : options_(std::move(options)) {}
XgbCostModel::~XgbCostModel() = default;

absl::Status XgbCostModel::SetParams(void* booster) const {
  const std::string params[][2] = {
      {"objective",
       options_.objective == XgbObjective::kRankPairwise ? "rank:pairwise" : "reg:squarederror"},
      {"max_depth", std::to_string(options_.max_depth)},
      {"eta", std::to_string(options_.eta)},
      {"min_child_weight", std::to_string(options_.min_child_weight)},
      {"subsample", std::to_string(options_.subsample)},
      {"nthread", std::to_string(options_.nthread)},
      {"seed", std::to_string(options_.seed)},
      {"tree_method", options_.tree_method},
      {"verbosity", "0"},
  };
  for (const auto& [key, value] : params) {
    if (absl::Status s =
            Check(XGBoosterSetParam(booster, key.c_str(), value.c_str()), "set parameter");
        !s.ok()) {
      return absl::Status(s.code(), absl::StrCat(s.message(), " (", key, "=", value, ")"));
    }
  }
  return absl::OkStatus();
}

absl::Status XgbCostModel::Fit(const std::vector<std::vector<float>>& features,
                               const std::vector<double>& throughput) {
  return FitGroups(features, throughput, {static_cast<unsigned>(features.size())});
}

absl::Status XgbCostModel::FitGroups(const std::vector<std::vector<float>>& features,
                                     const std::vector<double>& throughput,
                                     const std::vector<unsigned>& group_sizes) {
  if (features.empty()) return absl::InvalidArgumentError("cost model: no training rows");
  if (features.size() != throughput.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cost model: ", features.size(), " feature rows but ", throughput.size(), " throughputs"));
  }
  size_t total = 0;
  for (unsigned g : group_sizes) total += g;
  if (total != features.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("cost model: groups cover ", total, " rows of ", features.size()));
  }
  const int ncol = static_cast<int>(features[0].size());
  absl::StatusOr<DMatrixPtr> dm = MakeMatrix(features, ncol, options_.nthread);
  if (!dm.ok()) return dm.status();
  std::vector<float> labels = NormalizedLabels(throughput, group_sizes);
  if (absl::Status s = Check(
          XGDMatrixSetFloatInfo(dm->get(), "label", labels.data(), labels.size()), "set labels");
      !s.ok()) {
    return s;
  }
  if (options_.objective == XgbObjective::kRankPairwise) {
    if (absl::Status s =
            Check(XGDMatrixSetUIntInfo(dm->get(), "group", group_sizes.data(), group_sizes.size()),
                  "set groups");
        !s.ok()) {
      return s;
    }
  }
  DMatrixHandle train[] = {dm->get()};
  BoosterHandle handle = nullptr;
  if (absl::Status s = Check(XGBoosterCreate(train, 1, &handle), "create booster"); !s.ok()) {
    return s;
  }
  BoosterPtr booster(handle);
  if (absl::Status s = SetParams(booster.get()); !s.ok()) return s;
  for (int round = 0; round < options_.rounds; ++round) {
    if (absl::Status s = Check(XGBoosterUpdateOneIter(booster.get(), round, dm->get()), "train");
        !s.ok()) {
      return s;
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  booster_ = std::move(booster);
  num_features_ = std::max(ncol, 1);
  return absl::OkStatus();
}

absl::StatusOr<std::vector<double>> XgbCostModel::Predict(
    const std::vector<std::vector<float>>& features) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (!booster_) return absl::FailedPreconditionError("cost model: Predict before Fit or Load");
  if (features.empty()) return std::vector<double>();
  absl::StatusOr<DMatrixPtr> dm = MakeMatrix(features, num_features_, options_.nthread);
  if (!dm.ok()) return dm.status();
  bst_ulong len = 0;
  const float* out = nullptr;
  if (absl::Status s =
          Check(XGBoosterPredict(booster_.get(), dm->get(), 0, 0, 0, &len, &out), "predict");
      !s.ok()) {
    return s;
  }
  if (len != features.size()) {
    return absl::InternalError(
        absl::StrCat("xgboost predict: ", len, " scores for ", features.size(), " rows"));
  }
  return std::vector<double>(out, out + len);
}

absl::StatusOr<std::string> XgbCostModel::Save() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (!booster_) return absl::FailedPreconditionError("cost model: Save before Fit or Load");
  const std::string config = absl::StrCat("{\"format\": \"", options_.save_format, "\"}");
  bst_ulong len = 0;
  const char* data = nullptr;
  if (absl::Status s =
          Check(XGBoosterSaveModelToBuffer(booster_.get(), config.c_str(), &len, &data), "save");
      !s.ok()) {
    return s;
  }
  return std::string(data, len);
}

absl::Status XgbCostModel::Load(const std::string& bytes) {
  if (bytes.empty()) return absl::InvalidArgumentError("cost model: no bytes to load");
  BoosterHandle handle = nullptr;
  if (absl::Status s = Check(XGBoosterCreate(nullptr, 0, &handle), "create booster"); !s.ok()) {
    return s;
  }
  BoosterPtr booster(handle);
  if (absl::Status s =
          Check(XGBoosterLoadModelFromBuffer(booster.get(), bytes.data(), bytes.size()), "load");
      !s.ok()) {
    return s;
  }
  // Loading restores the trees and objective, not run-time settings such as the thread count.
  if (absl::Status s = Check(
          XGBoosterSetParam(booster.get(), "nthread", std::to_string(options_.nthread).c_str()),
          "set parameter");
      !s.ok()) {
    return s;
  }
  bst_ulong ncol = 0;
  if (absl::Status s = Check(XGBoosterGetNumFeature(booster.get(), &ncol), "feature count");
      !s.ok()) {
    return s;
  }
  std::lock_guard<std::mutex> lock(mu_);
  booster_ = std::move(booster);
  num_features_ = static_cast<int>(ncol);
  return absl::OkStatus();
}

}  // namespace tunefarm::tuner
