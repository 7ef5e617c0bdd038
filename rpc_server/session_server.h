// The session process's side: one remote session's calls read as frames from the worker, run
// against a SessionHost here, and answered, so that a library that crashes or hangs, or a
// session that eats memory, costs this process only.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "rpc_server/session_host.h"

namespace tunefarm::rpc_server {

struct SessionServerConfig {
  std::string dir;  // where uploaded libraries are written
  SessionLimits limits;
};

// The command-line words after kServeSessionsFlag, and back.
std::vector<std::string> SessionServerArgs(const SessionServerConfig& config);
absl::StatusOr<SessionServerConfig> ParseSessionServerArgs(const std::vector<std::string>& args);

// Answers calls until the worker closes the socket (0) or the frames go wrong (1).
int ServeSessionCalls(int in_fd, int out_fd, const SessionServerConfig& config);

}  // namespace tunefarm::rpc_server
