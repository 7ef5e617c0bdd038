#include "runtime/measure/weight_regions.h"

namespace tunefarm::runtime::measure {

std::vector<MemoryRegion> WeightRegions(const std::vector<const NDArray*>& tensors) {
  std::vector<MemoryRegion> regions;
  for (size_t i = 1; i + 1 < tensors.size(); ++i) {
    regions.push_back({tensors[i]->data(), tensors[i]->NumBytes()});
  }
  return regions;
}

}  // namespace tunefarm::runtime::measure
