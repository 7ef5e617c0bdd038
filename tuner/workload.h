// Workload: the canonical name of one tuning problem (template, integer arguments, dtype), e.g.
// "matmul:1024,1024,1024:float32". The key names the task in the database, the API and the
// dashboard, so its spelling is stable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace tunefarm::tuner {

struct Workload {
  std::string template_name;  // a registered template ("matmul", "conv2d_nchwc", ...)
  std::vector<int64_t> args;  // the template's integer arguments, in its documented order
  std::string dtype = "float32";

  // "<template>:<a0>,<a1>,...:<dtype>".
  std::string Key() const;
  bool operator==(const Workload&) const = default;
};

// The longest key accepted: far above any real one (a script's key is its file stem, a hash and a
// few sizes), and short enough to quote in any message.
inline constexpr size_t kMaxWorkloadKeyBytes = 1024;

// Parses a key. The dtype part may be left out ("matmul:64,64,64" means float32). Errors name the
// malformed part and quote at most the key's first 120 bytes; a key over kMaxWorkloadKeyBytes is
// refused as such. Whether the template exists and takes these arguments is checked when the
// task is created, not here.
absl::StatusOr<Workload> ParseWorkloadKey(std::string_view key);

}  // namespace tunefarm::tuner
