#include "tools/commands/jobs_command.h"

#include <cstdio>

namespace tunefarm::tools {
namespace {

void PrintJob(const tracker::JobStatus& j, std::ostream& out) {
  char best[32] = "-";
  if (j.best_gflops > 0) std::snprintf(best, sizeof(best), "%.2f", j.best_gflops);
  char line[512];
  std::snprintf(line, sizeof(line), "%-14s %-10s %5d/%-5d %6d %10s  %-8s %s on %s", j.id.c_str(),
                std::string(tracker::JobStateName(j.state)).c_str(), j.trials_done, j.trials,
                j.errors, best, j.tuner.c_str(), j.workload_key.c_str(), j.device_key.c_str());
  out << line;
  if (!j.message.empty()) out << "  (" << j.message << ")";
  out << "\n";
}

}  // namespace

int RunJobsCommand(const JobsOptions& o, std::ostream& out, std::ostream& err) {
  if (o.limit < 1) {
    err << "tunefarm: --limit must be at least 1\n";
    return 2;
  }
  absl::StatusOr<std::unique_ptr<FarmClient>> client = FarmClient::Connect(o.farm);
  if (!client.ok()) {
    err << "tunefarm: " << client.status().message() << "\n";
    return 2;
  }
  if (!o.cancel.empty()) {
    absl::StatusOr<tracker::JobStatus> job = (*client)->CancelJob(o.cancel);
    if (!job.ok()) {
      err << "tunefarm: " << job.status().message() << "\n";
      return 1;
    }
    PrintJob(*job, out);
    return 0;
  }
  absl::StatusOr<std::vector<tracker::JobStatus>> jobs = (*client)->ListJobs(o.all, o.limit);
  if (!jobs.ok()) {
    err << "tunefarm: " << jobs.status().message() << "\n";
    return 1;
  }
  out << "id             state      trials      errors  best GFLOPS  tuner    workload\n";
  for (const tracker::JobStatus& j : *jobs) PrintJob(j, out);
  if (jobs->empty()) out << (o.all ? "no jobs\n" : "no unfinished jobs (--all shows every job)\n");
  return 0;
}

}  // namespace tunefarm::tools
