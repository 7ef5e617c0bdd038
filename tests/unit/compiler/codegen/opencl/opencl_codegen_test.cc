// The OpenCL C dialect of the GPU printer, run on this machine's OpenCL device (PoCL on a CPU;
// skipped where there is no platform): each GPU schedule primitive (bound blocks and threads with
// a guarded tail, shared memory with barriers, vector loads and stores, several kernels in order,
// virtual threads and cooperative fetching in the templates) against the reference interpreter.
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <random>
#include <sstream>

#include "compiler/topi/gpu_conv2d_knobs.h"
#include "compiler/topi/gpu_depthwise_conv2d_knobs.h"
#include "compiler/topi/gpu_matmul_knobs.h"
#include "compiler/topi/static_shape.h"
#include "tests/unit/compiler/codegen/gpu_test_scripts.h"
#include "tests/unit/compiler/codegen/opencl/opencl_check.h"

namespace tunefarm::codegen::opencl {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

using testing::kSharedMatmul;
using testing::kSplitBind;
using testing::kVectorized;

// Integer floor division and modulo with negative operands (int32 data), and float math.
constexpr const char* kIntegerHelpers = R"(
n = 300
A = placeholder((n,), name="A", dtype="int32")
C = compute((n,), lambda i: (A[i] - i) // 7 + (A[i] - i) % 7, name="C")
s = create_schedule(C)
bx, tx = s[C].split(C.op.axis[0], factor=32)
s[C].bind(bx, thread_axis("blockIdx.x"))
s[C].bind(tx, thread_axis("threadIdx.x"))
args = [A, C]
)";

constexpr const char* kMath = R"(
n = 300
X = placeholder((n,), name="X")
Y = compute((n,), lambda i: exp(X[i]) + sigmoid(X[i]) + floor(X[i]) + sqrt(fabs(X[i])) + tanh(X[i]), name="Y")
s = create_schedule(Y)
bx, tx = s[Y].split(Y.op.axis[0], factor=32)
s[Y].bind(bx, thread_axis("blockIdx.x"))
s[Y].bind(tx, thread_axis("threadIdx.x"))
args = [X, Y]
)";

std::string Source(const char* script, const char* name) {
  absl::StatusOr<ir::PrimFunc> f = LowerScriptForGpu(script, name);
  EXPECT_TRUE(f.ok()) << f.status();
  if (!f.ok()) return "";
  absl::StatusOr<runtime::gpu::GpuModuleImage> image =
      BuildOpenCl(*f, *target::ParseOpenClTarget("opencl"));
  EXPECT_TRUE(image.ok()) << image.status();
  return image.ok() ? image->code : "";
}

void ExpectScriptMatches(const char* script, const char* name,
                         const std::map<std::string, int64_t>& values = {}) {
  absl::StatusOr<ir::PrimFunc> f = LowerScriptForGpu(script, name);
  ASSERT_TRUE(f.ok()) << f.status();
  ExpectOpenClMatchesInterpreter(*f, values);
}

TEST(OpenClCodegenTest, BoundAxesAreGroupAndLocalIds) {
  const std::string code = Source(kSplitBind, "vadd");
  EXPECT_THAT(code, HasSubstr("__kernel"));
  EXPECT_THAT(code, HasSubstr("get_group_id(0)"));
  EXPECT_THAT(code, HasSubstr("get_local_id(0)"));
  EXPECT_THAT(code, HasSubstr("reqd_work_group_size(64, 1, 1)"));
  EXPECT_THAT(code, HasSubstr("__global const float* restrict"));
  EXPECT_THAT(code, Not(HasSubstr("threadIdx")));
  EXPECT_THAT(code, Not(HasSubstr("__global__")));
}

TEST(OpenClCodegenTest, SplitBindWithAGuardedTailMatchesTheInterpreter) {
  TF_SKIP_WITHOUT_OPENCL();
  for (int64_t n : {1, 64, 1000}) ExpectScriptMatches(kSplitBind, "vadd", {{"n", n}});
}

TEST(OpenClCodegenTest, SharedMemoryIsLocalAtTheKernelsTopWithBarriers) {
  const std::string code = Source(kSharedMatmul, "mm");
  EXPECT_THAT(code, HasSubstr("__local float"));
  EXPECT_THAT(code, HasSubstr("barrier(CLK_LOCAL_MEM_FENCE"));
  EXPECT_THAT(code, Not(HasSubstr("__syncthreads")));
  // Declared before any statement of the body (OpenCL C allows __local only at kernel scope).
  EXPECT_LT(code.find("__local float"), code.find("for ("));
}

