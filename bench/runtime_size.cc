// Prints the size of the stripped shared runtime (libtunefarm_runtime.so, stripped at build time
// by cmake/runtime_shared.cmake) against its budget: what a device must install to run kernels.
// Usage: runtime_size [PATH]; exits 1 when the library is missing or over budget.
#include <cstdio>
#include <filesystem>
#include <system_error>

#ifndef TUNEFARM_RUNTIME_STRIPPED
#define TUNEFARM_RUNTIME_STRIPPED "libtunefarm_runtime.stripped.so"
#endif

namespace {

// The deployable runtime's budget (issue 3); absl is linked dynamically and not counted.
constexpr double kBudgetKb = 600;

}  // namespace

int main(int argc, char** argv) {
  const char* path = argc > 1 ? argv[1] : TUNEFARM_RUNTIME_STRIPPED;
  std::error_code ec;
  auto bytes = std::filesystem::file_size(path, ec);
  if (ec) {
    std::fprintf(stderr, "runtime_size: %s: %s (build the tunefarm_runtime target)\n", path,
                 ec.message().c_str());
    return 1;
  }
  double kb = static_cast<double>(bytes) / 1024.0;
  bool ok = kb <= kBudgetKb;
  std::printf("libtunefarm_runtime.so (stripped): %.1f KB, budget %.0f KB (%.0f%%): %s\n", kb,
              kBudgetKb, 100.0 * kb / kBudgetKb, ok ? "ok" : "OVER BUDGET");
  return ok ? 0 : 1;
}
