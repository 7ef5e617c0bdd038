// Golden-file checks for tests: compare text with a file under the source tree, or rewrite the
// file when TUNEFARM_UPDATE_GOLDEN=1 (then review the diff and commit it).
#pragma once

#include <string>

namespace tunefarm::fixtures {

// Expects `actual` to equal the golden file's text (a gtest failure shows both); with
// TUNEFARM_UPDATE_GOLDEN=1 writes `actual` to the file instead and passes.
void ExpectMatchesGolden(const std::string& actual, const std::string& golden_path);

}  // namespace tunefarm::fixtures
