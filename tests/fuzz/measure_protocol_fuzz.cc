// The measure child's protocol (runtime/measure): one JSON line per request and response,
// read by a child from its parent and by runners from a child that may have gone wrong.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "runtime/measure/measure_protocol.h"

namespace measure = tunefarm::runtime::measure;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  if (absl::StatusOr<measure::MeasureRequest> r = measure::ParseRequest(line); r.ok()) {
    absl::StatusOr<measure::MeasureRequest> again =
        measure::ParseRequest(measure::SerializeRequest(*r));
    if (!again.ok() || again->bindings != r->bindings || again->id != r->id) std::abort();
  }
  if (absl::StatusOr<measure::MeasureResponse> r = measure::ParseResponse(line); r.ok()) {
    absl::StatusOr<measure::MeasureResponse> again =
        measure::ParseResponse(measure::SerializeResponse(*r));
    if (!again.ok() || again->status != r->status || again->id != r->id) std::abort();
  }
  return 0;
}
