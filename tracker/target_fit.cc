#include "tracker/target_fit.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/codegen/llvm/llvm_target.h"

namespace tunefarm::tracker {
namespace {

std::string ArchOf(const std::string& triple) { return triple.substr(0, triple.find('-')); }

}  // namespace

bool TargetRunsOn(const target::Target& job, const std::string& worker_target) {
  absl::StatusOr<target::Target> worker = target::ParseTarget(worker_target);
  // A GPU worker serves its API's jobs (any OpenCL profile: the profile picks schedules, the
  // device's own limits decide what runs); a CPU worker, CPU jobs of its architecture.
  if (!worker.ok() || worker->kind() != job.kind()) return false;
  // A worker that did not say its architecture is given the benefit of the doubt.
  if (job.is_gpu() || worker_target.find("-mtriple") == std::string::npos) return true;
  return ArchOf(worker->llvm().triple) == ArchOf(job.llvm().triple);
}

absl::Status CheckWorkersRun(const target::Target& job, const std::string& device_key,
                             const std::vector<farm_api::WorkerSnapshot>& workers) {
  std::set<std::string> theirs;
  for (const farm_api::WorkerSnapshot& w : workers) {
    if (w.description.build_only) continue;
    if (TargetRunsOn(job, w.description.target)) return absl::OkStatus();
    theirs.insert(target::DisplayTarget(w.description.target));
  }
  if (theirs.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("no worker of device key '", device_key, "' can run target '",
                   target::DisplayTarget(job.str()), "': its workers run '",
                   absl::StrJoin(theirs, "', '"), "'"));
}

std::optional<target::GpuLimits> ReportedGpuLimits(
    const std::vector<farm_api::WorkerSnapshot>& workers) {
  std::optional<target::GpuLimits> limits;
  for (const farm_api::WorkerSnapshot& w : workers) {
    const farm_api::GpuDescription& gpu = w.description.gpu;
    if (w.description.build_only || gpu.api.empty()) continue;
    const target::GpuLimits reported{gpu.max_threads_per_block, gpu.max_shared_bytes};
    limits = limits ? limits->Narrowed(reported) : reported;
  }
  return limits;
}

}  // namespace tunefarm::tracker
