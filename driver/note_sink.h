// How a library call tells its caller what it is doing as it goes: one line at a time, without
// its newline (a command prints it, an observer forwards it, a test collects it).
#pragma once

#include <functional>
#include <string>

namespace tunefarm::driver {

using NoteSink = std::function<void(const std::string& line)>;

}  // namespace tunefarm::driver
