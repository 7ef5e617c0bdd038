// A NumPy .npy file (tunefarm model run --input/--expect): any bytes are refused with a Status or
// parsed into an array whose size is exactly the data the bytes hold.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "runtime/npy_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<tunefarm::runtime::NDArray> a = tunefarm::runtime::ParseNpy(bytes, "fuzz.npy");
  if (a.ok() && a->NumBytes() > size) std::abort();
  return 0;
}
