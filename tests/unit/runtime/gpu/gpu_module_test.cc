#include "runtime/gpu/gpu_module.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <string>

namespace tunefarm::runtime::gpu {
namespace {

using ::testing::HasSubstr;

GpuModuleImage SampleImage() {
  GpuModuleImage image;
  image.arch = "sm_90";
  // Blobs may hold anything, newlines and lines that look like records included.
  image.code = ".version 8.0\n.target sm_90\nend\nfunction 3\n\n\ttrailing spaces  \n";
  GpuHostFunction matmul;
  matmul.signature.name = "matmul";
  matmul.signature.args = {
      {ArgKind::kTensor, "A", {kDLFloat, 32, 1}, {DimSpec::Const(64), DimSpec::Symbol("n")}},
      {ArgKind::kTensor, "B", {kDLFloat, 32, 1}, {DimSpec::Symbol("n"), DimSpec::Const(64)}},
      {ArgKind::kTensor, "C", {kDLFloat, 32, 1}, {DimSpec::Const(64), DimSpec::Const(64)}},
      {ArgKind::kInt, "n", {kDLInt, 64, 1}, {}},
  };
  GpuLaunch first;
  first.kernel = "matmul_kernel0";
  first.grid = {"floordiv(n + 63, 64)", "2", "1"};
  first.block = {"16", "16", "1"};
  first.dynamic_shared_bytes = 8192;
  first.params = {{KernelParam::Kind::kPointer, "A"},
                  {KernelParam::Kind::kPointer, "B"},
                  {KernelParam::Kind::kPointer, "C"},
                  {KernelParam::Kind::kInt32, "n"},
                  {KernelParam::Kind::kInt64, "n"}};
  GpuLaunch second;
  second.kernel = "weird name\nwith newline";
  matmul.launches = {first, second};
  GpuHostFunction empty;
  empty.signature.name = "noop";
  image.functions = {matmul, empty};
  return image;
}

void ExpectSame(const GpuModuleImage& a, const GpuModuleImage& b) {
  EXPECT_EQ(a.arch, b.arch);
  EXPECT_EQ(a.code, b.code);
  ASSERT_EQ(a.functions.size(), b.functions.size());
  for (size_t f = 0; f < a.functions.size(); ++f) {
    const GpuHostFunction& x = a.functions[f];
    const GpuHostFunction& y = b.functions[f];
    EXPECT_EQ(SerializeManifest({x.signature}), SerializeManifest({y.signature}));
    ASSERT_EQ(x.launches.size(), y.launches.size());
    for (size_t l = 0; l < x.launches.size(); ++l) {
      EXPECT_EQ(x.launches[l].kernel, y.launches[l].kernel);
      EXPECT_EQ(x.launches[l].grid, y.launches[l].grid);
      EXPECT_EQ(x.launches[l].block, y.launches[l].block);
      EXPECT_EQ(x.launches[l].dynamic_shared_bytes, y.launches[l].dynamic_shared_bytes);
      ASSERT_EQ(x.launches[l].params.size(), y.launches[l].params.size());
      for (size_t p = 0; p < x.launches[l].params.size(); ++p) {
        EXPECT_EQ(x.launches[l].params[p].kind, y.launches[l].params[p].kind);
        EXPECT_EQ(x.launches[l].params[p].name, y.launches[l].params[p].name);
      }
    }
  }
}

TEST(GpuModuleTest, RoundTripIsExact) {
  GpuModuleImage image = SampleImage();
  std::string text = SerializeGpuModule(image);
  EXPECT_EQ(text.rfind("tunefarm-cuda-module 1\narch 5\nsm_90\nptx ", 0), 0u) << text;
  absl::StatusOr<GpuModuleImage> parsed = ParseGpuModule(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  ExpectSame(image, *parsed);
  EXPECT_EQ(SerializeGpuModule(*parsed), text);
}

TEST(GpuModuleTest, AnOpenClModuleRoundTripsUnderItsOwnHeader) {
  GpuModuleImage image = SampleImage();
  image.api = GpuApi::kOpenCl;
  image.arch = "mali";
  image.code = "__kernel void k(__global float* restrict A) { A[0] = 1.0f; }\n";
  std::string text = SerializeGpuModule(image);
  EXPECT_EQ(text.rfind("tunefarm-opencl-module 1\narch 4\nmali\nopencl ", 0), 0u) << text;
  EXPECT_TRUE(LooksLikeGpuModule(text, GpuApi::kOpenCl));
  EXPECT_FALSE(LooksLikeGpuModule(text, GpuApi::kCuda));
  absl::StatusOr<GpuModuleImage> parsed = ParseGpuModule(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->api, GpuApi::kOpenCl);
  ExpectSame(image, *parsed);
  // The code blob's key follows the header: PTX under an OpenCL header is malformed.
  std::string mixed = text;
  mixed.replace(mixed.find("opencl "), 7, "ptx ");
  EXPECT_FALSE(ParseGpuModule(mixed).ok());
}

TEST(GpuModuleTest, EmptyModuleRoundTrips) {
  GpuModuleImage image;
  absl::StatusOr<GpuModuleImage> parsed = ParseGpuModule(SerializeGpuModule(image));
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  ExpectSame(image, *parsed);
}

// Every proper prefix of a valid module is rejected (nothing is silently dropped).
TEST(GpuModuleTest, RejectsEveryTruncation) {
  std::string text = SerializeGpuModule(SampleImage());
  for (size_t n = 0; n < text.size(); ++n) {
    absl::StatusOr<GpuModuleImage> parsed = ParseGpuModule(std::string_view(text).substr(0, n));
    ASSERT_FALSE(parsed.ok()) << "prefix of " << n << " bytes parsed";
    EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(parsed.status().message()), HasSubstr("gpu module: line "));
  }
}

TEST(GpuModuleTest, MalformedInputsNameWhatIsWrong) {
  std::string good = SerializeGpuModule(SampleImage());
  auto replaced = [&](std::string_view from, std::string_view to) {
    std::string text = good;
    size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
  };
  struct Case {
    std::string text;
    const char* message;
  };
  const Case cases[] = {
      {"", "line 1: expected the header, found end of input"},
      {"tunefarm-cuda-module 2\n", "expected header 'tunefarm-cuda-module 1'"},
      {"hello\n", "found 'hello'"},
      {replaced("arch 5", "arch 50"), "'arch' blob of 50 bytes is truncated"},
      {replaced("arch 5", "arch x"), "bad number 'x' in 'arch' record"},
      {replaced("arch 5", "arch -1"), "bad number '-1'"},
      {replaced("arch 5", "arch 4"), "'arch' blob of 4 bytes is truncated or not followed"},
      {replaced("arch 5", "ARCH 5"), "line 2: expected 'arch' with 1 number(s), found 'ARCH 5'"},
      {replaced("tunefarm-manifest 1", "tunefarm-manifest 9"), "bad manifest"},
      {replaced("function 2", "function"), "expected 'function' with 1 number(s)"},
      {replaced("launch 8192 5", "launch 8192"), "expected 'launch' with 2 number(s)"},
      {replaced("param i32", "param f32"), "unknown param kind 'f32'"},
      {replaced("param i64 1", "param i64 z"), "bad param name length 'z'"},
      {replaced("param ptr 1\nA", "pram ptr 1\nA"), "expected 'param', found 'pram ptr 1'"},
      {replaced("grid 1\n2\n", "grid 1\n2\ngrid 1\n1\n"), "expected 'block'"},
      {good + "extra\n", "expected 'end' as the last line"},
      {good.substr(0, good.size() - 4) + "function 0\nend\n", "expected 'end' as the last line"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<GpuModuleImage> parsed = ParseGpuModule(c.text);
    ASSERT_FALSE(parsed.ok()) << c.message;
    EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument) << c.message;
    EXPECT_THAT(std::string(parsed.status().message()), HasSubstr(c.message));
  }
}

}  // namespace
}  // namespace tunefarm::runtime::gpu
