#include "runtime/measure/reference_outputs.h"

#include <cstdio>
#include <fstream>
#include <functional>
#include <unistd.h>
#include <vector>

#include "absl/strings/str_cat.h"
#include "runtime/measure/measured_kernel.h"

namespace tunefarm::runtime::measure {
namespace {

absl::Status Prefixed(const MeasureRequest& request, const absl::Status& status) {
  return absl::Status(status.code(), absl::StrCat("reference ", request.reference_library_path,
                                                  ": ", status.message()));
}

// The expected tensors are also kept in a file beside the reference library, so a measure process
// started after a crash (or another one on the same machine) does not rerun a naive reference
// that may take seconds.
std::string CachePath(const MeasureRequest& request, const std::string& key) {
  return absl::StrCat(request.reference_library_path, ".expected-",
                      absl::Hex(std::hash<std::string>()(key)));
}

bool LoadExpected(const std::string& path, KernelArguments& expected) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::vector<char> bytes;
  for (NDArray& array : expected.mutable_tensors()) {
    bytes.resize(array.NumBytes());
    if (!in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()))) return false;
    if (!array.CopyFromBytes(bytes.data(), bytes.size()).ok()) return false;
  }
  return in.peek() == std::char_traits<char>::eof();
}

// Best effort: a cache that cannot be written only costs the next process a rerun. Written under
// a temporary name and renamed, so a reader never sees a partial file.
void SaveExpected(const std::string& path, const KernelArguments& expected) {
  std::string tmp = absl::StrCat(path, ".tmp", ::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    std::vector<char> bytes;
    for (const NDArray& array : expected.tensors()) {
      bytes.resize(array.NumBytes());
      if (!array.CopyToBytes(bytes.data(), bytes.size()).ok()) return;
      out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    if (!out) {
      std::remove(tmp.c_str());
      return;
    }
  }
  std::rename(tmp.c_str(), path.c_str());
}

absl::StatusOr<std::unique_ptr<ReferenceRun>> RunReference(const MeasureRequest& request) {
  if (request.reference_library_path.empty()) {
    return absl::InvalidArgumentError("checking correctness needs a 'reference_library'");
  }
  absl::StatusOr<MeasuredKernel> fn =
      MeasuredKernel::Load(request.reference_library_path, request.reference_function);
  if (!fn.ok()) return Prefixed(request, fn.status());
  absl::StatusOr<KernelArguments> inputs =
      KernelArguments::Make(fn->signature(), request.bindings, request.options.seed);
  if (!inputs.ok()) return Prefixed(request, inputs.status());
  absl::StatusOr<KernelArguments> expected = inputs->Clone();
  if (!expected.ok()) return Prefixed(request, expected.status());
  const std::string key = ReferenceKeyOf(request);
  const std::string cache = CachePath(request, key);
  if (!LoadExpected(cache, *expected)) {
    if (absl::Status s = expected->RestoreFrom(*inputs); !s.ok()) return Prefixed(request, s);
    std::vector<PackedArg> packed = expected->Pack();
    if (absl::Status s = fn->Call(packed); !s.ok()) return Prefixed(request, s);
    SaveExpected(cache, *expected);
  }
  return std::make_unique<ReferenceRun>(
      ReferenceRun{key, *std::move(inputs), *std::move(expected)});
}

}  // namespace

std::string ReferenceKeyOf(const MeasureRequest& request) {
  // The inputs depend on the seed and the bindings too: requests differing there share nothing.
  std::string key = request.reference_key.empty() ? absl::StrCat(request.reference_library_path,
                                                                 "#", request.reference_function)
                                                  : request.reference_key;
  absl::StrAppend(&key, "|seed=", request.options.seed);
  for (const auto& [name, value] : request.bindings) absl::StrAppend(&key, "|", name, "=", value);
  return key;
}

absl::StatusOr<const ReferenceRun*> ReferenceOutputs::Get(const MeasureRequest& request) {
  const std::string key = ReferenceKeyOf(request);
  for (auto it = runs_.begin(); it != runs_.end(); ++it) {
    if ((*it)->key != key) continue;
    runs_.splice(runs_.begin(), runs_, it);
    return runs_.front().get();
  }
  absl::StatusOr<std::unique_ptr<ReferenceRun>> run = RunReference(request);
  if (!run.ok()) return run.status();
  runs_.push_front(*std::move(run));
  while (runs_.size() > capacity_) runs_.pop_back();
  return runs_.front().get();
}

}  // namespace tunefarm::runtime::measure
