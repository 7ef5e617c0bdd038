// The program a worker runs each remote session in (tunefarm-rpc-server --serve-sessions), found
// like the measure program: an explicit path, TUNEFARM_SESSION_PROGRAM, beside this executable,
// then where the build wrote it.
#pragma once

#include <string>

#include "absl/status/statusor.h"

namespace tunefarm::rpc_server {

inline constexpr const char kSessionProgramName[] = "tunefarm-rpc-server";
inline constexpr const char kSessionProgramEnv[] = "TUNEFARM_SESSION_PROGRAM";
// The first argument that makes the program serve one session on stdin/stdout.
inline constexpr const char kServeSessionsFlag[] = "--serve-sessions";

absl::StatusOr<std::string> FindSessionProgram(const std::string& explicit_path = "");

}  // namespace tunefarm::rpc_server
