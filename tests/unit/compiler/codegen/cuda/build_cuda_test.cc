// BuildCuda and the CUDA C it compiles: launch sizes as expressions of symbolic shapes, kernel
// parameters and signature, shared memory with barriers, float2 accesses, and the errors
// (computation left on the host, NVRTC rejecting the source, with the line quoted).
#include "compiler/codegen/cuda/build_cuda.h"

#include <functional>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/codegen/cuda/nvrtc_compile.h"
#include "compiler/ir/op.h"
#include "runtime/gpu/gpu_module.h"
#include "tests/unit/compiler/codegen/cuda/cuda_test_util.h"

namespace tunefarm::codegen::cuda {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

int64_t Eval(const std::string& expr, const std::map<std::string, int64_t>& values) {
  absl::StatusOr<int64_t> v = runtime::gpu::EvalLaunchExpr(expr, values);
  EXPECT_TRUE(v.ok()) << expr << ": " << v.status();
  return v.ok() ? *v : -1;
}

TEST(BuildCudaTest, LaunchSizesFollowTheSymbolicShape) {
  absl::StatusOr<ir::PrimFunc> f = LowerScriptForCuda(kSplitBind, "vadd");
  ASSERT_TRUE(f.ok()) << f.status();
  absl::StatusOr<runtime::gpu::GpuModuleImage> image =
      BuildCuda(*f, *target::ParseCudaTarget("cuda"));
  ASSERT_TRUE(image.ok()) << image.status();
  ASSERT_EQ(image->functions.size(), 1u);
  const runtime::gpu::GpuHostFunction& host = image->functions[0];
  ASSERT_EQ(host.launches.size(), 1u);
  const runtime::gpu::GpuLaunch& launch = host.launches[0];
  EXPECT_EQ(launch.kernel, "vadd_kernel0");
  EXPECT_EQ(Eval(launch.grid[0], {{"n", 1000}}), 16);
  EXPECT_EQ(Eval(launch.grid[0], {{"n", 1024}}), 16);
  EXPECT_EQ(Eval(launch.grid[0], {{"n", 1025}}), 17);
  EXPECT_EQ(Eval(launch.block[0], {}), 64);
  EXPECT_EQ(launch.grid[1], "1");
  EXPECT_EQ(launch.block[2], "1");
  // Tensors by argument name, then the symbolic size.
  ASSERT_EQ(launch.params.size(), 4u);
  EXPECT_EQ(launch.params[0].name, "A");
  EXPECT_EQ(launch.params[0].kind, runtime::gpu::KernelParam::Kind::kPointer);
  EXPECT_EQ(launch.params[2].name, "C");
  EXPECT_EQ(launch.params[3].name, "n");
  EXPECT_EQ(launch.params[3].kind, runtime::gpu::KernelParam::Kind::kInt32);
  ASSERT_EQ(host.signature.args.size(), 3u);
  EXPECT_EQ(host.signature.args[0].shape[0].symbol, "n");

  absl::StatusOr<std::string> source = GenerateCudaSource({*f});
  ASSERT_TRUE(source.ok()) << source.status();
  EXPECT_THAT(*source, HasSubstr("extern \"C\" __global__ void __launch_bounds__(64) vadd_kernel0("
                                 "const float* __restrict__ v_A, const float* __restrict__ v_B, "
                                 "float* __restrict__ v_C, int v_n)"));
  EXPECT_THAT(*source, HasSubstr("blockIdx.x"));
  EXPECT_THAT(*source, HasSubstr("threadIdx.x"));
}

TEST(BuildCudaTest, SharedMemoryGetsBarriers) {
  absl::StatusOr<ir::PrimFunc> f = LowerScriptForCuda(kSharedMatmul, "mm_shared");
  ASSERT_TRUE(f.ok()) << f.status();
  absl::StatusOr<std::string> source = GenerateCudaSource({*f});
  ASSERT_TRUE(source.ok()) << source.status();
  EXPECT_THAT(*source, HasSubstr("__shared__ __align__(16) float v_A_shared[64];"));
  EXPECT_THAT(*source, HasSubstr("__syncthreads();"));
  // The fill is fenced on both sides: before it (the previous step's readers) and after it.
  const size_t fill = source->find("v_A_shared[((((int)threadIdx.y) * 8)");
  ASSERT_NE(fill, std::string::npos) << *source;
  EXPECT_NE(source->rfind("__syncthreads();", fill), std::string::npos);
  EXPECT_NE(source->find("__syncthreads();", fill), std::string::npos);

  absl::StatusOr<runtime::gpu::GpuModuleImage> image =
      BuildCuda(*f, *target::ParseCudaTarget("cuda"));
  ASSERT_TRUE(image.ok()) << image.status();
  const runtime::gpu::GpuLaunch& launch = image->functions[0].launches[0];
  EXPECT_EQ(Eval(launch.grid[0], {}), 8);
  EXPECT_EQ(Eval(launch.grid[1], {}), 8);
  EXPECT_EQ(Eval(launch.block[0], {}), 8);
  EXPECT_EQ(Eval(launch.block[1], {}), 8);
  EXPECT_THAT(image->code, HasSubstr("bar.sync"));
  absl::StatusOr<std::vector<KernelResources>> report = PtxasReport(image->code, "sm_90");
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->size(), 1u);
  EXPECT_EQ((*report)[0].kernel, "mm_shared_kernel0");
  EXPECT_EQ((*report)[0].shared_bytes, 64 * 4);
}

