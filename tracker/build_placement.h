// BuildPlacement: where a job's candidates are compiled when its device key's workers can build,
// or it has builders (`tunefarm tracker --builds`). A worker that builds leaves its device idle
// meanwhile (a build beside a measurement would disturb the timing), so by default the tracker's
// build threads go first, and builders and workers build what they would otherwise wait for.
#pragma once

#include <optional>
#include <string_view>

namespace tunefarm::tracker {

enum class BuildPlacement {
  // The tracker builds; idle builders, then idle workers, with nothing queued take its unstarted
  // builds.
  kAuto,
  kWorkers,  // every candidate goes to the key's workers as a build spec, else to its builders
  kTracker,  // the tracker builds everything (as for workers that cannot build)
};

inline std::string_view BuildPlacementName(BuildPlacement p) {
  switch (p) {
    case BuildPlacement::kAuto:
      return "auto";
    case BuildPlacement::kWorkers:
      return "workers";
    case BuildPlacement::kTracker:
      return "tracker";
  }
  return "auto";
}

inline std::optional<BuildPlacement> ParseBuildPlacement(std::string_view name) {
  for (BuildPlacement p :
       {BuildPlacement::kAuto, BuildPlacement::kWorkers, BuildPlacement::kTracker}) {
    if (name == BuildPlacementName(p)) return p;
  }
  return std::nullopt;
}

}  // namespace tunefarm::tracker