TEST(OpenClCodegenTest, SharedMemoryMatmulMatchesTheInterpreter) {
  TF_SKIP_WITHOUT_OPENCL();
  ExpectScriptMatches(kSharedMatmul, "mm");
}

TEST(OpenClCodegenTest, VectorsAreVloadAndVstore) {
  const std::string code = Source(kVectorized, "vmuladd");
  EXPECT_THAT(code, HasSubstr("vstore4("));
  EXPECT_THAT(code, HasSubstr("vload4(0, "));
  EXPECT_THAT(code, Not(HasSubstr("make_float4")));
}

TEST(OpenClCodegenTest, VectorizedElementwiseMatchesTheInterpreter) {
  TF_SKIP_WITHOUT_OPENCL();
  ExpectScriptMatches(kVectorized, "vmuladd");
}

TEST(OpenClCodegenTest, TwoStagesAreTwoKernelsRunInOrder) {
  TF_SKIP_WITHOUT_OPENCL();
  absl::StatusOr<ir::PrimFunc> f = LowerScriptForGpu(testing::TwoStages("[A, B, C]"), "two");
  ASSERT_TRUE(f.ok()) << f.status();
  absl::StatusOr<runtime::gpu::GpuModuleImage> image =
      BuildOpenCl(*f, *target::ParseOpenClTarget("opencl"));
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_EQ(image->functions[0].launches.size(), 2u);
  ExpectOpenClMatchesInterpreter(*f, {});
}

TEST(OpenClCodegenTest, IntegerHelpersFollowFloorSemantics) {
  const std::string code = Source(kIntegerHelpers, "ints");
  EXPECT_THAT(code, HasSubstr("tf_floordiv_i32("));
  EXPECT_THAT(code, HasSubstr("inline int tf_floordiv_i32(int a, int b)"));
  TF_SKIP_WITHOUT_OPENCL();
  ExpectScriptMatches(kIntegerHelpers, "ints");
}

TEST(OpenClCodegenTest, MathBuiltinsAreOverloadedNotSuffixed) {
  const std::string code = Source(kMath, "math");
  EXPECT_THAT(code, HasSubstr("exp("));
  EXPECT_THAT(code, Not(HasSubstr("expf(")));
  TF_SKIP_WITHOUT_OPENCL();
  ExpectScriptMatches(kMath, "math");
}

TEST(OpenClCodegenTest, AWorkGroupOverTheProfilesLimitIsRefusedAtBuild) {
  constexpr const char* kWide = R"(
n = 4096
A = placeholder((n,), name="A")
C = compute((n,), lambda i: A[i] + 1.0, name="C")
s = create_schedule(C)
bx, tx = s[C].split(C.op.axis[0], factor=512)
s[C].bind(bx, thread_axis("blockIdx.x"))
s[C].bind(tx, thread_axis("threadIdx.x"))
args = [A, C]
)";
  absl::StatusOr<ir::PrimFunc> f = LowerScriptForGpu(kWide, "wide");
  ASSERT_TRUE(f.ok()) << f.status();
  absl::StatusOr<runtime::gpu::GpuModuleImage> mali =
      BuildOpenCl(*f, *target::ParseOpenClTarget("opencl -device=mali"));
  EXPECT_EQ(mali.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(mali.status().message()), HasSubstr("OpenCL (mali)"));
  EXPECT_THAT(std::string(mali.status().message()), HasSubstr("256"));
  EXPECT_TRUE(BuildOpenCl(*f, *target::ParseOpenClTarget("opencl -device=adreno")).ok());
}

TEST(OpenClCodegenTest, TheGpuExamplesMatchTheInterpreter) {
  TF_SKIP_WITHOUT_OPENCL();
  for (const char* name : {"conv2d_gpu", "split_bind_gpu"}) {
    std::ifstream in(std::string(TUNEFARM_SOURCE_DIR) + "/examples/" + name + ".te");
    std::stringstream text;
    text << in.rdbuf();
    absl::StatusOr<ir::PrimFunc> f = LowerScriptForGpu(text.str(), name);
    ASSERT_TRUE(f.ok()) << name << ": " << f.status();
    // split_bind_gpu binds n on its first line; 1000 leaves a tail.
    ExpectOpenClMatchesInterpreter(*f, {{"n", 1000}});
  }
}

