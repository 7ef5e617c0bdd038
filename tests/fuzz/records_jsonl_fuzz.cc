// A records import line (tunefarm records import, the ImportRecords RPC): any bytes are refused
// with a Status or accepted; an accepted record prints to a line that parses back to it.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "tuner/record_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  (void)tunefarm::tuner::CanonicalConfigJson(line);
  absl::StatusOr<tunefarm::tuner::Record> record = tunefarm::tuner::RecordFromJsonLine(line);
  if (!record.ok()) return 0;
  absl::StatusOr<tunefarm::tuner::Record> again =
      tunefarm::tuner::RecordFromJsonLine(tunefarm::tuner::RecordToJsonLine(*record));
  // Invalid UTF-8 in a string is replaced when printing, so only the structure must survive.
  if (!again.ok() || again->repeat_seconds.size() != record->repeat_seconds.size()) std::abort();
  return 0;
}
