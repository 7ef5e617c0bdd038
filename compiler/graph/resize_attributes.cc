#include "compiler/graph/resize_attributes.h"

#include <string>

namespace tunefarm::graph {

absl::StatusOr<ResizeAttributes> ReadResize(const Attributes& attrs) {
  ResizeAttributes r;
  absl::StatusOr<std::vector<int64_t>> sizes = attrs.Ints("sizes", {});
  absl::StatusOr<std::vector<double>> scales = attrs.Floats("scales", {});
  absl::StatusOr<std::string> mode = attrs.String("mode", "nearest");
  absl::StatusOr<std::string> coordinates = attrs.String("coordinates", "half_pixel");
  absl::StatusOr<std::string> rounding = attrs.String("rounding", "round_prefer_floor");
  absl::StatusOr<double> cubic_a = attrs.Float("cubic_a", -0.75);
  absl::StatusOr<int64_t> exclude = attrs.Int("exclude_outside", 0);
  for (const absl::Status& s :
       {sizes.status(), scales.status(), mode.status(), coordinates.status(), rounding.status(),
        cubic_a.status(), exclude.status()}) {
    if (!s.ok()) return s;
  }
  if (!attrs.Has("sizes")) return absl::InvalidArgumentError("attribute 'sizes' is required");
  std::optional<topi::ResizeMode> m = topi::ResizeModeFromName(*mode);
  std::optional<topi::ResizeCoordinates> c = topi::ResizeCoordinatesFromName(*coordinates);
  std::optional<topi::ResizeRounding> n = topi::ResizeRoundingFromName(*rounding);
  if (!m) return absl::InvalidArgumentError("attribute 'mode': unknown '" + *mode + "'");
  if (!c) {
    return absl::InvalidArgumentError("attribute 'coordinates': unknown '" + *coordinates + "'");
  }
  if (!n) return absl::InvalidArgumentError("attribute 'rounding': unknown '" + *rounding + "'");
  r.params.sizes = *sizes;
  r.params.scales = *scales;
  r.params.mode = *m;
  r.params.coordinates = *c;
  r.params.rounding = *n;
  r.params.cubic_a = *cubic_a;
  r.params.exclude_outside = *exclude != 0;
  return r;
}

}  // namespace tunefarm::graph