TEST(BuildCudaTest, AlignedContiguousRampsBecomeFloat2) {
  const std::string source = ReadFile(std::string(TUNEFARM_SOURCE_DIR) + "/examples/conv2d_gpu.te");
  absl::StatusOr<ir::PrimFunc> f = LowerScriptForCuda(source, "conv2d_gpu");
  ASSERT_TRUE(f.ok()) << f.status();
  absl::StatusOr<std::string> cuda = GenerateCudaSource({*f});
  ASSERT_TRUE(cuda.ok()) << cuda.status();
  EXPECT_THAT(*cuda, HasSubstr("*(float2*)(v_W_shared + "));
  EXPECT_THAT(*cuda, HasSubstr("(*(const float2*)(v_W + "));
  // The padded load stays lazy: the vector load is only made where the condition holds.
  EXPECT_THAT(*cuda, HasSubstr(" ? (*(const float2*)(v_A + "));
  EXPECT_THAT(*cuda, HasSubstr("make_float2(0.0f, 0.0f)"));
  EXPECT_THAT(*cuda, HasSubstr("__launch_bounds__(16)"));
}

TEST(BuildCudaTest, ComputationOutsideThreadBindingsIsRefused) {
  constexpr const char* kCpuOnly = R"(
n = var("n")
A = placeholder((n,), name="A")
C = compute((n,), lambda i: A[i] * 2.0, name="C")
s = create_schedule(C)
args = [A, C]
)";
  absl::StatusOr<ir::PrimFunc> f = LowerScriptForCuda(kCpuOnly, "cpu_only");
  ASSERT_TRUE(f.ok()) << f.status();
  absl::StatusOr<runtime::gpu::GpuModuleImage> image =
      BuildCuda(*f, *target::ParseCudaTarget("cuda"));
  ASSERT_FALSE(image.ok());
  EXPECT_THAT(image.status().message(), HasSubstr("outside every thread-bound region"));
  EXPECT_THAT(image.status().message(), HasSubstr("blockIdx/threadIdx"));
}

