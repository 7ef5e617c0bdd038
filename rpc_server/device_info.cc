#include "rpc_server/device_info.h"

#include <fstream>
#include <thread>
#include <unistd.h>

#ifndef TUNEFARM_VERSION
// The build defines the version on the tuner layer only; the slim worker does not link it.
#define TUNEFARM_VERSION "unknown"
#endif

namespace tunefarm::rpc_server {
namespace {

std::string Trim(const std::string& s) {
  size_t begin = s.find_first_not_of(" \t");
  size_t end = s.find_last_not_of(" \t\r\n");
  return begin == std::string::npos ? "" : s.substr(begin, end - begin + 1);
}

// The value of the first "key : value" line of /proc/cpuinfo whose key is one of `keys`, tried
// in order (x86 says "model name"; many ARM kernels only say "Hardware" or "Processor").
std::string CpuModel() {
  for (const char* wanted : {"model name", "Hardware", "Processor", "cpu model"}) {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
      size_t colon = line.find(':');
      if (colon == std::string::npos) continue;
      if (Trim(line.substr(0, colon)) == wanted) return Trim(line.substr(colon + 1));
    }
  }
  return "";
}

int64_t MemoryBytes() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  int64_t kib = 0;
  while (in >> key >> kib) {
    if (key == "MemTotal:") return kib * 1024;
    in.ignore(1 << 10, '\n');
  }
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page_size > 0 ? static_cast<int64_t>(pages) * page_size : 0;
}

}  // namespace

DeviceInfo DetectDeviceInfo(const std::string& hostname) {
  DeviceInfo info;
  info.cpu_model = CpuModel();
  info.cores = static_cast<int>(std::thread::hardware_concurrency());
  info.memory_bytes = MemoryBytes();
  info.hostname = hostname;
  if (info.hostname.empty()) {
    char name[256] = {};
    if (gethostname(name, sizeof(name) - 1) == 0) info.hostname = name;
  }
  return info;
}

const char* WorkerVersion() { return TUNEFARM_VERSION; }

}  // namespace tunefarm::rpc_server
