// The line-oriented JSON protocol between a runner and the process that checks and times
// candidates (tunefarm-measure): one request line per candidate, one response line back.
// README.md in this folder documents every field.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/measure/error_kind.h"
#include "runtime/measure/measure_options.h"

namespace tunefarm::runtime::measure {

struct MeasureRequest {
  int64_t id = 0;  // echoed in the response
  std::string library_path;
  std::string function_name;
  // The naive schedule's library over the same arguments; its outputs are the expected ones.
  // Empty `reference_function`: the library's only kernel.
  std::string reference_library_path;
  std::string reference_function;
  // Requests with equal keys share one reference run (inputs and expected outputs are cached).
  // Empty: the reference library path and function name are the key.
  std::string reference_key;
  // Values of symbolic extents and integer arguments, by name.
  std::map<std::string, int64_t> bindings;
  MeasureOptions options;   // the child ignores the build and run timeouts (the parent keeps them)
  double best_seconds = 0;  // the best median so far (0: none), for the slow-candidate cutoff

  bool operator==(const MeasureRequest&) const = default;
};

struct MeasureResponse {
  int64_t id = 0;
  ErrorKind status = ErrorKind::kOk;   // ok, runtime_error or wrong_answer
  std::string message;                 // why it failed, or a note (a cut-short slow candidate)
  std::vector<double> repeat_seconds;  // every repeat's mean seconds per run; empty on failure
  // How far to trust them (runtime/measure/stable_timing.h): the repeats' (max - min) / min, the
  // canary around them over its best (1: the machine at its fastest), how many times they were
  // timed, and whether they stayed over the spread limit or in a slow phase all the same.
  double spread = 0;
  double canary_ratio = 1;
  int attempts = 1;
  bool noisy = false;

  bool operator==(const MeasureResponse&) const = default;
};

// Compact JSON on one line (no '\n'), without the line terminator.
std::string SerializeRequest(const MeasureRequest& request);
std::string SerializeResponse(const MeasureResponse& response);

// InvalidArgument naming the malformed field. Unknown fields are ignored (newer runners may add
// some); missing optional fields keep their defaults.
absl::StatusOr<MeasureRequest> ParseRequest(std::string_view line);
absl::StatusOr<MeasureResponse> ParseResponse(std::string_view line);

}  // namespace tunefarm::runtime::measure
