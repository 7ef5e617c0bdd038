// The exit codes of every command: 0 done, 1 failed (the one-line reason is on stderr), 2 a
// usage error (a flag or input refused before anything ran), 130 interrupted (Ctrl-C).
#pragma once

namespace tunefarm::tools {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInterrupted = 130;

}  // namespace tunefarm::tools
