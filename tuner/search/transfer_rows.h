// TransferRows: training rows (features, throughput) of another task of the same template —
// another shape or device — that warm the model-based search's cost model; and their making
// from that task's stored records.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tuner/record.h"
#include "tuner/search/feature_extractor.h"

namespace tunefarm::tuner {

struct TransferRows {
  std::string source;                             // e.g. the other task's key and device, for logs
  std::vector<std::vector<float>> features;       // FeatureExtractor rows of the other task
  std::vector<std::vector<float>> knob_features;  // KnobFeatureVector of the same configs
  std::vector<double> throughput;                 // flops / median seconds; 0 when failed
};

// Rows of `records` of the task `extractor` serves (its space parses each config_json; its
// flops scale throughput). Records whose config does not parse against that space are skipped;
// NotFound when none is left. Use the same FeatureOptions as the search's own extractor.
absl::StatusOr<TransferRows> RowsFromRecords(const FeatureExtractor& extractor,
                                             const std::vector<Record>& records,
                                             std::string source = "");

}  // namespace tunefarm::tuner
