#include "tools/commands/workers_command.h"

#include <chrono>
#include <cstdio>

#include "runtime/clock.h"
#include "tools/commands/exit_codes.h"

namespace tunefarm::tools {

int RunWorkersCommand(const WorkersOptions& o, std::ostream& out, std::ostream& err) {
  absl::StatusOr<std::unique_ptr<client::FarmClient>> client = client::FarmClient::Connect(o.farm);
  if (!client.ok()) {
    err << "tunefarm: " << client.status().message() << "\n";
    return 2;
  }
  absl::StatusOr<std::vector<farm_api::WorkerSnapshot>> workers = (*client)->ListWorkers(o.key);
  if (!workers.ok()) {
    err << "tunefarm: " << workers.status().message() << "\n";
    return ExitCodeOf(workers.status());
  }
  const int64_t now_ms = runtime::SystemClock().NowMs();
  out << "worker                   key            state     measured  failed  up      target / "
         "machine\n";
  for (const farm_api::WorkerSnapshot& w : *workers) {
    const farm_api::WorkerDescription& d = w.description;
    char line[512];
    std::snprintf(line, sizeof(line), "%-24s %-14s %-9s %8lld  %6lld  %5llds  %s / %s, %d cores",
                  d.worker_id.c_str(), d.device_key.c_str(),
                  std::string(farm_api::WorkerStateName(w.state)).c_str(),
                  static_cast<long long>(w.measured), static_cast<long long>(w.failures),
                  static_cast<long long>((now_ms - w.connected_ms) / 1000), d.target.c_str(),
                  d.cpu_model.c_str(), d.cores);
    out << line;
    if (!d.gpu_model.empty()) out << ", " << d.gpu_model;
    if (!d.gpu.api.empty()) {
      out << " (" << d.gpu.api << ", " << d.gpu.compute_units << " compute units, work-groups of "
          << d.gpu.max_threads_per_block << ", " << d.gpu.max_shared_bytes / 1024 << " KiB local)";
    }
    if (d.emulated) out << " (emulated: its times are not a device's)";
    if (d.slowness >= 1.5) {
      char slower[96];
      std::snprintf(slower, sizeof(slower), " (%.1fx slower than the tracker: longer timeouts)",
                    d.slowness);
      out << slower;
    }
    if (d.build_only) out << " (builder: builds for the key, measures nothing)";
    out << "\n";
  }
  if (workers->empty())
    out << "no workers connected" << (o.key.empty() ? "" : " with that key") << "\n";
  return 0;
}

}  // namespace tunefarm::tools
