// `tunefarm jobs [--all] [--cancel ID]`: the farm's tuning jobs and model jobs, one line each, or
// cancel one (a model job's id cancels it and its tasks' jobs).
#pragma once

#include <ostream>
#include <string>

#include "client/farm_client.h"

namespace tunefarm::tools {

struct JobsOptions {
  client::FarmAddress farm;
  bool all = false;  // finished jobs too
  int limit = 100;
  std::string cancel;  // a job or model job id to cancel
};

// 0 with a table (or the cancelled job); 1 with "tunefarm: ..." when the tracker refuses or is
// unreachable; 2 for bad options.
int RunJobsCommand(const JobsOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tunefarm::tools
