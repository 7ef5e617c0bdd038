// DeviceInfo: what the worker tells the tracker about the machine it runs on when it registers
// (CPU model, cores, features, memory, host name, whether it is emulated), read from /proc, the
// auxiliary vector and libc so the slim binary needs nothing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tunefarm::rpc_server {

struct DeviceInfo {
  std::string cpu_model;  // /proc/cpuinfo "model name" (or "Hardware"/"CPU part" on some ARM)
  int cores = 0;          // std::thread::hardware_concurrency()
  int64_t memory_bytes = 0;
  std::string hostname;
  // The ISA extensions kernels care about, by their Linux names: on AArch64 from the auxiliary
  // vector ("neon", "dotprod", "fp16", "i8mm", "bf16", "sve"), on x86 from /proc/cpuinfo's flags
  // ("avx2", "fma", "avx512f", "avx512_vnni", "amx_int8", ...).
  std::vector<std::string> cpu_features;
  // This process runs under an emulator: its /proc/cpuinfo describes a CPU of another
  // architecture than the one it was compiled for (qemu-user passes the host's through).
  bool emulated = false;
  std::string cpuinfo_architecture;  // "x86_64", "aarch64" or "" (unknown), as /proc/cpuinfo reads
  double speed_probe_seconds = 0;    // runtime/measure/speed_probe.h, measured at start
};

// `hostname` non-empty overrides gethostname(). Missing facts stay empty or zero.
DeviceInfo DetectDeviceInfo(const std::string& hostname = "");

// The architecture /proc/cpuinfo describes when it is not the one this binary was compiled for
// (it runs under an emulator), else "": the cheap part of DetectDeviceInfo, without its probe.
std::string EmulatedOn();

// The architecture this binary was compiled for: "x86_64", "aarch64" or "unknown".
const char* CompiledArchitecture();

// The architecture a /proc/cpuinfo text describes: "x86_64" (vendor_id and flags lines),
// "aarch64" (CPU implementer lines), or "" when it says neither.
std::string CpuinfoArchitecture(const std::string& cpuinfo);

// The version this worker reports: TUNEFARM_VERSION when the build defines it for this layer.
const char* WorkerVersion();

}  // namespace tunefarm::rpc_server
