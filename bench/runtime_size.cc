// Prints the sizes of the stripped shared runtimes against their budget: libtunefarm_runtime.so
// (what a device must install to run kernels) and libtunefarm_graph_runtime.so (runtime/core and
// the graph executor: what a board installs to run model modules), both stripped at build time by
// cmake/runtime_shared.cmake.
// Usage: runtime_size [PATH...]; exits 1 when a library is missing or over budget.
#include <cstdio>
#include <filesystem>
#include <system_error>

#ifndef TUNEFARM_RUNTIME_STRIPPED
#define TUNEFARM_RUNTIME_STRIPPED "libtunefarm_runtime.stripped.so"
#endif
#ifndef TUNEFARM_GRAPH_RUNTIME_STRIPPED
#define TUNEFARM_GRAPH_RUNTIME_STRIPPED "libtunefarm_graph_runtime.stripped.so"
#endif

namespace {

// The deployable runtimes' budget (issues 3 and 15); absl is linked dynamically and not counted.
constexpr double kBudgetKb = 600;

bool Check(const char* path) {
  std::error_code ec;
  auto bytes = std::filesystem::file_size(path, ec);
  if (ec) {
    std::fprintf(stderr, "runtime_size: %s: %s (build tunefarm_runtime, tunefarm_graph_runtime)\n",
                 path, ec.message().c_str());
    return false;
  }
  double kb = static_cast<double>(bytes) / 1024.0;
  bool ok = kb <= kBudgetKb;
  std::printf("%s (stripped): %.1f KB, budget %.0f KB (%.0f%%): %s\n",
              std::filesystem::path(path).filename().c_str(), kb, kBudgetKb, 100.0 * kb / kBudgetKb,
              ok ? "ok" : "OVER BUDGET");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  bool ok = true;
  for (int i = 1; i < argc; ++i) ok = Check(argv[i]) && ok;
  if (argc <= 1) {
    for (const char* path : {TUNEFARM_RUNTIME_STRIPPED, TUNEFARM_GRAPH_RUNTIME_STRIPPED}) {
      ok = Check(path) && ok;
    }
  }
  return ok ? 0 : 1;
}
