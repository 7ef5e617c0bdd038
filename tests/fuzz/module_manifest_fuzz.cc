// The manifest a loaded kernel library carries (runtime/core): read from uploaded libraries on
// every worker, so any bytes must be refused with one line or parsed to what prints back.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/function_signature.h"

namespace runtime = tunefarm::runtime;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<runtime::FunctionSignature> functions;
  std::string error;
  if (!runtime::ParseManifest(text, &functions, &error)) return 0;
  const std::string printed = runtime::SerializeManifest(functions);
  std::vector<runtime::FunctionSignature> again;
  if (!runtime::ParseManifest(printed, &again, &error) || again.size() != functions.size() ||
      runtime::SerializeManifest(again) != printed) {
    std::abort();
  }
  return 0;
}
