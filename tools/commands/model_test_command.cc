#include "tools/commands/model_test_command.h"

#include <filesystem>

#include "driver/model_compiler.h"
#include "driver/onnx_test_case.h"

namespace tunefarm::tools {

int RunModelTestCommand(const ModelTestOptions& options, std::ostream& out, std::ostream& err) {
  absl::StatusOr<target::Target> target = driver::ParseTargetToRunHere(options.target);
  if (!target.ok()) {
    err << "tunefarm: --target: " << target.status().message() << "\n";
    return 2;
  }
  int counts[3] = {0, 0, 0};
  for (const std::string& c : options.cases) {
    const driver::CaseResult r = driver::RunOnnxTestCase(c, *target, options.rtol, options.atol);
    ++counts[static_cast<int>(r.outcome)];
    static const char* const kWord[] = {"passed", "FAILED", "unsupported"};
    out << kWord[static_cast<int>(r.outcome)] << " "
        << std::filesystem::path(c).filename().string();
    if (!r.why.empty()) out << ": " << r.why;
    out << "\n";
  }
  out << counts[0] << " passed, " << counts[1] << " failed, " << counts[2] << " unsupported\n";
  if (counts[1] + counts[2] > 0) {
    err << "tunefarm: " << counts[1] << " of " << options.cases.size() << " cases failed and "
        << counts[2] << " are unsupported\n";
    return 1;
  }
  return 0;
}

}  // namespace tunefarm::tools
