// CpuInfo: /proc/cpuinfo text maps to vector width and registers; the host detector returns a
// usable description.
#include "compiler/topi/cpu_info.h"

#include <gtest/gtest.h>

namespace tunefarm::topi {
namespace {

TEST(CpuInfoTest, ParsesX86Flags) {
  CpuInfo avx2 = ParseProcCpuinfo(
      "processor\t: 0\nmodel name\t: AMD EPYC 7B12\nflags\t\t: fpu sse2 avx fma avx2 bmi2\n");
  EXPECT_EQ(avx2.vector_bits, 256);
  EXPECT_EQ(avx2.vector_registers, 16);
  EXPECT_TRUE(avx2.has_fma);
  EXPECT_EQ(avx2.model, "AMD EPYC 7B12");
  EXPECT_EQ(avx2.Lanes(4), 8);

  CpuInfo avx512 = ParseProcCpuinfo("flags : sse2 avx2 fma avx512f avx512vl\n");
  EXPECT_EQ(avx512.vector_bits, 512);
  EXPECT_EQ(avx512.vector_registers, 32);
  EXPECT_EQ(avx512.Lanes(4), 16);

  // A flag that only contains "avx2" as a prefix does not count.
  CpuInfo sse = ParseProcCpuinfo("flags : sse2 sse4_2 avx2x\n");
  EXPECT_EQ(sse.vector_bits, 128);
  EXPECT_FALSE(sse.has_fma);
}

TEST(CpuInfoTest, ParsesArmFeatures) {
  CpuInfo arm = ParseProcCpuinfo("processor : 0\nFeatures : fp asimd evtstrm crc32\n");
  EXPECT_EQ(arm.vector_bits, 128);
  EXPECT_EQ(arm.vector_registers, 32);
  EXPECT_TRUE(arm.has_fma);
}

TEST(CpuInfoTest, UnknownTextKeepsTheBase) {
  CpuInfo base = Avx2Cpu(7);
  CpuInfo parsed = ParseProcCpuinfo("nothing useful", base);
  EXPECT_EQ(parsed.vector_bits, 256);
  EXPECT_EQ(parsed.cores, 7);
}

TEST(CpuInfoTest, DetectsTheHost) {
  CpuInfo host = DetectHostCpu();
  EXPECT_GE(host.cores, 1);
  EXPECT_GE(host.vector_bits, 128);
  EXPECT_GT(host.l1d_bytes, 0);
  EXPECT_GE(host.l2_bytes, host.l1d_bytes);
  EXPECT_FALSE(host.ToString().empty());
}

}  // namespace
}  // namespace tunefarm::topi
