#include "compiler/passes/pass.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <sstream>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "compiler/ir/printer.h"
#include "compiler/passes/verify.h"

namespace tunefarm::passes {
namespace {

std::string FuncToString(const ir::PrimFunc& f) {
  std::ostringstream os;
  os << "func " << f.name << "(";
  for (size_t i = 0; i < f.params.size(); ++i) {
    const ir::Buffer& p = f.params[i];
    os << (i ? ", " : "") << p->name << ": " << p->dtype.ToString() << "[";
    for (size_t d = 0; d < p->shape.size(); ++d) os << (d ? ", " : "") << p->shape[d];
    os << "]";
  }
  os << ") {\n" << f.body << "}";
  return os.str();
}

absl::Status CheckDisabledNames(const std::vector<Pass>& passes, const PassOptions& opts) {
  std::vector<std::string> valid;
  for (const auto& p : passes) valid.push_back(p.name);
  for (const auto& name : opts.disabled_passes) {
    if (std::find(valid.begin(), valid.end(), name) == valid.end()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "cannot disable unknown pass '", name, "'; valid passes: ", absl::StrJoin(valid, ", ")));
    }
  }
  // TUNEFARM_DUMP_IR=<a mistyped pass> printed nothing at all.
  if (!opts.dump_ir.empty() && opts.dump_ir != "all" &&
      std::find(valid.begin(), valid.end(), opts.dump_ir) == valid.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat("TUNEFARM_DUMP_IR names unknown pass '", opts.dump_ir.substr(0, 80),
                     "'; valid passes: ", absl::StrJoin(valid, ", "), ", all"));
  }
  return absl::OkStatus();
}

bool IsDisabled(const Pass& pass, const PassOptions& opts) {
  const auto& d = opts.disabled_passes;
  if (std::find(d.begin(), d.end(), pass.name) != d.end()) return true;
  return pass.enabled_if && !pass.enabled_if(opts);
}

absl::Status Annotate(const absl::Status& s, const std::string& what) {
  return absl::Status(s.code(), absl::StrCat(what, ": ", s.message()));
}

// Slowest first, so the pass worth a look is on top.
void LogTimings(std::vector<std::pair<std::string, double>> timings) {
  std::sort(timings.begin(), timings.end(),
            [](const auto& a, const auto& b) { return a.second > b.second; });
  double total = 0;
  for (const auto& t : timings) total += t.second;
  std::ostringstream table;
  table << fmt::format("pass timings (total {:.3f} ms):", total);
  for (const auto& [name, ms] : timings) {
    double share = total > 0 ? 100.0 * ms / total : 0.0;
    table << fmt::format("\n  {:<24} {:>10.3f} ms {:>6.1f}%", name, ms, share);
  }
  PassLogger().info("{}", table.str());
}

}  // namespace

PassOptions PassOptions::FromEnv() {
  PassOptions opts;
  if (const char* dump = std::getenv("TUNEFARM_DUMP_IR")) opts.dump_ir = dump;
  if (const char* time = std::getenv("TUNEFARM_TIME_PASSES")) {
    opts.time_passes = std::string(time) == "1";
  }
  if (const char* disabled = std::getenv("TUNEFARM_DISABLE_PASS")) {
    for (absl::string_view name : absl::StrSplit(disabled, ',', absl::SkipWhitespace())) {
      opts.disabled_passes.emplace_back(name);
    }
  }
  return opts;
}

spdlog::logger& PassLogger() {
  static const std::shared_ptr<spdlog::logger> logger = [] {
    if (auto existing = spdlog::get("passes")) return existing;
    auto created = std::make_shared<spdlog::logger>(
        "passes", std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
    spdlog::initialize_logger(created);  // takes levels set by name, e.g. from TUNEFARM_LOG
    return created;
  }();
  return *logger;
}

absl::StatusOr<ir::PrimFunc> RunPasses(ir::PrimFunc f, const std::vector<Pass>& passes,
                                       const PassOptions& opts) {
  if (absl::Status s = CheckDisabledNames(passes, opts); !s.ok()) return s;
  bool flattened = false;
  if (opts.verify) {
    if (absl::Status s = VerifyPrimFunc(f, flattened); !s.ok()) return Annotate(s, "input IR");
  }
  std::vector<std::pair<std::string, double>> timings;
  for (const Pass& pass : passes) {
    if (IsDisabled(pass, opts)) {
      PassLogger().debug("skipping pass {}", pass.name);
      continue;
    }
    auto start = std::chrono::steady_clock::now();
    absl::StatusOr<ir::PrimFunc> result = pass.fn(std::move(f));
    std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
    timings.emplace_back(pass.name, elapsed.count());
    PassLogger().debug("{}: {:.3f} ms", pass.name, elapsed.count());
    if (!result.ok()) return Annotate(result.status(), "pass " + pass.name);
    f = *std::move(result);
    flattened = flattened || pass.phase == kPhaseFlatten;
    if (opts.verify) {
      if (absl::Status s = VerifyPrimFunc(f, flattened); !s.ok()) {
        return Annotate(s, "IR invalid after pass " + pass.name);
      }
    }
    if (opts.dump_ir == "all" || opts.dump_ir == pass.name) {
      PassLogger().info("IR after {}:\n{}", pass.name, FuncToString(f));
    }
  }
  if (opts.time_passes) LogTimings(std::move(timings));
  return f;
}

}  // namespace tunefarm::passes
