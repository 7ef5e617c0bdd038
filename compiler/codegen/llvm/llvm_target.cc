// ParseLlvmTarget: TVM-style target strings, checked against LLVM's own tables of CPUs and
// features, so a typo is reported here rather than as an LLVM warning on stderr at build time.
#include "compiler/codegen/llvm/llvm_target.h"

#include <algorithm>
#include <llvm/ADT/StringMap.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/Triple.h>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "compiler/codegen/llvm/llvm_target_machine.h"

namespace tunefarm::codegen {
namespace {

constexpr const char* kAccepted =
    "accepted: 'llvm' (this host), or 'llvm' with -mtriple=<arch>-linux-gnu (arch: x86_64, "
    "aarch64), -mcpu=<cpu> and -mattr=<+feature,-feature,...>, e.g. "
    "'llvm -mtriple=x86_64-linux-gnu -mcpu=znver3' or 'llvm -mtriple=aarch64-linux-gnu "
    "-mattr=+neon'";

// How many valid names an error about a bad CPU or feature lists.
constexpr size_t kNamesInError = 12;

absl::Status BadTarget(absl::string_view text, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("bad target '", text, "': ", why, "; ", kAccepted));
}

struct Options {
  std::string triple, cpu, mattr;
  bool has_triple = false, has_cpu = false, has_mattr = false;
};

absl::StatusOr<Options> SplitOptions(absl::string_view text) {
  std::vector<absl::string_view> tokens =
      absl::StrSplit(text, absl::ByAnyChar(" \t\n"), absl::SkipEmpty());
  if (tokens.empty() || tokens[0] != "llvm") {
    return BadTarget(text, "it must start with 'llvm'");
  }
  Options o;
  struct Known {
    absl::string_view prefix;
    std::string* value;
    bool* seen;
  };
  const Known known[] = {{"-mtriple=", &o.triple, &o.has_triple},
                         {"-mcpu=", &o.cpu, &o.has_cpu},
                         {"-mattr=", &o.mattr, &o.has_mattr}};
  for (size_t i = 1; i < tokens.size(); ++i) {
    absl::string_view t = tokens[i];
    const Known* match = nullptr;
    for (const Known& k : known) {
      if (absl::StartsWith(t, k.prefix)) match = &k;
    }
    if (match == nullptr) return BadTarget(text, absl::StrCat("unknown option '", t, "'"));
    if (*match->seen) {
      return BadTarget(text, absl::StrCat("option '", match->prefix, "' is given twice"));
    }
    *match->seen = true;
    *match->value = std::string(t.substr(match->prefix.size()));
  }
  return o;
}

// A few of `names`, for an error message.
std::string SomeNames(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  size_t total = names.size();
  if (names.size() > kNamesInError) names.resize(kNamesInError);
  std::string list = absl::StrJoin(names, ", ");
  if (total > names.size()) absl::StrAppend(&list, ", ... (", total, " in all)");
  return list;
}

bool IsKnownFeature(const llvm::MCSubtargetInfo& sti, absl::string_view name) {
  for (const llvm::SubtargetFeatureKV& kv : sti.getAllProcessorFeatures()) {
    if (name == absl::string_view(kv.Key)) return true;
  }
  return false;
}

absl::Status CheckCpu(absl::string_view text, const llvm::MCSubtargetInfo& sti,
                      const std::string& cpu, const std::string& triple) {
  if (sti.isCPUStringValid(cpu)) return absl::OkStatus();
  std::vector<std::string> names;
  for (const llvm::SubtargetSubTypeKV& kv : sti.getAllProcessorDescriptions()) {
    names.emplace_back(kv.Key);
  }
  return absl::InvalidArgumentError(absl::StrCat("bad target '", text, "': unknown -mcpu=", cpu,
                                                 " for ", triple,
                                                 "; valid CPUs include: ", SomeNames(names)));
}

absl::Status CheckFeatures(absl::string_view text, const llvm::MCSubtargetInfo& sti,
                           const std::string& mattr, const std::string& triple) {
  if (mattr.empty()) return absl::OkStatus();
  for (absl::string_view f : absl::StrSplit(mattr, ',')) {
    bool signed_ok = !f.empty() && (f[0] == '+' || f[0] == '-');
    if (signed_ok && IsKnownFeature(sti, f.substr(1))) continue;
    std::vector<std::string> names;
    for (const llvm::SubtargetFeatureKV& kv : sti.getAllProcessorFeatures()) {
      names.push_back(absl::StrCat("+", kv.Key));
    }
    std::string why = signed_ok ? absl::StrCat("unknown feature '", f, "' for ", triple)
                                : absl::StrCat("feature '", f, "' must start with + or -");
    return absl::InvalidArgumentError(absl::StrCat("bad target '", text, "': ", why,
                                                   "; valid features include: ", SomeNames(names)));
  }
  return absl::OkStatus();
}

// The host's features as an LLVM feature string, sorted so the canonical string is stable, and
// limited to names this LLVM knows (detection may report others, which LLVM would warn about).
std::string HostFeatures(const llvm::MCSubtargetInfo& sti) {
  std::vector<std::string> features;
  for (const auto& kv : llvm::sys::getHostCPUFeatures()) {
    if (IsKnownFeature(sti, absl::string_view(kv.getKey().data(), kv.getKey().size()))) {
      features.push_back(absl::StrCat(kv.getValue() ? "+" : "-", kv.getKey().str()));
    }
  }
  std::sort(features.begin(), features.end(),
            [](const std::string& a, const std::string& b) { return a.substr(1) < b.substr(1); });
  return absl::StrJoin(features, ",");
}

// Features generated kernels can use: SIMD, FMA and scalar arithmetic extensions. Hypervisors
// often hide system instructions (mwaitx, rdpru, wbnoinvd, pku, ...) that a CPU model implies;
// kernels never emit those, so a missing one must not stop `-mcpu=znver3` running on a Zen 4 VM.
bool KernelRelevantFeature(absl::string_view f) {
  for (absl::string_view prefix :
       {"sse",     "ssse3",    "avx",     "fma",  "f16c", "bmi",        "lzcnt", "popcnt",
        "amx",     "evex512",  "xop",     "gfni", "vaes", "vpclmulqdq", "aes",   "pclmul",
        "sha",     "adx",      "movbe",   "cx16", "neon", "fp-armv8",   "sve",   "sme",
        "dotprod", "fullfp16", "fp16fml", "bf16", "i8mm", "lse"}) {
    if (absl::StartsWith(f, prefix)) return true;
  }
  return false;
}

// True when code for `t` runs here: same architecture and OS, and no kernel-relevant instruction
// set feature enabled for t's CPU and features that the host lacks.
bool RunsOnHost(const llvm::Triple& tt, const llvm::Target& backend, const LlvmTarget& t) {
  llvm::Triple host(llvm::Triple::normalize(llvm::sys::getProcessTriple()));
  if (tt.getArch() != host.getArch() || tt.getOS() != host.getOS()) return false;
  std::unique_ptr<llvm::MCSubtargetInfo> sti(
      backend.createMCSubtargetInfo(t.triple, t.cpu, t.features));
  for (const auto& kv : llvm::sys::getHostCPUFeatures()) {
    absl::string_view name(kv.getKey().data(), kv.getKey().size());
    if (kv.getValue() || !IsKnownFeature(*sti, name) || !KernelRelevantFeature(name)) continue;
    if (sti->checkFeatures(absl::StrCat("+", kv.getKey().str()))) return false;
  }
  return true;
}

}  // namespace

