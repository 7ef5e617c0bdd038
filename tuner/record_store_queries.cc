// RecordStore's queries for the tuning loop: what a task has already measured, what other shapes
// of its template measured (transfer learning), and the best config per device.
#include <string>

#include "absl/strings/str_cat.h"
#include "tuner/record_store.h"

namespace tunefarm::tuner {

absl::StatusOr<std::vector<Record>> RecordStore::TaskRecords(std::string_view workload_key,
                                                             std::string_view target,
                                                             std::string_view device_key,
                                                             CacheFlush cache_flush) {
  return QueryRecords(absl::StrCat("WHERE workload_key = ? AND target = ? AND device_key = ?",
                                   CacheFlushFilter(cache_flush), " ORDER BY id"),
                      {std::string(workload_key), std::string(target), std::string(device_key)});
}

absl::StatusOr<std::vector<Record>> RecordStore::TransferRecords(const TransferQuery& query) {
  // substr rather than LIKE: template names may contain '_', which LIKE treats as a wildcard.
  std::string prefix = absl::StrCat(query.template_name, ":");
  std::vector<std::string> params = {prefix};
  std::string where = absl::StrCat("WHERE substr(workload_key, 1, ", prefix.size(), ") = ?");
  if (!query.other_devices) {
    where += " AND target = ? AND workload_key != ?";
    params.insert(params.end(), {query.target, query.workload_key});
  } else if (query.device_key.empty()) {
    where += " AND NOT (workload_key = ? AND target = ?)";
    params.insert(params.end(), {query.workload_key, query.target});
  } else {
    where += " AND NOT (workload_key = ? AND target = ? AND device_key = ?)";
    params.insert(params.end(), {query.workload_key, query.target, query.device_key});
  }
  return QueryRecords(absl::StrCat(where, CacheFlushFilter(query.cache_flush),
                                   " ORDER BY id DESC LIMIT ", query.limit),
                      params);
}

absl::StatusOr<std::vector<Record>> RecordStore::BestPerDevice(std::string_view workload_key,
                                                               std::string_view target) {
  std::vector<std::string> params = {std::string(workload_key)};
  std::string where = "WHERE workload_key = ? AND error_kind = 'ok' AND median_seconds IS NOT NULL";
  if (!target.empty()) {
    where += " AND target = ?";
    params.push_back(std::string(target));
  }
  where += RealBeforeEmulatedFilter() + " ORDER BY median_seconds, id";
  absl::StatusOr<std::vector<Record>> rows = QueryRecords(where, params);
  if (!rows.ok()) return rows.status();
  // Rows come fastest first, so the first of each (target, device, timing) is its best.
  std::vector<Record> best;
  for (Record& r : *rows) {
    bool seen = false;
    for (const Record& b : best) {
      seen = seen || (b.target == r.target && b.device_key == r.device_key &&
                      b.cache_flush == r.cache_flush);
    }
    if (!seen) best.push_back(std::move(r));
  }
  return best;
}

}  // namespace tunefarm::tuner
