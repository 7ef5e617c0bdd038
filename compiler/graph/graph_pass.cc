#include "compiler/graph/graph_pass.h"

#include <algorithm>
#include <chrono>
#include <spdlog/spdlog.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/graph/printer.h"
#include "compiler/graph/verifier.h"

namespace tunefarm::graph {
namespace {

bool Named(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

absl::Status Prefixed(const absl::Status& status, const std::string& pass) {
  return absl::Status(status.code(), absl::StrCat(pass, ": ", status.message()));
}

}  // namespace

absl::Status CheckDisabledPasses(const std::vector<GraphPass>& passes,
                                 const std::vector<std::string>& disabled) {
  std::vector<std::string> known;
  for (const GraphPass& pass : passes) known.push_back(pass.name);
  for (const std::string& name : disabled) {
    if (!Named(known, name)) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot disable unknown graph pass '", name,
                       "'; graph passes: ", absl::StrJoin(known, ", ")));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Graph> RunGraphPasses(Graph graph, const std::vector<GraphPass>& passes,
                                     const passes::PassOptions& options,
                                     const GraphPassObserver& observe) {
  if (absl::Status s = CheckDisabledPasses(passes, options.disabled_passes); !s.ok()) return s;
  for (const GraphPass& pass : passes) {
    if (Named(options.disabled_passes, pass.name)) continue;
    const auto start = std::chrono::steady_clock::now();
    absl::StatusOr<Graph> next = pass.fn(std::move(graph));
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!next.ok()) return Prefixed(next.status(), pass.name);
    graph = *std::move(next);
    if (options.verify) {
      if (absl::Status verified = VerifyGraph(graph); !verified.ok()) {
        return Prefixed(verified, absl::StrCat(pass.name, " left an invalid graph"));
      }
    }
    if (options.time_passes) passes::PassLogger().info("graph pass {}: {:.3f} ms", pass.name, ms);
    if (options.dump_ir == "all" || options.dump_ir == pass.name) {
      passes::PassLogger().info("graph after {}:\n{}", pass.name, ToString(graph));
    }
    if (observe) observe(pass.name, graph, ms);
  }
  return graph;
}

}  // namespace tunefarm::graph
