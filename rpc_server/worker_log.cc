#include "rpc_server/worker_log.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <string>

namespace tunefarm::rpc_server {
namespace {

// "worker=debug,tracker=info": the level named for "worker", else info.
LogLevel ConfiguredLevel() {
  const char* env = std::getenv("TUNEFARM_LOG");
  if (env == nullptr) return LogLevel::kInfo;
  std::string text = env;
  size_t at = text.find("worker=");
  if (at == std::string::npos || (at > 0 && text[at - 1] != ',')) return LogLevel::kInfo;
  std::string value = text.substr(at + 7, text.find(',', at) - (at + 7));
  if (value == "debug" || value == "trace") return LogLevel::kDebug;
  if (value == "warn" || value == "warning") return LogLevel::kWarn;
  if (value == "error" || value == "err") return LogLevel::kError;
  if (value == "off") return LogLevel::kOff;
  return LogLevel::kInfo;
}

const char* LevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
      return "debug";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kWarn:
      return "warning";
    case LogLevel::kError:
      return "error";
    case LogLevel::kOff:
      break;
  }
  return "off";
}

}  // namespace

bool WorkerLogEnabled(LogLevel level) {
  static const LogLevel configured = ConfiguredLevel();
  return level != LogLevel::kOff && level >= configured;
}

void WorkerLog(LogLevel level, std::string_view message) {
  if (!WorkerLogEnabled(level)) return;
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const int millis = static_cast<int>(
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000);
  std::tm tm{};
  localtime_r(&seconds, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &tm);
  static std::mutex mu;  // whole lines, even from several threads
  std::lock_guard<std::mutex> lock(mu);
  std::fprintf(stderr, "[%s.%03d] [worker] [%s] %.*s\n", stamp, millis, LevelName(level),
               static_cast<int>(message.size()), message.data());
}

}  // namespace tunefarm::rpc_server
