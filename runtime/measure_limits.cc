#include "runtime/measure_limits.h"

#include <cmath>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"

namespace tunefarm::runtime {
namespace {

// Whole numbers in full (1073741824, not 1.07374e+09); others as %g ("1e+300", "inf", "nan").
std::string Format(double v) {
  if (std::isfinite(v) && v == std::trunc(v) && std::fabs(v) < 1e15) {
    return absl::StrCat(static_cast<int64_t>(v));
  }
  return absl::StrCat(v);
}

}  // namespace

absl::Status CheckInRange(absl::string_view field, double value, const NumberRange& range) {
  const bool above_lo = range.lo_open ? value > range.lo : value >= range.lo;
  if (std::isfinite(value) && above_lo && value <= range.hi) return absl::OkStatus();
  const std::string unit = range.unit[0] == '\0' ? "" : absl::StrCat(" ", range.unit);
  const std::string bounds =
      std::isinf(range.hi) ? absl::StrCat(range.lo_open ? "> " : ">= ", Format(range.lo), unit)
                           : absl::StrCat("in ", range.lo_open ? "(" : "[", Format(range.lo), ", ",
                                          Format(range.hi), "]", unit);
  return absl::InvalidArgumentError(
      absl::StrCat(field, " must be a finite number ", bounds, ", got ", Format(value)));
}

}  // namespace tunefarm::runtime
