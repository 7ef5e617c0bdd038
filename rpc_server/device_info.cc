#include "rpc_server/device_info.h"

#include <fstream>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

#include "runtime/measure/speed_probe.h"
#if defined(__aarch64__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

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

std::string ReadCpuinfo() {
  std::ifstream in("/proc/cpuinfo");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The value of the first "key : value" line of `cpuinfo` whose key is `wanted`, or "".
std::string CpuinfoValue(const std::string& cpuinfo, const std::string& wanted) {
  std::istringstream in(cpuinfo);
  std::string line;
  while (std::getline(in, line)) {
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    if (Trim(line.substr(0, colon)) == wanted) return Trim(line.substr(colon + 1));
  }
  return "";
}

// x86 says "model name"; many ARM kernels only say "Hardware" or "Processor".
std::string CpuModel(const std::string& cpuinfo) {
  for (const char* wanted : {"model name", "Hardware", "Processor", "cpu model"}) {
    std::string value = CpuinfoValue(cpuinfo, wanted);
    if (!value.empty()) return value;
  }
  return "";
}

std::vector<std::string> CpuFeatures([[maybe_unused]] const std::string& cpuinfo) {
  std::vector<std::string> features;
#if defined(__aarch64__)
  // The auxiliary vector, not /proc/cpuinfo: under an emulator it is what the emulated CPU
  // offers, while /proc/cpuinfo may be the host's.
  const unsigned long hwcap = getauxval(AT_HWCAP);
  const unsigned long hwcap2 = getauxval(AT_HWCAP2);
  if (hwcap & HWCAP_ASIMD) features.push_back("neon");
  if (hwcap & HWCAP_ASIMDDP) features.push_back("dotprod");
  if (hwcap & HWCAP_ASIMDHP) features.push_back("fp16");
  if (hwcap & HWCAP_SVE) features.push_back("sve");
  if (hwcap2 & HWCAP2_I8MM) features.push_back("i8mm");
  if (hwcap2 & HWCAP2_BF16) features.push_back("bf16");
#elif defined(__x86_64__)
  static const char* const kKernelFeatures[] = {
      "sse4_2",      "avx",         "avx2",     "fma",      "f16c",     "avx512f", "avx512bw",
      "avx512_vnni", "avx512_bf16", "avx_vnni", "amx_tile", "amx_int8", "amx_bf16"};
  std::istringstream flags(CpuinfoValue(cpuinfo, "flags"));
  std::set<std::string> present;
  for (std::string flag; flags >> flag;) present.insert(flag);
  for (const char* f : kKernelFeatures) {
    if (present.count(f) != 0) features.push_back(f);
  }
#endif
  return features;
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

const char* CompiledArchitecture() {
#if defined(__aarch64__)
  return "aarch64";
#elif defined(__x86_64__)
  return "x86_64";
#else
  return "unknown";
#endif
}

std::string CpuinfoArchitecture(const std::string& cpuinfo) {
  if (!CpuinfoValue(cpuinfo, "CPU implementer").empty()) return "aarch64";
  if (!CpuinfoValue(cpuinfo, "vendor_id").empty() && !CpuinfoValue(cpuinfo, "flags").empty()) {
    return "x86_64";
  }
  return "";
}

std::string EmulatedOn() {
  const std::string described = CpuinfoArchitecture(ReadCpuinfo());
  return described.empty() || described == CompiledArchitecture() ? "" : described;
}

DeviceInfo DetectDeviceInfo(const std::string& hostname) {
  DeviceInfo info;
  const std::string cpuinfo = ReadCpuinfo();
  info.cpu_model = CpuModel(cpuinfo);
  info.cpu_features = CpuFeatures(cpuinfo);
  info.cpuinfo_architecture = CpuinfoArchitecture(cpuinfo);
  info.speed_probe_seconds = runtime::measure::SpeedProbeSeconds();
  info.emulated =
      !info.cpuinfo_architecture.empty() && info.cpuinfo_architecture != CompiledArchitecture();
  // The host's model is not this device's: say what is emulated on what.
  if (info.emulated)
    info.cpu_model = std::string(CompiledArchitecture()) + " emulated on " + info.cpu_model;
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