te::Tensor Input(const std::vector<int64_t>& shape, const std::string& name) {
  std::vector<ir::Expr> dims;
  for (int64_t d : shape) dims.push_back(topi::Imm(d));
  return te::placeholder(dims, ir::DataType::Float(32), name);
}

void ExpectTemplateMatches(const absl::StatusOr<topi::ScheduledOp>& op, const std::string& name) {
  ASSERT_TRUE(op.ok()) << op.status();
  absl::StatusOr<ir::PrimFunc> f = LowerForGpu(op->schedule, op->args, name);
  ASSERT_TRUE(f.ok()) << f.status();
  ExpectOpenClMatchesInterpreter(*f, {});
}

TEST(OpenClCodegenTest, GpuMatmulTemplateMatchesAtItsDefaultAndRandomConfigs) {
  TF_SKIP_WITHOUT_OPENCL();
  const topi::GemmTensors t = *topi::MatmulCompute(Input({37, 23}, "A"), Input({23, 29}, "B"));
  ExpectTemplateMatches(topi::ScheduleGpuMatmul(topi::DefaultGpuMatmulConfig(37, 29, 23), t),
                        "gpu_matmul");
  space::ConfigSpace space;
  ASSERT_TRUE(topi::DefineGpuMatmulKnobs(space, t).ok());
  std::mt19937_64 rng(7);
  int tried = 0;
  for (int attempt = 0; attempt < 200 && tried < 4; ++attempt) {
    absl::StatusOr<space::Config> config =
        space.Get(static_cast<int64_t>(rng() % static_cast<uint64_t>(space.size())));
    if (!config.ok() || !space.IsValid(*config)) continue;
    absl::StatusOr<topi::GpuMatmulScheduleConfig> c = topi::GpuMatmulConfigFromKnobs(*config);
    ASSERT_TRUE(c.ok()) << c.status();
    const topi::GemmTensors fresh =
        *topi::MatmulCompute(Input({37, 23}, "A"), Input({23, 29}, "B"));
    SCOPED_TRACE(::testing::Message() << "attempt " << attempt);
    ExpectTemplateMatches(topi::ScheduleGpuMatmul(*c, fresh), "gpu_matmul");
    ++tried;
  }
  EXPECT_EQ(tried, 4);
}

TEST(OpenClCodegenTest, GpuMatmulScheduleOfADenseLayerMatches) {
  TF_SKIP_WITHOUT_OPENCL();
  // W is [N, K]: the shared tiles are fetched from the transposed layout.
  const topi::GemmTensors t = *topi::DenseCompute(Input({19, 33}, "X"), Input({27, 33}, "W"));
  ExpectTemplateMatches(topi::ScheduleGpuMatmul(topi::DefaultGpuMatmulConfig(19, 27, 33), t),
                        "gpu_dense");
}

TEST(OpenClCodegenTest, GpuConv2dTemplateMatches) {
  TF_SKIP_WITHOUT_OPENCL();
  const topi::Window2d window = topi::Window2d::Make(1, 1);
  const topi::Conv2dTensors t =
      *topi::Conv2dCompute(Input({1, 5, 9, 9}, "data"), Input({7, 5, 3, 3}, "kernel"), window);
  ExpectTemplateMatches(topi::ScheduleGpuConv2d(topi::DefaultGpuConv2dConfig(t), t, window),
                        "gpu_conv2d");
}

TEST(OpenClCodegenTest, GpuDepthwiseConv2dTemplateMatches) {
  TF_SKIP_WITHOUT_OPENCL();
  const topi::Window2d window = topi::Window2d::Make(1, 1);
  const topi::DepthwiseConv2dTensors t = *topi::DepthwiseConv2dCompute(
      Input({1, 6, 11, 11}, "data"), Input({6, 1, 3, 3}, "kernel"), window);
  ExpectTemplateMatches(
      topi::ScheduleGpuDepthwiseConv2d(topi::DefaultGpuDepthwiseConv2dConfig(t), t, window),
      "gpu_depthwise_conv2d");
}

}  // namespace
}  // namespace tunefarm::codegen::opencl
