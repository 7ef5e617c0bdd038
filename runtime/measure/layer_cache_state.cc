#include "runtime/measure/layer_cache_state.h"

namespace tunefarm::runtime::measure {

LayerCacheState LayerCacheStateOf(const std::vector<const NDArray*>& tensors) {
  LayerCacheState state;
  for (size_t i = 1; i + 1 < tensors.size(); ++i) {
    state.weights.push_back({tensors[i]->data(), tensors[i]->NumBytes()});
  }
  if (tensors.size() >= 2) state.inputs.push_back({tensors[0]->data(), tensors[0]->NumBytes()});
  return state;
}

}  // namespace tunefarm::runtime::measure