bool LlvmTarget::is_aarch64() const { return llvm::Triple(triple).isAArch64(); }
bool LlvmTarget::is_x86_64() const {
  return llvm::Triple(triple).getArch() == llvm::Triple::x86_64;
}

std::string LlvmTarget::ToString() const {
  std::string s = absl::StrCat("llvm -mtriple=", triple, " -mcpu=", cpu);
  if (!features.empty()) absl::StrAppend(&s, " -mattr=", features);
  return s;
}

absl::StatusOr<LlvmTarget> ParseLlvmTarget(std::string_view text_in) {
  const absl::string_view text(text_in.data(), text_in.size());
  absl::StatusOr<Options> o = SplitOptions(text);
  if (!o.ok()) return o.status();
  const bool plain_host = !o->has_triple && !o->has_cpu && !o->has_mattr;
  llvm::Triple host(llvm::Triple::normalize(llvm::sys::getProcessTriple()));
  llvm::Triple tt = o->has_triple ? llvm::Triple(llvm::Triple::normalize(o->triple)) : host;
  if (tt.getArch() != llvm::Triple::x86_64 && tt.getArch() != llvm::Triple::aarch64) {
    return BadTarget(text,
                     absl::StrCat("architecture '", tt.getArchName().str(), "' is not supported"));
  }
  if (!tt.isOSLinux()) {
    return BadTarget(text, absl::StrCat("OS '", tt.getOSName().str(), "' is not supported"));
  }
  LlvmTarget t;
  t.triple = tt.str();
  absl::StatusOr<const llvm::Target*> backend = LookupLlvmTarget(t.triple);
  if (!backend.ok()) return BadTarget(text, backend.status().message());
  if (o->has_cpu) {
    t.cpu = o->cpu;
  } else {
    t.cpu = tt.getArch() == host.getArch() ? llvm::sys::getHostCPUName().str() : "generic";
  }
  std::unique_ptr<llvm::MCSubtargetInfo> sti(
      (*backend)->createMCSubtargetInfo(t.triple, "generic", ""));
  if (absl::Status s = CheckCpu(text, *sti, t.cpu, t.triple); !s.ok()) return s;
  if (absl::Status s = CheckFeatures(text, *sti, o->mattr, t.triple); !s.ok()) return s;
  t.features = plain_host ? HostFeatures(*sti) : o->mattr;
  t.is_host = plain_host || RunsOnHost(tt, **backend, t);
  return t;
}

}  // namespace tunefarm::codegen
