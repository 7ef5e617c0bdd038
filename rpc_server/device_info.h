// DeviceInfo: what the worker tells the tracker about the machine it runs on when it registers
// (CPU model, cores, memory, host name), read from /proc and libc so the slim binary needs nothing.
#pragma once

#include <cstdint>
#include <string>

namespace tunefarm::rpc_server {

struct DeviceInfo {
  std::string cpu_model;  // /proc/cpuinfo "model name" (or "Hardware"/"CPU part" on some ARM)
  int cores = 0;          // std::thread::hardware_concurrency()
  int64_t memory_bytes = 0;
  std::string hostname;
};

// `hostname` non-empty overrides gethostname(). Missing facts stay empty or zero.
DeviceInfo DetectDeviceInfo(const std::string& hostname = "");

// The version this worker reports: TUNEFARM_VERSION when the build defines it for this layer.
const char* WorkerVersion();

}  // namespace tunefarm::rpc_server
