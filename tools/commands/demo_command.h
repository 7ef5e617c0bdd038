// `tunefarm demo`: the README's main job. It starts a farm on this machine (a tracker with an
// embedded SQLite database and two local workers), tunes a matmul and a conv2d through it, prints
// the best configs and their GFLOPS against the untuned default, and leaves the database for
// `tunefarm best` to query.
#pragma once

#include <atomic>
#include <ostream>
#include <string>

namespace tunefarm::tools {

struct DemoOptions {
  std::string db = "demo.db";
  int trials = 64;  // per job
  int workers = 2;
  std::string matmul = "matmul:512,512,512";
  std::string conv = "conv2d_nchwc:1,64,28,28,64,3,3,1,1";
  bool progress = true;
};

// 0 when both jobs succeeded; 1 with "tunefarm: ..." otherwise. `stop` (Ctrl-C) cancels the jobs.
int RunDemoCommand(const DemoOptions& options, const std::atomic<bool>* stop, std::ostream& out,
                   std::ostream& err);

}  // namespace tunefarm::tools
