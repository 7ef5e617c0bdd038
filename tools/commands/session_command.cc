#include "tools/commands/session_command.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "client/remote_kernel_timing.h"
#include "client/remote_session.h"
#include "client/token_file.h"
#include "driver/bindings.h"
#include "runtime/core/dtype_name.h"
#include "runtime/measure/interleaved_timing.h"
#include "runtime/measure/random_fill.h"
#include "runtime/ndarray.h"
#include "runtime/signature_text.h"
#include "runtime/time_evaluator.h"
#include "tools/commands/exit_codes.h"
#include "tuner/record.h"

namespace tunefarm::tools {
namespace {}  // namespace

int RunSessionCommand(const SessionCommandOptions& o, std::ostream& out, std::ostream& err) {
  auto fail = [&err](int code, const absl::Status& s) {
    err << "tunefarm: " << s.message() << "\n";
    return code;
  };
  if (o.key.empty() || o.library.empty() || o.repeat < 1 || o.min_repeat_ms < 0) {
    return fail(kExitUsage,
                absl::InvalidArgumentError("session needs --key, a library, --repeat >= 1 and "
                                           "--min-repeat-ms >= 0"));
  }
  if (!o.compare.empty() && (o.rounds < 2 || o.rounds > 1000)) {
    return fail(kExitUsage, absl::InvalidArgumentError("--rounds must be in [2, 1000]"));
  }
  absl::StatusOr<std::string> library = client::ReadModuleFile(o.library);
  if (!library.ok()) return fail(kExitUsage, library.status());
  absl::StatusOr<std::string> other =
      o.compare.empty() ? std::string() : client::ReadModuleFile(o.compare);
  if (!other.ok()) return fail(kExitUsage, other.status());
  absl::StatusOr<driver::Bindings> bindings = driver::ParseBindings(o.bind);
  if (!bindings.ok()) return fail(kExitUsage, bindings.status());
  absl::StatusOr<std::string> token = client::ReadTokenFile(o.farm.token_file);
  if (!token.ok()) return fail(kExitUsage, token.status());

  absl::StatusOr<std::unique_ptr<client::RemoteSession>> session = client::RemoteSession::Open(
      client::FarmClientOptions{o.farm.tracker, *token, o.farm.tls_root_cert, 60}, o.key, o.wait_s);
  if (!session.ok()) return fail(ExitCodeOf(session.status()), session.status());
  out << "device " << o.key << ": worker " << (*session)->worker_id() << ", "
      << (*session)->cpu_model() << ", target " << (*session)->target() << "\n";
  absl::StatusOr<client::UploadedModule> module = (*session)->Upload(*library, o.library);
  if (!module.ok()) return fail(ExitCodeOf(module.status()), module.status());
  absl::StatusOr<const runtime::FunctionSignature*> f = client::PickFunction(*module, o.function);
  if (!f.ok()) return fail(kExitUsage, f.status());
  out << "function " << runtime::SignatureText(**f) << "\n";
  absl::StatusOr<std::vector<client::SessionArgument>> args =
      client::PrepareSessionArguments(**session, **f, *bindings, o.seed);
  if (!args.ok()) {
    return fail(args.status().code() == absl::StatusCode::kInvalidArgument ? kExitUsage : 1,
                args.status());
  }
  if (!o.compare.empty()) {
    absl::StatusOr<client::UploadedModule> second = (*session)->Upload(*other, o.compare);
    if (!second.ok()) return fail(ExitCodeOf(second.status()), second.status());
    absl::StatusOr<const runtime::FunctionSignature*> g = client::PickFunction(*second, o.function);
    if (!g.ok()) return fail(kExitUsage, g.status());
    if (!client::SameArguments(**f, **g)) {
      return fail(kExitUsage,
                  absl::InvalidArgumentError(absl::StrCat(
                      "the two libraries do not take the same arguments: ",
                      runtime::SignatureText(**f), " against ", runtime::SignatureText(**g))));
    }
    absl::StatusOr<runtime::measure::InterleavedTiming> t = client::TimeInTurnsOnDevice(
        **session, {{module->module_id, (**f).name}, {second->module_id, (**g).name}}, *args,
        client::SessionTiming{0, 1, o.min_repeat_ms, o.threads}, o.rounds);
    if (!t.ok()) return fail(1, t.status());
    for (size_t i = 0; i < 2; ++i) {
      const runtime::TimingSummary s = runtime::Summarize(t->seconds[i]);
      out << absl::StrFormat("%s: median %.4f ms, min %.4f ms over %d rounds\n",
                             i == 0 ? o.library : o.compare, s.median * 1e3, s.min * 1e3, o.rounds);
    }
    out << "speedup of " << o.compare << " over " << o.library << ": "
        << runtime::measure::DescribeSpeedup(t->over_first[1]) << "\n";
    return 0;
  }
  absl::StatusOr<std::vector<double>> repeats =
      (*session)->Time(module->module_id, (**f).name, *args,
                       client::SessionTiming{0, o.repeat, o.min_repeat_ms, o.threads});
  if (!repeats.ok()) return fail(1, repeats.status());
  const double median = tuner::MedianSeconds(*repeats).value_or(0);
  const double best = repeats->empty() ? 0 : *std::min_element(repeats->begin(), repeats->end());
  char line[128];
  std::snprintf(line, sizeof(line), "repeats=%zu min_ms=%.4f\nmedian_ms=%.4f", repeats->size(),
                best * 1e3, median * 1e3);
  out << line << "\n";
  return 0;
}

}  // namespace tunefarm::tools
