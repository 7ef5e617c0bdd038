// The worker's log: one line per event on stderr, "worker" logger levels from TUNEFARM_LOG
// ("worker=debug"). A stand-in for spdlog, which this layer does not link (the slim binary
// carries only the runtime and the gRPC client).
#pragma once

#include <string_view>

namespace tunefarm::rpc_server {

enum class LogLevel { kDebug, kInfo, kWarn, kError, kOff };

void WorkerLog(LogLevel level, std::string_view message);
bool WorkerLogEnabled(LogLevel level);

}  // namespace tunefarm::rpc_server
