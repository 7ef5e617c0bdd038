#include "tools/commands/session_command.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/core/dtype_name.h"
#include "runtime/measure/random_fill.h"
#include "runtime/ndarray.h"
#include "runtime/signature_text.h"
#include "tools/commands/bindings.h"
#include "tools/commands/remote_session.h"
#include "tools/commands/token_file.h"
#include "tuner/record.h"

namespace tunefarm::tools {
namespace {

constexpr int kUsage = 2;

absl::StatusOr<const runtime::FunctionSignature*> PickFunction(const UploadedModule& module,
                                                               const std::string& wanted) {
  std::vector<std::string> names;
  for (const runtime::FunctionSignature& f : module.functions) {
    if (f.name == wanted || (wanted.empty() && module.functions.size() == 1)) return &f;
    names.push_back(f.name);
  }
  return absl::InvalidArgumentError(
      wanted.empty()
          ? absl::StrCat("the library has ", names.size(), " functions; pick one with --function (",
                         absl::StrJoin(names, ", "), ")")
          : absl::StrCat("the library has no function '", wanted, "' (it has ",
                         absl::StrJoin(names, ", "), ")"));
}

// Allocates and fills every argument on the device; the argument list for the call.
absl::StatusOr<std::vector<SessionArgument>> PrepareArguments(RemoteSession& session,
                                                              const runtime::FunctionSignature& f,
                                                              const Bindings& bindings,
                                                              uint64_t seed) {
  auto bound = [&](const std::string& name) -> absl::StatusOr<int64_t> {
    auto it = bindings.find(name);
    if (it == bindings.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", name, "' of ", f.name, " has no value: give --bind ", name, "=..."));
    }
    return it->second;
  };
  std::vector<SessionArgument> args;
  for (size_t i = 0; i < f.args.size(); ++i) {
    const runtime::ArgSpec& a = f.args[i];
    if (a.kind == runtime::ArgKind::kInt) {
      absl::StatusOr<int64_t> v = bound(a.name);
      if (!v.ok()) return v.status();
      args.emplace_back(*v);
      continue;
    }
    if (a.kind != runtime::ArgKind::kTensor) {
      return absl::InvalidArgumentError(absl::StrCat("argument ", a.name, " of ", f.name,
                                                     " is not a tensor or an integer; a session "
                                                     "cannot make it up"));
    }
    std::vector<int64_t> shape;
    for (const runtime::DimSpec& d : a.shape) {
      if (!d.is_symbol()) {
        shape.push_back(d.value);
        continue;
      }
      absl::StatusOr<int64_t> v = bound(d.symbol);
      if (!v.ok()) return v.status();
      shape.push_back(*v);
    }
    absl::StatusOr<runtime::NDArray> local = runtime::NDArray::Empty(shape, a.dtype);
    if (!local.ok()) return local.status();
    runtime::measure::FillSeededRandom(*local, seed + i);
    absl::StatusOr<std::string> id = session.Alloc(shape, runtime::DTypeName(a.dtype));
    if (!id.ok()) return id.status();
    const std::string bytes(static_cast<const char*>(local->data()), local->NumBytes());
    if (absl::Status s = session.CopyTo(*id, bytes); !s.ok()) return s;
    args.emplace_back(*id);
  }
  return args;
}

}  // namespace

int RunSessionCommand(const SessionCommandOptions& o, std::ostream& out, std::ostream& err) {
  auto fail = [&err](int code, const absl::Status& s) {
    err << "tunefarm: " << s.message() << "\n";
    return code;
  };
  if (o.key.empty() || o.library.empty() || o.repeat < 1 || o.min_repeat_ms < 0) {
    return fail(kUsage,
                absl::InvalidArgumentError("session needs --key, a library, --repeat >= 1 and "
                                           "--min-repeat-ms >= 0"));
  }
  std::ifstream in(o.library, std::ios::binary);
  if (!in) return fail(kUsage, absl::NotFoundError(absl::StrCat("cannot read ", o.library)));
  std::stringstream library;
  library << in.rdbuf();
  absl::StatusOr<Bindings> bindings = ParseBindings(o.bind);
  if (!bindings.ok()) return fail(kUsage, bindings.status());
  absl::StatusOr<std::string> token = ReadTokenFile(o.farm.token_file);
  if (!token.ok()) return fail(kUsage, token.status());

  absl::StatusOr<std::unique_ptr<RemoteSession>> session = RemoteSession::Open(
      FarmClientOptions{o.farm.tracker, *token, o.farm.tls_root_cert, 60}, o.key, o.wait_s);
  if (!session.ok()) return fail(1, session.status());
  out << "device " << o.key << ": worker " << (*session)->worker_id() << ", "
      << (*session)->cpu_model() << ", target " << (*session)->target() << "\n";
  absl::StatusOr<UploadedModule> module = (*session)->Upload(library.str(), o.library);
  if (!module.ok()) return fail(1, module.status());
  absl::StatusOr<const runtime::FunctionSignature*> f = PickFunction(*module, o.function);
  if (!f.ok()) return fail(kUsage, f.status());
  out << "function " << runtime::SignatureText(**f) << "\n";
  absl::StatusOr<std::vector<SessionArgument>> args =
      PrepareArguments(**session, **f, *bindings, o.seed);
  if (!args.ok()) {
    return fail(args.status().code() == absl::StatusCode::kInvalidArgument ? kUsage : 1,
                args.status());
  }
  absl::StatusOr<std::vector<double>> repeats = (*session)->Time(
      module->module_id, (**f).name, *args, SessionTiming{0, o.repeat, o.min_repeat_ms, o.threads});
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
