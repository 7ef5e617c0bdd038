#include "runtime/measure/measure_program.h"

#include "runtime/measure/helper_program.h"

namespace tunefarm::runtime::measure {

absl::StatusOr<std::string> FindMeasureProgram(const std::string& explicit_path) {
#ifdef TUNEFARM_MEASURE_PROGRAM
  const std::string built = TUNEFARM_MEASURE_PROGRAM;
#else
  const std::string built;
#endif
  return FindHelperProgram({kMeasureProgramName, kMeasureProgramEnv, built}, explicit_path);
}

}  // namespace tunefarm::runtime::measure
