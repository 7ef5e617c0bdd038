// CpuInfo: what the default CPU schedules need to know about a machine (vector width, register
// count, cores, cache sizes), as plain data, with a host detector that needs no LLVM.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tunefarm::topi {

struct CpuInfo {
  int vector_bits = 256;      // widest SIMD register: 128 (SSE, NEON), 256 (AVX2), 512 (AVX-512)
  int vector_registers = 16;  // architectural SIMD registers at that width
  bool has_fma = true;
  int cores = 1;
  int64_t l1d_bytes = 32 * 1024;  // per core
  int64_t l2_bytes = 512 * 1024;  // per core
  int64_t l3_bytes = 8 * 1024 * 1024;
  std::string model;  // informational only

  // Lanes of one vector register for elements of `element_bytes` bytes (at least 1).
  int Lanes(int element_bytes = 4) const;
  // A one-line summary for logs and benchmark headers.
  std::string ToString() const;
};

// The widest float32 vector (the CPU's lanes, halved down to 4) that divides a channel block: a
// narrow block (8 or 4 channels) runs on narrower vectors, 8 as one 256-bit vector on AVX-512.
int64_t BlockVectorLanes(int64_t block, const CpuInfo& cpu);

// The machine in the brief of the default schedules: AVX2 + FMA, 2 cores (an AMD EPYC).
CpuInfo Avx2Cpu(int cores = 2);

// Fills SIMD fields and the model from the text of /proc/cpuinfo (x86 `flags`, ARM `Features`),
// starting from `base`; cores and caches stay as in `base`. Unknown text leaves `base` unchanged.
CpuInfo ParseProcCpuinfo(std::string_view text, CpuInfo base = CpuInfo());

// The host: /proc/cpuinfo for SIMD, the process's CPU count for cores, and
// /sys/devices/system/cpu/cpu0/cache for cache sizes. Falls back to CpuInfo's defaults for what
// it cannot read (another OS, a sandbox without /sys).
CpuInfo DetectHostCpu();

}  // namespace tunefarm::topi
