#include "rpc_server/session_program.h"

#include "runtime/measure/helper_program.h"

namespace tunefarm::rpc_server {

absl::StatusOr<std::string> FindSessionProgram(const std::string& explicit_path) {
#ifdef TUNEFARM_SESSION_PROGRAM
  const std::string built = TUNEFARM_SESSION_PROGRAM;
#else
  const std::string built;
#endif
  return runtime::measure::FindHelperProgram({kSessionProgramName, kSessionProgramEnv, built},
                                             explicit_path);
}

}  // namespace tunefarm::rpc_server
