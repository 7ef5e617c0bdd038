// A GPU module file (`tunefarm build --target cuda|opencl`, the data symbol of a GPU model
// module, what a worker loads): any bytes are refused with a Status or parsed into an image whose
// text parses back to the same text (the manifest inside has a lenient parser of its own, fuzzed
// by module_manifest, so the input itself need not be canonical), and whose launch expressions
// evaluate or are refused without crashing.
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>

#include "runtime/gpu/gpu_module.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace gpu = tunefarm::runtime::gpu;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<gpu::GpuModuleImage> image = gpu::ParseGpuModule(bytes);
  if (!image.ok()) return 0;
  const std::string text = gpu::SerializeGpuModule(*image);
  absl::StatusOr<gpu::GpuModuleImage> again = gpu::ParseGpuModule(text);
  if (!again.ok() || gpu::SerializeGpuModule(*again) != text || again->api != image->api) {
    std::abort();
  }
  const std::map<std::string, int64_t> values = {{"n", 1000}, {"m", -3}};
  for (const gpu::GpuHostFunction& fn : image->functions) {
    for (const gpu::GpuLaunch& launch : fn.launches) {
      for (const std::string& e : launch.grid) (void)gpu::EvalLaunchExpr(e, values);
      for (const std::string& e : launch.block) (void)gpu::EvalLaunchExpr(e, values);
    }
  }
  return 0;
}
