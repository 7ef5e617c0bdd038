#include "client/remote_kernel_timing.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/core/dtype_name.h"
#include "runtime/measure/random_fill.h"
#include "runtime/ndarray.h"

namespace tunefarm::client {

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

absl::StatusOr<std::vector<SessionArgument>> PrepareSessionArguments(
    RemoteSession& session, const runtime::FunctionSignature& f, const driver::Bindings& bindings,
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

bool SameArguments(const runtime::FunctionSignature& a, const runtime::FunctionSignature& b) {
  if (a.args.size() != b.args.size()) return false;
  for (size_t i = 0; i < a.args.size(); ++i) {
    const runtime::ArgSpec& x = a.args[i];
    const runtime::ArgSpec& y = b.args[i];
    if (x.kind != y.kind || runtime::DTypeName(x.dtype) != runtime::DTypeName(y.dtype) ||
        x.shape.size() != y.shape.size()) {
      return false;
    }
    for (size_t d = 0; d < x.shape.size(); ++d) {
      if (x.shape[d].is_symbol() != y.shape[d].is_symbol() ||
          (x.shape[d].is_symbol() ? x.shape[d].symbol != y.shape[d].symbol
                                  : x.shape[d].value != y.shape[d].value)) {
        return false;
      }
    }
  }
  return true;
}

absl::StatusOr<runtime::measure::InterleavedTiming> TimeInTurnsOnDevice(
    RemoteSession& session, const std::vector<DeviceKernel>& kernels,
    const std::vector<SessionArgument>& args, const SessionTiming& slot, int rounds) {
  runtime::measure::InterleavedTiming t;
  t.seconds.resize(kernels.size());
  if (rounds < 2) return absl::InvalidArgumentError("rounds must be at least 2");
  for (int round = 0; round < rounds; ++round) {
    for (size_t k = 0; k < kernels.size(); ++k) {
      const size_t i = round % 2 == 0 ? k : kernels.size() - 1 - k;  // reversed every other round
      absl::StatusOr<std::vector<double>> one =
          session.Time(kernels[i].module_id, kernels[i].function, args, slot);
      if (!one.ok()) return one.status();
      if (one->empty()) return absl::InternalError("the device returned no timing");
      t.seconds[i].push_back(one->front());
    }
  }
  for (size_t i = 0; i < kernels.size(); ++i) {
    absl::StatusOr<runtime::measure::RatioInterval> r =
        runtime::measure::PairedRatio(t.seconds[0], t.seconds[i]);
    if (!r.ok()) return r.status();
    t.over_first.push_back(*r);
  }
  return t;
}

}  // namespace tunefarm::client
