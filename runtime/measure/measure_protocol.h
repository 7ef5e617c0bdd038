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

namespace tunefarm::runtime::measure {

// How a candidate is checked and timed (the runtime's half of tuner::MeasureOptions).
struct CandidateOptions {
  int number = 0;             // runs per repeat; 0: as many as reach min_repeat_ms (at least 1)
  int repeat = 3;             // timed repeats; each contributes one mean
  double min_repeat_ms = 20;  // with number == 0, the shortest a repeat may take
  double cooldown_ms = 0;     // pause between repeats
  bool flush_cache = false;   // evict the caches before each repeat
  bool check_correctness = true;
  double rtol = 1e-3;  // |got - want| <= atol + rtol * |want|, elementwise
  double atol = 1e-4;
  double slow_cutoff_ratio = 100;  // first run > ratio * best_seconds: time it once only; 0: off
  int threads = 0;                 // the thread pool's width; 0: the runtime's default
  uint64_t seed = 1;               // inputs are a pure function of (signature, seed)

  bool operator==(const CandidateOptions&) const = default;
};

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
  CandidateOptions options;
  double best_seconds = 0;  // the best median so far (0: none), for the slow-candidate cutoff

  bool operator==(const MeasureRequest&) const = default;
};

// The outcome of one request. The names are the tuner's error kind names (tuner/record.h), so a
// runner maps them with ParseErrorKind.
enum class MeasureStatus { kOk, kRuntimeError, kWrongAnswer };
std::string_view MeasureStatusName(MeasureStatus status);

struct MeasureResponse {
  int64_t id = 0;
  MeasureStatus status = MeasureStatus::kOk;
  std::string message;                 // why it failed, or a note (a cut-short slow candidate)
  std::vector<double> repeat_seconds;  // every repeat's mean seconds per run; empty on failure

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