// The module format has no host-side allocations, so an intermediate between kernels must be an
// argument for now.
TEST(BuildCudaTest, IntermediateGlobalBufferIsRefused) {
  absl::StatusOr<ir::PrimFunc> f = LowerScriptForCuda(TwoStages("[A, C]"), "two");
  ASSERT_TRUE(f.ok()) << f.status();
  absl::StatusOr<runtime::gpu::GpuModuleImage> image =
      BuildCuda(*f, *target::ParseCudaTarget("cuda"));
  ASSERT_FALSE(image.ok());
  EXPECT_EQ(image.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(image.status().message(), HasSubstr("buffer B (scope global) is allocated outside"));
}

// A hand-built kernel that converts a pointer to float: the emitter writes it faithfully and
// NVRTC refuses it; the error quotes NVRTC and the generated line.
TEST(BuildCudaTest, NvrtcErrorQuotesTheSourceLine) {
  ir::Buffer a("A", ir::DataType::Float(32), {ir::Expr(4)});
  ir::Var tx("tx");
  ir::IterVar iv(ir::Range::FromMinExtent(0, 4), tx, ir::IterVarType::kThreadIndex, "threadIdx.x");
  ir::Stmt store = ir::StoreNode::Make(a->data, ir::Cast(ir::DataType::Float(32), a->data), tx);
  ir::PrimFunc f{"bad", {a}, ir::AttrStmtNode::Make(iv, ir::attr::kThreadExtent, 4, store)};
  absl::StatusOr<runtime::gpu::GpuModuleImage> image =
      BuildCuda(f, *target::ParseCudaTarget("cuda"));
  ASSERT_FALSE(image.ok());
  EXPECT_EQ(image.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string message(image.status().message());
  EXPECT_THAT(message, HasSubstr("NVRTC rejected the generated CUDA for compute_90"));
  EXPECT_THAT(message, HasSubstr("bad.cu("));
  EXPECT_THAT(message, HasSubstr("error"));
  EXPECT_THAT(message,
              ::testing::ContainsRegex("line [0-9]+: +v_A\\[\\(\\(int\\)threadIdx.x\\)\\] = "
                                       "\\(\\(float\\)v_A\\);"));
}

ir::Stmt ThreadRegion(const char* tag, int extent, const std::function<ir::Stmt(ir::Var)>& body) {
  ir::Var v(tag);
  ir::IterVar iv(ir::Range::FromMinExtent(0, extent), v, ir::IterVarType::kThreadIndex, tag);
  return ir::AttrStmtNode::Make(iv, ir::attr::kThreadExtent, extent, body(v));
}

// Two sibling threadIdx.x regions of 8 and 4 threads in one block: the block has 8 threads and the
// second region is guarded.
TEST(BuildCudaTest, SiblingThreadRegionsShareTheLargestBlock) {
  ir::Buffer a("A", ir::DataType::Float(32), {ir::Expr(16)});
  ir::Buffer b("B", ir::DataType::Float(32), {ir::Expr(8)});
  ir::Stmt body = ThreadRegion("blockIdx.x", 2, [&](ir::Var bx) {
    ir::Stmt first = ThreadRegion("threadIdx.x", 8, [&](ir::Var tx) {
      return ir::StoreNode::Make(a->data, ir::Expr(1.0f), bx * 8 + tx);
    });
    ir::Stmt second = ThreadRegion("threadIdx.x", 4, [&](ir::Var tx) {
      return ir::StoreNode::Make(b->data, ir::Expr(2.0f), bx * 4 + tx);
    });
    return ir::SeqStmtNode::Make({first, second});
  });
  ir::PrimFunc f{"siblings", {a, b}, body};
  absl::StatusOr<runtime::gpu::GpuModuleImage> image =
      BuildCuda(f, *target::ParseCudaTarget("cuda"));
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_EQ(image->functions[0].launches[0].block[0], "8");
  EXPECT_EQ(image->functions[0].launches[0].grid[0], "2");
  absl::StatusOr<std::string> source = GenerateCudaSource({f});
  ASSERT_TRUE(source.ok()) << source.status();
  EXPECT_THAT(*source, HasSubstr("if (((int)threadIdx.x) < 4) {"));
}

// B[ramp] = A[ramp] + 1 for 4 lanes at `offset` + 4*tx: float4 when the ramp starts at a multiple
// of 4, lane by lane otherwise.
std::string VectorAddSource(int offset) {
  ir::Buffer a("A", ir::DataType::Float(32), {ir::Expr(64)});
  ir::Buffer b("B", ir::DataType::Float(32), {ir::Expr(64)});
  ir::Stmt body = ThreadRegion("threadIdx.x", 8, [&](ir::Var tx) {
    ir::Expr index = ir::RampNode::Make(offset == 0 ? tx * 4 : tx * 4 + offset, 1, 4);
    ir::Expr load = ir::LoadNode::Make(ir::DataType::Float(32, 4), a->data, index);
    return ir::StoreNode::Make(b->data, load + ir::Expr(1.0f), index);
  });
  ir::PrimFunc f{"vec", {a, b}, body};
  absl::StatusOr<runtime::gpu::GpuModuleImage> image =
      BuildCuda(f, *target::ParseCudaTarget("cuda"));
  EXPECT_TRUE(image.ok()) << image.status();
  absl::StatusOr<std::string> source = GenerateCudaSource({f});
  EXPECT_TRUE(source.ok()) << source.status();
  return source.ok() ? *source : "";
}

TEST(BuildCudaTest, AlignedRampOfFourLanesIsOneFloat4Store) {
  const std::string source = VectorAddSource(0);
  EXPECT_THAT(source, HasSubstr("*(float4*)(v_B + (((int)threadIdx.x) * 4)) = make_float4("));
}

TEST(BuildCudaTest, AlignedVectorLoadsAreHoistedIntoFloat4) {
  const std::string source = VectorAddSource(0);
  EXPECT_THAT(source,
              HasSubstr("const float4 v_vec = *(const float4*)(v_A + (((int)threadIdx.x) * 4));"));
  EXPECT_THAT(source, HasSubstr("make_float4((v_vec.x + 1.0f), (v_vec.y + 1.0f)"));
}

TEST(BuildCudaTest, BlocksOverCudaLimitsAreRefused) {
  ir::Buffer a("A", ir::DataType::Float(32), {ir::Expr(4096)});
  ir::Stmt body = ThreadRegion("threadIdx.x", 2048, [&](ir::Var tx) {
    return ir::StoreNode::Make(a->data, ir::Expr(1.0f), tx);
  });
  absl::StatusOr<runtime::gpu::GpuModuleImage> image =
      BuildCuda(ir::PrimFunc{"big", {a}, body}, *target::ParseCudaTarget("cuda"));
  ASSERT_FALSE(image.ok());
  EXPECT_THAT(image.status().message(), HasSubstr("block dimension x of 2048"));
}

TEST(BuildCudaTest, TooMuchSharedMemoryIsRefused) {
  ir::Buffer a("A", ir::DataType::Float(32), {ir::Expr(64)});
  ir::Var big("big", ir::DataType::Handle());
  ir::Stmt body = ThreadRegion("threadIdx.x", 64, [&](ir::Var tx) {
    ir::Stmt fill = ir::StoreNode::Make(big, ir::Expr(1.0f), tx);
    return ir::AllocateNode::Make(
        big, ir::DataType::Float(32), {ir::Expr(16384)}, "shared",
        ir::SeqStmtNode::Make(
            {fill, ir::StoreNode::Make(a->data,
                                       ir::LoadNode::Make(ir::DataType::Float(32), big, tx), tx)}));
  });
  absl::StatusOr<std::string> source = GenerateCudaSource({ir::PrimFunc{"smem", {a}, body}});
  ASSERT_FALSE(source.ok());
  EXPECT_THAT(source.status().message(), HasSubstr("65536 bytes of shared memory"));
}

TEST(BuildCudaTest, MisalignedRampIsScalarized) {
  const std::string source = VectorAddSource(1);
  EXPECT_THAT(source, Not(HasSubstr("float4")));
  EXPECT_THAT(source, HasSubstr("v_B[(((((int)threadIdx.x) * 4) + 1) + 3)] = "
                                "(v_A[(((((int)threadIdx.x) * 4) + 1) + 3)] + 1.0f);"));
}

TEST(BuildCudaTest, RebindingAThreadWithAnotherExtentIsRefused) {
  ir::Buffer a("A", ir::DataType::Float(32), {ir::Expr(8)});
  ir::Stmt body = ThreadRegion("threadIdx.x", 8, [&](ir::Var) {
    return ThreadRegion("threadIdx.x", 4, [&](ir::Var tx) {
      return ir::StoreNode::Make(a->data, ir::Expr(1.0f), tx);
    });
  });
  absl::StatusOr<std::string> source = GenerateCudaSource({ir::PrimFunc{"rebind", {a}, body}});
  ASSERT_FALSE(source.ok());
  EXPECT_THAT(source.status().message(), HasSubstr("bound again with extent 4"));
}

TEST(BuildCudaTest, OtherArchitecturesCompile) {
  absl::StatusOr<ir::PrimFunc> f = LowerScriptForCuda(kSplitBind, "vadd");
  ASSERT_TRUE(f.ok()) << f.status();
  absl::StatusOr<runtime::gpu::GpuModuleImage> image =
      BuildCuda(*f, *target::ParseCudaTarget("cuda -arch=sm_80"));
  ASSERT_TRUE(image.ok()) << image.status();
  EXPECT_EQ(image->arch, "sm_80");
  EXPECT_THAT(image->code, HasSubstr(".target sm_80"));
  EXPECT_THAT(image->code, Not(HasSubstr(".target sm_90")));
}

}  // namespace
}  // namespace tunefarm::codegen::cuda
