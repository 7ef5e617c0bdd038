// What tests of deployed programs share: finding a tool (qemu, a cross compiler) on PATH, and the
// top-5 classes deploy/run_model prints.
#pragma once

#include <string>
#include <vector>

namespace tunefarm::fixtures {

// The executable `name` in a PATH directory, or "" when there is none.
std::string FindOnPath(const std::string& name);

// The class indices run_model printed under "top-5 of 'OUTPUT':", in order (fewer when it printed
// fewer).
std::vector<int> PrintedTop5(const std::string& run_model_output, const std::string& output);

}  // namespace tunefarm::fixtures
