#include "tools/commands/demo_command.h"

#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "client/farm_client.h"
#include "compiler/space/config_json.h"
#include "compiler/topi/cpu_info.h"
#include "rpc_server/worker.h"
#include "rpc_server/worker_fleet.h"
#include "tools/commands/verified_summary.h"
#include "tracker/service/tracker_server.h"
#include "tuner/measure/local_runner.h"
#include "tuner/measure/spec_builder.h"
#include "tuner/measure/verified_best.h"
#include "tuner/record_store.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tools {
namespace {

constexpr char kTarget[] = "llvm";

// The job's task; the default config depends on the CPU its (canonical) target describes.
absl::StatusOr<std::unique_ptr<tuner::Task>> JobTask(const farm_api::JobStatus& job) {
  absl::StatusOr<tuner::Workload> w = tuner::ParseWorkloadKey(job.workload_key);
  if (!w.ok()) return w.status();
  absl::StatusOr<target::Target> target = target::ParseTarget(job.target);
  if (!target.ok()) return target.status();
  return tuner::CreateTask(*w, *target);
}

// What the records claim is never printed as a speedup: the best configs and the default are
// timed again here, in alternating rounds, and only that re-timing's ratio is.
void PrintVerified(tuner::RecordStore& store, const farm_api::JobStatus& job, std::ostream& out) {
  absl::StatusOr<std::unique_ptr<tuner::Task>> task = JobTask(job);
  absl::StatusOr<tuner::VerifiedBest> v =
      task.ok() ? tuner::VerifyBest(store, **task, job.device_key) : task.status();
  if (!v.ok()) {
    out << "  not verified: " << v.status().message() << "\n";
    return;
  }
  PrintVerifiedBest(*v, "here", "  ", out);
}

}  // namespace

int RunDemoCommand(const DemoOptions& o, const std::atomic<bool>* stop, std::ostream& out,
                   std::ostream& err) {
  auto fail = [&err](const absl::Status& s) {
    err << "tunefarm: " << s.message() << "\n";
    return 1;
  };
  if (o.trials < 1 || o.workers < 1) {
    err << "tunefarm: demo needs --trials and --workers of at least 1\n";
    return 2;
  }
  // 1. The tracker, on an ephemeral loopback port, with the database in a file.
  tracker::TrackerServerOptions options;
  options.listen = "127.0.0.1:0";
  options.db_path = o.db;
  absl::StatusOr<std::unique_ptr<tracker::TrackerServer>> server =
      tracker::TrackerServer::Start(options);
  if (!server.ok()) return fail(server.status());
  out << "tracker on " << (*server)->address() << ", records in " << o.db << "\n";

  // 2. Workers, one kernel thread each: the two share this machine's cores between them.
  const std::string key = absl::StrCat(tuner::LocalDeviceKey(topi::DetectHostCpu().model), "-1t");
  rpc_server::WorkerFleet fleet;  // stopped and joined on every way out
  for (int i = 0; i < o.workers; ++i) {
    rpc_server::WorkerOptions w;
    w.tracker = (*server)->address();
    w.device_key = key;
    w.hostname = absl::StrCat("demo-worker-", i + 1);
    w.builder = std::make_shared<tuner::SpecBuilder>();  // each builds its own candidates
    if (absl::Status s = fleet.Add(w); !s.ok()) return fail(s);
  }
  out << o.workers << " workers of device key " << key << " (each builds its own candidates)\n";

  // 3. Two jobs at once, sharing the workers.
  absl::StatusOr<std::unique_ptr<client::FarmClient>> client =
      client::FarmClient::Connect(client::FarmClientOptions{(*server)->address(), "", "", 60});
  if (!client.ok()) return fail(client.status());
  std::vector<farm_api::JobStatus> jobs;
  for (const std::string& workload : {o.matmul, o.conv}) {
    farm_api::JobSpec spec;
    spec.workload = workload;
    spec.device_key = key;
    spec.target = kTarget;
    spec.trials = o.trials;
    spec.batch_size = 8;
    spec.measure.threads = 1;
    absl::StatusOr<farm_api::JobStatus> job = (*client)->SubmitJob(spec);
    if (!job.ok()) return fail(job.status());
    out << "job " << job->id << ": " << job->workload_key << ", " << o.trials
        << " trials (model-based)\n";
    jobs.push_back(*job);
  }
  out << std::flush;

  // 4. Follow both until they end.
  bool cancelled = false;
  while (true) {
    bool all_done = true;
    std::string line;
    for (farm_api::JobStatus& j : jobs) {
      absl::StatusOr<farm_api::JobStatus> now = (*client)->GetJob(j.id);
      if (now.ok()) j = *now;
      all_done = all_done && farm_api::IsFinished(j.state);
      char part[160];
      std::snprintf(part, sizeof(part), "  %s %d/%d best %.1f GFLOPS", j.id.c_str(),
                    j.progress.trials_done, j.trials, j.progress.best_gflops);
      line += part;
    }
    if (o.progress) err << "\r" << line << std::flush;
    if (all_done) break;
    if (!cancelled && stop != nullptr && stop->load()) {
      for (const farm_api::JobStatus& j : jobs) (void)(*client)->CancelJob(j.id);
      cancelled = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  if (o.progress) err << "\n";
  fleet.Stop();
  server->reset();

  // 5. The best configs against the untuned default, from the database the farm left.
  absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store = tuner::RecordStore::Open(o.db);
  if (!store.ok()) return fail(store.status());
  int code = 0;
  for (const farm_api::JobStatus& j : jobs) {
    out << "\n"
        << j.workload_key << " (" << farm_api::JobStateName(j.state) << ", "
        << j.progress.trials_done << " trials, " << j.progress.errors << " errors)\n";
    if (j.state != farm_api::JobState::kSucceeded) code = 1;
    if (j.progress.best_seconds <= 0) {
      out << "  no config ran successfully" << (j.message.empty() ? "" : ": ") << j.message << "\n";
      code = 1;
      continue;
    }
    PrintVerified(**store, j, out);
  }
  out << "\nquery it again: tunefarm best --db " << o.db << " --workload " << o.matmul << "\n";
  return code;
}

}  // namespace tunefarm::tools
