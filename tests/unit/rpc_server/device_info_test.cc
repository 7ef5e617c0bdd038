// What a worker says about its machine: the architecture a /proc/cpuinfo describes (so a binary
// under qemu-user, reading the host's, knows it is emulated) and this machine's own facts.
#include "rpc_server/device_info.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <string>

namespace tunefarm::rpc_server {
namespace {

TEST(DeviceInfoTest, CpuinfoSaysWhichArchitectureItDescribes) {
  const std::string x86 =
      "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R)\n"
      "flags\t\t: fpu sse4_2 avx2 avx512f avx512_vnni amx_int8\n";
  const std::string arm =
      "processor\t: 0\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd asimddp\n"
      "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU part\t: 0xd0b\n";
  EXPECT_EQ(CpuinfoArchitecture(x86), "x86_64");
  EXPECT_EQ(CpuinfoArchitecture(arm), "aarch64");
  EXPECT_EQ(CpuinfoArchitecture(""), "");
  EXPECT_EQ(CpuinfoArchitecture("processor : 0\nflags : fpu\n"), "") << "no vendor: unknown";
}

TEST(DeviceInfoTest, ThisMachineIsNotEmulatedAndReportsItsFeatures) {
  const DeviceInfo info = DetectDeviceInfo("a-host");
  EXPECT_EQ(info.hostname, "a-host");
  EXPECT_GT(info.cores, 0);
  EXPECT_GT(info.memory_bytes, 0);
  EXPECT_FALSE(info.emulated) << "cpuinfo describes " << info.cpuinfo_architecture;
  EXPECT_EQ(info.cpuinfo_architecture, CompiledArchitecture());
#if defined(__x86_64__)
  // Every x86-64 machine we build for has SSE4.2; the list holds only known names.
  EXPECT_NE(std::find(info.cpu_features.begin(), info.cpu_features.end(), "sse4_2"),
            info.cpu_features.end());
#endif
}

}  // namespace
}  // namespace tunefarm::rpc_server
