#include "compiler/codegen/llvm/codegen_logger.h"

#include <memory>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace tunefarm::codegen {

spdlog::logger& CodegenLogger() {
  static const std::shared_ptr<spdlog::logger> logger = [] {
    if (auto existing = spdlog::get("codegen")) return existing;
    auto created = std::make_shared<spdlog::logger>(
        "codegen", std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
    spdlog::initialize_logger(created);  // takes levels set by name, e.g. from TUNEFARM_LOG
    return created;
  }();
  return *logger;
}

}  // namespace tunefarm::codegen
