#include "runtime/measure/random_fill.h"

#include "runtime/measure/element_access.h"

namespace tunefarm::runtime::measure {
namespace {

// splitmix64: tiny and fully specified.
uint64_t NextRandom(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

void FillSeededRandom(NDArray& array, uint64_t seed) {
  const DLDataType t = array.dtype();
  uint64_t state = seed;
  for (int64_t i = 0; i < array.NumElements(); ++i) {
    const uint64_t r = NextRandom(state);
    double v = 0;
    if (t.code == kDLFloat) {
      v = static_cast<double>(r >> 11) * 0x1.0p-53 * 2.0 - 1.0;
    } else if (t.bits == 1) {
      v = static_cast<double>(r & 1);
    } else {
      v = static_cast<double>(r % 9) - (t.code == kDLInt ? 4.0 : 0.0);
    }
    StoreElement(array, i, v);
  }
}

}  // namespace tunefarm::runtime::measure
