// The "codegen" logger (stderr) of the LLVM code generator: build phases and their times at
// debug level, e.g. TUNEFARM_LOG=codegen=debug.
#pragma once

namespace spdlog {
class logger;
}  // namespace spdlog

namespace tunefarm::codegen {

spdlog::logger& CodegenLogger();

}  // namespace tunefarm::codegen
