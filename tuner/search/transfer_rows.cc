#include "tuner/search/transfer_rows.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/space/config_json.h"
#include "tuner/search/knob_features.h"

namespace tunefarm::tuner {

absl::StatusOr<TransferRows> RowsFromRecords(const FeatureExtractor& extractor,
                                             const std::vector<Record>& records,
                                             std::string source) {
  TransferRows rows;
  rows.source = std::move(source);
  const double flops = extractor.task() != nullptr ? extractor.task()->flops() : 1.0;
  for (const Record& r : records) {
    absl::StatusOr<space::Config> config = space::ConfigFromJson(extractor.space(), r.config_json);
    if (!config.ok()) continue;
    std::optional<double> median = MedianSeconds(r.repeat_seconds);
    const bool ok = r.error_kind == ErrorKind::kOk && median && *median > 0;
    rows.features.push_back(extractor.Get(*config).values);
    rows.knob_features.push_back(KnobFeatureVector(*config));
    rows.throughput.push_back(ok ? flops / *median : 0.0);
  }
  if (rows.features.empty()) {
    return absl::NotFoundError(absl::StrCat("transfer: none of ", records.size(),
                                            " records parses against the task's space"));
  }
  return rows;
}

}  // namespace tunefarm::tuner
