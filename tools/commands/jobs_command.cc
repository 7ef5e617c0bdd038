#include "tools/commands/jobs_command.h"

#include <cstdio>

#include "tools/commands/exit_codes.h"

namespace tunefarm::tools {
namespace {

void PrintJob(const farm_api::JobStatus& j, std::ostream& out) {
  char best[32] = "-";
  if (j.progress.best_gflops > 0) std::snprintf(best, sizeof(best), "%.2f", j.progress.best_gflops);
  char line[512];
  std::snprintf(line, sizeof(line), "%-14s %-10s %5d/%-5d %6d %10s  %-8s %s on %s", j.id.c_str(),
                std::string(farm_api::JobStateName(j.state)).c_str(), j.progress.trials_done,
                j.trials, j.progress.errors, best, j.tuner.c_str(), j.workload_key.c_str(),
                j.device_key.c_str());
  out << line;
  if (!j.model_job_id.empty()) out << "  [" << j.model_job_id << " task " << j.model_task << "]";
  if (!j.message.empty()) out << "  (" << j.message << ")";
  out << "\n";
}

void PrintModelJob(const farm_api::ModelJobStatus& m, std::ostream& out) {
  char estimate[32] = "-";
  if (m.estimated_seconds > 0)
    std::snprintf(estimate, sizeof(estimate), "%.3f", m.estimated_seconds * 1e3);
  char line[512];
  std::snprintf(line, sizeof(line), "%-14s %-10s %5d/%-5d %5zu %12s  %s on %s", m.id.c_str(),
                std::string(farm_api::JobStateName(m.state)).c_str(), m.trials_done, m.trials,
                m.tasks.size(), estimate, m.model_name.c_str(), m.device_key.c_str());
  out << line;
  if (!m.message.empty()) out << "  (" << m.message << ")";
  out << "\n";
}

// Model job ids are "model-..." (tracker/model_job_manager.cc), job ids "job-...".
bool IsModelJobId(const std::string& id) { return id.rfind("model-", 0) == 0; }

}  // namespace

int RunJobsCommand(const JobsOptions& o, std::ostream& out, std::ostream& err) {
  if (o.limit < 1) {
    err << "tunefarm: --limit must be at least 1\n";
    return 2;
  }
  absl::StatusOr<std::unique_ptr<client::FarmClient>> client = client::FarmClient::Connect(o.farm);
  if (!client.ok()) {
    err << "tunefarm: " << client.status().message() << "\n";
    return 2;
  }
  if (!o.cancel.empty() && IsModelJobId(o.cancel)) {
    absl::StatusOr<farm_api::ModelJobStatus> job = (*client)->CancelModelJob(o.cancel);
    if (!job.ok()) {
      err << "tunefarm: " << job.status().message() << "\n";
      return ExitCodeOf(job.status());
    }
    PrintModelJob(*job, out);
    return 0;
  }
  if (!o.cancel.empty()) {
    absl::StatusOr<farm_api::JobStatus> job = (*client)->CancelJob(o.cancel);
    if (!job.ok()) {
      err << "tunefarm: " << job.status().message() << "\n";
      return ExitCodeOf(job.status());
    }
    PrintJob(*job, out);
    return 0;
  }
  absl::StatusOr<std::vector<farm_api::JobStatus>> jobs = (*client)->ListJobs(o.all, o.limit);
  if (!jobs.ok()) {
    err << "tunefarm: " << jobs.status().message() << "\n";
    return ExitCodeOf(jobs.status());
  }
  out << "id             state      trials      errors  best GFLOPS  tuner    workload\n";
  for (const farm_api::JobStatus& j : *jobs) PrintJob(j, out);
  if (jobs->empty()) out << (o.all ? "no jobs\n" : "no unfinished jobs (--all shows every job)\n");
  absl::StatusOr<std::vector<farm_api::ModelJobStatus>> models =
      (*client)->ListModelJobs(o.all, o.limit);
  if (!models.ok()) {
    err << "tunefarm: " << models.status().message() << "\n";
    return ExitCodeOf(models.status());
  }
  if (!models->empty()) {
    out << "\nmodel job      state      trials      tasks  kernels ms  model\n";
    for (const farm_api::ModelJobStatus& m : *models) PrintModelJob(m, out);
  }
  return 0;
}

}  // namespace tunefarm::tools
