// `tunefarm best --db tf.db --workload KEY [--target T] [--device D]` (or `--tracker HOST:PORT`
// instead of --db): the fastest recorded config of a workload, per target and device key.
#pragma once

#include <ostream>
#include <string>

#include "client/farm_client.h"

namespace tunefarm::tools {

struct BestOptions {
  std::string db;
  std::string workload;  // "matmul:1024,1024,1024" (dtype float32 when left out)
  std::string target;    // empty: every target
  std::string device;    // empty: every device key
  bool json = false;     // print the best records as JSON lines instead of a table
  // Ask a tracker instead of opening `db` (when farm.tracker is set and db is empty).
  client::FarmAddress farm;
};

// 0 with one line per (target, device): median ms, GFLOPS (when the workload's FLOPs are known),
// trials recorded, measured by, and the config JSON; 1 with "tunefarm: ..." when the database is
// missing or holds no ok record for the workload; 2 for a malformed workload key or target.
int RunBestCommand(const BestOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tunefarm::tools
