#include "client/remote_verification.h"

#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "client/remote_kernel_timing.h"
#include "client/remote_session.h"
#include "client/token_file.h"
#include "compiler/target/target.h"
#include "runtime/measure/interleaved_timing.h"
#include "tuner/templates/template_registry.h"
#include "tuner/workload.h"

namespace tunefarm::client {

absl::StatusOr<tuner::VerifiedBest> VerifyJobBestOnDevice(FarmClient& client,
                                                          const FarmAddress& farm,
                                                          const farm_api::JobStatus& j, int threads,
                                                          std::string* worker) {
  absl::StatusOr<tuner::Workload> w = tuner::ParseWorkloadKey(j.workload_key);
  if (!w.ok()) return w.status();
  absl::StatusOr<target::Target> target = target::ParseTarget(j.target);
  if (!target.ok()) return target.status();
  if (target->is_gpu()) {
    // A remote session loads shared libraries; a GPU module is timed by the worker's measure
    // children only, so its result stands as they measured it.
    return absl::UnimplementedError(absl::StrCat("remote sessions run CPU libraries only; the ",
                                                 target->kind_name(),
                                                 " result stands as the worker measured it"));
  }
  absl::StatusOr<std::unique_ptr<tuner::Task>> task = tuner::CreateTask(*w, *target);
  if (!task.ok()) return task.status();
  absl::StatusOr<std::vector<tuner::Record>> all =
      client.ListRecords(j.workload_key, j.target, j.device_key, 100000);
  if (!all.ok()) return all.status();
  std::vector<tuner::Record> records;
  for (tuner::Record& r : *all) {
    if (r.cache_flush == tuner::CacheFlush::kNone) records.push_back(std::move(r));
  }
  absl::StatusOr<tuner::VerificationPlan> plan =
      tuner::PlanVerification(records, **task, j.device_key, 5);
  if (!plan.ok()) return plan.status();
  absl::StatusOr<std::unique_ptr<tuner::BuiltConfigs>> built =
      tuner::BuiltConfigs::Build(**task, plan->Configs());
  if (!built.ok()) return built.status();

  absl::StatusOr<std::string> token = ReadTokenFile(farm.token_file);
  if (!token.ok()) return token.status();
  absl::StatusOr<std::unique_ptr<RemoteSession>> session = RemoteSession::Open(
      FarmClientOptions{farm.tracker, *token, farm.tls_root_cert, 60}, j.device_key, 60);
  if (!session.ok()) return session.status();
  *worker = (*session)->worker_id();
  std::vector<DeviceKernel> kernels;
  std::optional<runtime::FunctionSignature> signature;
  for (const tuner::BuildResult& lib : (*built)->libraries()) {
    absl::StatusOr<std::string> bytes = ReadModuleFile(lib.library_path);
    if (!bytes.ok()) return bytes.status();
    absl::StatusOr<UploadedModule> up = (*session)->Upload(*bytes, lib.library_path);
    if (!up.ok()) return up.status();
    absl::StatusOr<const runtime::FunctionSignature*> f = PickFunction(*up, lib.function_name);
    if (!f.ok()) return f.status();
    if (!signature) signature = **f;
    kernels.push_back({up->module_id, (**f).name});
  }
  absl::StatusOr<std::vector<SessionArgument>> args =
      PrepareSessionArguments(**session, *signature, {}, /*seed=*/1);
  if (!args.ok()) return args.status();
  const runtime::measure::InterleavedOptions rounds;
  absl::StatusOr<runtime::measure::InterleavedTiming> timing = TimeInTurnsOnDevice(
      **session, kernels, *args, SessionTiming{0, 1, rounds.min_slot_ms, threads}, rounds.rounds);
  if (!timing.ok()) return timing.status();
  tuner::VerifiedBest v = tuner::ConcludeVerification(*std::move(plan), *timing);
  v.timed_alone = true;  // the worker's session takes the host's timing lock for each slot
  return v;
}

}  // namespace tunefarm::client
