// A whole graph built into a module (one kernel per fused group, the graph and weights beside
// them), written as a shared library and run by runtime/graph's executor, against the same graph
// evaluated node by node with EvaluateOp (topi's default schedule, no fusion): conv with bias,
// batch norm and a residual add in the epilogue, depthwise conv with clip, pools, gemm with a
// pre-packed weight, softmax, and the shape ops between them. Each graph is also built for CUDA
// and its kernels run on the host emulation of the generated CUDA C.
#include "compiler/graph/model_build.h"

#include <cstring>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>
#include <unistd.h>

#include "compiler/codegen/llvm/llvm_target.h"
#include "compiler/graph/graph_pipeline.h"
#include "compiler/graph/graph_rebuilder.h"
#include "compiler/topi/cpu_info.h"
#include "runtime/graph/graph_executor.h"
#include "tests/testing/dl_types.h"
#include "tests/unit/compiler/graph/compute/compute_test_util.h"
#include "tests/unit/compiler/graph/compute/cuda_model_emulation.h"
#include "tests/unit/compiler/graph/test_op.h"

namespace tunefarm::graph {
namespace {

using testing::Op;

using ::testing::HasSubstr;
using ::testing::Not;
using testing::Random;
using testing::Shape;

using fixtures::kF32;

ValueId Weight(Graph& g, const Shape& shape, uint64_t seed, float lo = -0.5f, float hi = 0.5f) {
  return g.AddConstant("w" + std::to_string(seed), Random(shape, seed, lo, hi));
}

// The graph's outputs computed node by node by EvaluateOp: the oracle.
std::vector<runtime::NDArray> Reference(const Graph& g,
                                        const std::map<ValueId, runtime::NDArray>& in) {
  std::map<ValueId, runtime::NDArray> values;
  auto value = [&](ValueId id) -> const runtime::NDArray* {
    if (const runtime::NDArray* c = g.ConstantData(id)) return c;
    if (auto it = in.find(id); it != in.end()) return &it->second;
    return &values.at(id);
  };
  for (const Node& node : g.nodes()) {
    std::vector<const runtime::NDArray*> inputs;
    for (ValueId id : node.inputs) inputs.push_back(value(id));
    absl::StatusOr<std::vector<runtime::NDArray>> out = EvaluateOp(node, inputs);
    EXPECT_TRUE(out.ok()) << out.status();
    if (!out.ok()) return {};
    for (size_t i = 0; i < out->size(); ++i) values.emplace(node.outputs[i], std::move((*out)[i]));
  }
  std::vector<runtime::NDArray> outputs;
  for (const GraphOutput& o : g.outputs()) {
    const runtime::NDArray* v = value(o.value);
    outputs.push_back(*v->View(v->shape()));
  }
  return outputs;
}

struct Built {
  BuiltModel model;
  std::unique_ptr<runtime::GraphExecutor> executor;
};

// The default graph passes over a copy of `source` (the passes consume their graph; the test
// keeps `source` for the reference), built for `target`.
absl::StatusOr<BuiltModel> Optimize(const Graph& source, const KernelTarget& target,
                                    const std::vector<std::string>& disabled_passes = {}) {
  GraphRebuilder rebuilt(source);
  for (const Node& n : source.nodes()) rebuilt.Copy(n);
  passes::PassOptions options;
  options.disabled_passes = disabled_passes;
  absl::StatusOr<Graph> optimized =
      RunGraphPasses(rebuilt.Finish(), DefaultGraphPasses(target), options);
  if (!optimized.ok()) return optimized.status();
  return BuildModel(*optimized, target);
}

// Runs the default graph passes, builds for the host, exports to a temporary library and loads it.
Built BuildAndLoad(const Graph& source, const std::string& name,
                   const std::vector<std::string>& disabled_passes = {}) {
  Built b;
  absl::StatusOr<BuiltModel> model = Optimize(source, KernelTarget::Host(), disabled_passes);
  EXPECT_TRUE(model.ok()) << model.status();
  if (!model.ok()) return b;
  b.model = *std::move(model);
  const std::string path =
      ::testing::TempDir() + "/" + name + "_" + std::to_string(getpid()) + ".so";
  absl::Status exported = ExportModel(b.model, *codegen::ParseLlvmTarget("llvm"), path);
  EXPECT_TRUE(exported.ok()) << exported;
  std::string error;
  b.executor = runtime::GraphExecutor::Load(path, &error);
  EXPECT_NE(b.executor, nullptr) << error;
  unlink(path.c_str());
  return b;
}

// Every element of `got` within rtol of `want`'s largest magnitude.
void ExpectClose(const float* got, const runtime::NDArray& want, double rtol,
                 const std::string& what) {
  ASSERT_NE(got, nullptr) << what;
  double scale = 0;
  for (int64_t i = 0; i < want.NumElements(); ++i) {
    scale = std::max(scale, std::fabs(static_cast<double>(testing::F(want)[i])));
  }
  for (int64_t i = 0; i < want.NumElements(); ++i) {
    const double w = testing::F(want)[i];
    ASSERT_LE(std::fabs(got[i] - w), rtol * scale + 1e-6)
        << what << " element " << i << ": got " << got[i] << ", want " << w;
  }
}

// Builds `g`, runs it on random inputs and compares every output with the reference: the host
// build through the graph executor, and (with the CUDA toolkit) the CUDA build on the host
// emulation of its kernels.
void ExpectMatchesReference(const Graph& g, const std::string& name, double rtol = 1e-4) {
  std::map<ValueId, runtime::NDArray> inputs;
  for (ValueId id : g.inputs()) inputs.emplace(id, Random(g.value(id).type.shape, 100 + id));
  std::vector<runtime::NDArray> want = Reference(g, inputs);
  ASSERT_EQ(want.size(), g.outputs().size());
  Built b = BuildAndLoad(g, name);
  ASSERT_NE(b.executor, nullptr);
  for (const auto& [id, array] : inputs) {
    std::string error;
    ASSERT_TRUE(b.executor->SetInput(g.value(id).name, array.data(), array.NumBytes(), &error))
        << error;
  }
  std::string error;
  ASSERT_TRUE(b.executor->Run(&error)) << error;
  for (size_t o = 0; o < want.size(); ++o) {
    const DLTensor* got = b.executor->GetOutput(g.outputs()[o].name);
    ASSERT_NE(got, nullptr);
    ExpectClose(static_cast<const float*>(got->data), want[o], rtol, g.outputs()[o].name);
  }
#ifdef TUNEFARM_HAVE_CUDA
  absl::StatusOr<BuiltModel> cuda = Optimize(g, KernelTarget::For(*target::ParseTarget("cuda")));
  ASSERT_TRUE(cuda.ok()) << cuda.status();
  std::map<std::string, const runtime::NDArray*> by_name;
  for (const auto& [id, array] : inputs) by_name[g.value(id).name] = &array;
  std::map<std::string, runtime::NDArray> emulated = testing::EmulateCudaModel(*cuda, by_name);
  for (size_t o = 0; o < want.size(); ++o) {
    auto it = emulated.find(g.outputs()[o].name);
    ASSERT_NE(it, emulated.end()) << "cuda: no output " << g.outputs()[o].name;
    ExpectClose(testing::F(it->second), want[o], rtol, "cuda: " + g.outputs()[o].name);
  }
#endif
}

std::vector<int64_t> Pads(int p) { return {p, p, p, p}; }

TEST(ModelBuildTest, ResidualBlockWithBatchNormMatchesTheReference) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 8, 14, 14}});
  ValueId c1 = Op(g, OpKind::kConv2d, {x, Weight(g, {16, 8, 3, 3}, 1), Weight(g, {16}, 2)},
                  {{"pads", Pads(1)}});
  ValueId bn = Op(g, OpKind::kBatchNorm,
                  {c1, Weight(g, {16}, 3, 0.5f, 1.5f), Weight(g, {16}, 4), Weight(g, {16}, 5),
                   Weight(g, {16}, 6, 0.5f, 2.0f)});
  ValueId r1 = Op(g, OpKind::kRelu, {bn});
  ValueId c2 = Op(g, OpKind::kConv2d, {r1, Weight(g, {16, 16, 3, 3}, 7)},
                  {{"pads", Pads(1)}, {"strides", std::vector<int64_t>{1, 1}}});
  ValueId skip = Op(g, OpKind::kConv2d, {x, Weight(g, {16, 8, 1, 1}, 8)});
  ValueId sum = Op(g, OpKind::kAdd, {c2, skip});
  g.AddOutput("y", Op(g, OpKind::kRelu, {sum}));
  ExpectMatchesReference(g, "residual");
}

TEST(ModelBuildTest, EveryConvGroupIsScheduledByItsTemplateWithTheEpilogueFused) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 8, 14, 14}});
  ValueId c = Op(g, OpKind::kConv2d, {x, Weight(g, {16, 8, 3, 3}, 1), Weight(g, {16}, 2)},
                 {{"pads", Pads(1)}});
  ValueId dw = Op(g, OpKind::kConv2d, {Op(g, OpKind::kRelu, {c}), Weight(g, {16, 1, 3, 3}, 3)},
                  {{"pads", Pads(1)}, {"groups", int64_t{16}}});
  ValueId clip = Op(g, OpKind::kClip, {dw}, {{"min", 0.0}, {"max", 6.0}});
  g.AddOutput(
      "y", Op(g, OpKind::kMaxPool2d, {clip},
              {{"kernel", std::vector<int64_t>{2, 2}}, {"strides", std::vector<int64_t>{2, 2}}}));
  // In NCHW (the layout GPU builds keep): three kernels.
  Built b = BuildAndLoad(g, "templates", {"layout_rewrite"});
  ASSERT_EQ(b.model.kernels.size(), 3u);
  EXPECT_THAT(b.model.kernels[0].schedule, HasSubstr("conv2d template"));
  EXPECT_EQ(b.model.kernels[0].func.name, "fused_0_conv2d_relu");
  EXPECT_THAT(b.model.kernels[1].schedule, HasSubstr("depthwise_conv2d template"));
  EXPECT_THAT(b.model.kernels[2].schedule, HasSubstr("pool2d template"));
  // Blocked (the CPU default): the input enters NCHW[c]c once, both convolutions and the pool
  // stay blocked with their epilogues, and one transform back makes the output.
  Built blocked = BuildAndLoad(g, "templates_nchwc");
  std::vector<std::string> schedules;
  for (const GroupKernel& k : blocked.model.kernels) {
    schedules.push_back(k.func.name + ": " + k.schedule);
  }
  ASSERT_EQ(blocked.model.kernels.size(), 5u) << ::testing::PrintToString(schedules);
  EXPECT_THAT(schedules[0], HasSubstr("to_nchwc"));
  EXPECT_THAT(schedules[1], HasSubstr("conv2d_nchwc_relu: conv2d_nchwc template"));
  EXPECT_THAT(schedules[2],
              HasSubstr("depthwise_conv2d_nchwc_clip: depthwise_conv2d_nchwc template"));
  EXPECT_THAT(schedules[3], HasSubstr("max_pool2d: pool2d_nchwc template"));
  EXPECT_THAT(schedules[4], HasSubstr("from_nchwc"));
  ExpectMatchesReference(g, "templates_numerics");
}

TEST(ModelBuildTest, GroupedConvsGoBlockedWhereTheirGroupsFitABlockAndMatchTheReference) {
  // Groups of 8 (RegNet's): several to a 16-lane block, or one block each with 8 lanes. Groups
  // of 32, strided and dilated: several blocks each. Groups of 8 in and 6 out fit no block and
  // stay NCHW, between blocked neighbours. Groups of 24 in and 8 out: two to a 16-lane output
  // block, reading three input blocks.
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {2, 24, 9, 9}});
  ValueId g1 = Op(g, OpKind::kRelu,
                  {Op(g, OpKind::kConv2d, {x, Weight(g, {24, 8, 3, 3}, 1), Weight(g, {24}, 2)},
                      {{"pads", Pads(1)}, {"groups", int64_t{3}}})});
  ValueId dense = Op(g, OpKind::kConv2d, {g1, Weight(g, {64, 24, 1, 1}, 3)});
  ValueId g3 = Op(g, OpKind::kRelu,
                  {Op(g, OpKind::kConv2d, {dense, Weight(g, {64, 32, 3, 3}, 4)},
                      {{"pads", Pads(2)},
                       {"strides", std::vector<int64_t>{2, 2}},
                       {"dilations", std::vector<int64_t>{2, 2}},
                       {"groups", int64_t{2}}})});
  ValueId g4 = Op(g, OpKind::kConv2d, {g3, Weight(g, {48, 8, 3, 3}, 5), Weight(g, {48}, 6)},
                  {{"pads", Pads(1)}, {"groups", int64_t{8}}});
  g.AddOutput("y", Op(g, OpKind::kConv2d, {g4, Weight(g, {16, 24, 3, 3}, 7)},
                      {{"pads", Pads(1)}, {"groups", int64_t{2}}}));
  Built b = BuildAndLoad(g, "grouped_kernels");
  std::vector<std::string> schedules;
  for (const GroupKernel& k : b.model.kernels) schedules.push_back(k.func.name + ": " + k.schedule);
  int blocked = 0, nchw = 0;
  for (const std::string& s : schedules) {
    if (s.find("group_conv2d_nchwc") != std::string::npos) {
      ++blocked;
      EXPECT_THAT(s, HasSubstr("conv2d_nchwc template")) << s;
    } else if (s.find("_conv2d: ") != std::string::npos) {
      ++nchw;
    }
  }
  EXPECT_EQ(blocked, 3) << ::testing::PrintToString(schedules);
  EXPECT_EQ(nchw, 1) << ::testing::PrintToString(schedules);
  ExpectMatchesReference(g, "grouped_numerics");
}

// A constant of `channels` ones as [C,1,1] (a per-channel scale or shift).
ValueId PerChannelOnes(Graph& g, int64_t channels) {
  runtime::NDArray ones = *runtime::NDArray::Empty({channels, 1, 1}, kF32);
  for (int64_t i = 0; i < channels; ++i) static_cast<float*>(ones.data())[i] = 1.0f;
  return g.AddConstant("ones", std::move(ones));
}

TEST(ModelBuildTest, SqueezeAndExcitationStaysBlockedAndPaddedChannelsNeverTurnNan) {
  // 20 channels, so blocks are padded. The squeeze (a global pool), its two 1x1 convs and the
  // scale of the feature map stay blocked. A per-channel constant is added in blocks (zero past
  // the channels), so the padding lanes of that sum are 0 and a division by it would make
  // 0 / 0 = NaN there, which the next conv's zero weights would spread: the division must stay
  // NCHW.
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 8, 7, 7}});
  ValueId f = Op(g, OpKind::kRelu,
                 {Op(g, OpKind::kConv2d, {x, Weight(g, {20, 8, 3, 3}, 1)}, {{"pads", Pads(1)}})});
  ValueId squeezed = Op(g, OpKind::kGlobalAvgPool2d, {f});
  ValueId s1 =
      Op(g, OpKind::kRelu, {Op(g, OpKind::kConv2d, {squeezed, Weight(g, {4, 20, 1, 1}, 2)})});
  ValueId s2 = Op(g, OpKind::kSigmoid, {Op(g, OpKind::kConv2d, {s1, Weight(g, {20, 4, 1, 1}, 3)})});
  ValueId excited = Op(g, OpKind::kMul, {f, s2});
  ValueId shifted = Op(g, OpKind::kAdd, {excited, PerChannelOnes(g, 20)});
  ValueId ratio = Op(g, OpKind::kDiv, {f, shifted});
  g.AddOutput("y",
              Op(g, OpKind::kConv2d, {ratio, Weight(g, {8, 20, 3, 3}, 4)}, {{"pads", Pads(1)}}));
  ExpectMatchesReference(g, "squeeze_excitation");
  Built b = BuildAndLoad(g, "squeeze_excitation_kernels");
  std::vector<std::string> schedules;
  for (const GroupKernel& k : b.model.kernels) schedules.push_back(k.func.name);
  int pools = 0;
  for (const std::string& name : schedules) {
    if (name.find("global_avg_pool2d") != std::string::npos) ++pools;
    // Only the division leaves the blocks and comes back.
    EXPECT_EQ(name.find("from_nchwc_mul"), std::string::npos) << name;
  }
  EXPECT_EQ(pools, 1) << ::testing::PrintToString(schedules);
}

TEST(ModelBuildTest, AttentionsProductsAndSoftmaxRunTheirTemplatesAndMatchTheReference) {
  // Three heads of 37 tokens (ragged against every register tile): scores = q k^T, their
  // softmax over the last axis, times v; then a product whose 64 columns are whole tiles.
  Graph g;
  ValueId q = g.AddInput("q", {kF32, {3, 37, 24}});
  ValueId kt = g.AddInput("kt", {kF32, {3, 24, 37}});
  ValueId v = g.AddInput("v", {kF32, {3, 37, 16}});
  ValueId w = g.AddInput("w", {kF32, {3, 16, 64}});
  ValueId scores = Op(g, OpKind::kMatMul, {q, kt});
  ValueId attention = Op(g, OpKind::kSoftmax, {scores}, {{"axis", int64_t{-1}}});
  ValueId heads = Op(g, OpKind::kMatMul, {attention, v});
  g.AddOutput("y", Op(g, OpKind::kMatMul, {heads, w}));
  ExpectMatchesReference(g, "attention");
  Built b = BuildAndLoad(g, "attention_kernels");
  std::vector<std::string> schedules;
  for (const GroupKernel& k : b.model.kernels) schedules.push_back(k.func.name + ": " + k.schedule);
  ASSERT_EQ(schedules.size(), 4u) << ::testing::PrintToString(schedules);
  EXPECT_THAT(schedules[0], HasSubstr("matmul: gemm template"));
  EXPECT_THAT(schedules[0], HasSubstr("packed"));  // 37 columns: packed in blocks of 32
  EXPECT_THAT(schedules[1], HasSubstr("softmax: softmax template"));
  EXPECT_THAT(schedules[2], HasSubstr("matmul: gemm template"));
  EXPECT_THAT(schedules[3], HasSubstr("matmul: gemm template"));
  EXPECT_THAT(schedules[3], Not(HasSubstr("packed")));  // 64 columns: read as they are
}

TEST(ModelBuildTest, PoolsOfBlockedValuesPoolTheBlocksAndMatchTheReference) {
  // A ResNet stem's max pool (3x3, stride 2, pad 1) and an average pool whose border windows
  // count only their taps inside the input, in ceil mode (a last, partial window), each after a
  // blocked conv: they pool the channel blocks in place.
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 8, 15, 15}});
  ValueId c1 = Op(g, OpKind::kRelu,
                  {Op(g, OpKind::kConv2d, {x, Weight(g, {16, 8, 3, 3}, 1)}, {{"pads", Pads(1)}})});
  ValueId max = Op(g, OpKind::kMaxPool2d, {c1},
                   {{"kernel", std::vector<int64_t>{3, 3}},
                    {"strides", std::vector<int64_t>{2, 2}},
                    {"pads", Pads(1)}});
  ValueId c2 = Op(g, OpKind::kConv2d, {max, Weight(g, {24, 16, 3, 3}, 2)}, {{"pads", Pads(1)}});
  g.AddOutput("y", Op(g, OpKind::kAvgPool2d, {c2},
                      {{"kernel", std::vector<int64_t>{3, 3}},
                       {"strides", std::vector<int64_t>{2, 2}},
                       {"pads", Pads(1)},
                       {"ceil_mode", int64_t{1}},
                       {"count_include_pad", int64_t{0}}}));
  ExpectMatchesReference(g, "blocked_pools");
  Built b = BuildAndLoad(g, "blocked_pools_kernels");
  int blocked_pools = 0;
  for (const GroupKernel& k : b.model.kernels) {
    if (k.schedule.find("pool2d_nchwc template") != std::string::npos) ++blocked_pools;
  }
  EXPECT_EQ(blocked_pools, 2);
}

TEST(ModelBuildTest, ClassifierHeadWithPrepackedGemmWeightMatchesTheReference) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {2, 32, 7, 9}});
  ValueId pooled = Op(g, OpKind::kGlobalAvgPool2d, {x});
  ValueId flat = Op(g, OpKind::kFlatten, {pooled});
  ValueId fc = Op(g, OpKind::kGemm, {flat, Weight(g, {10, 32}, 1), Weight(g, {10}, 2)},
                  {{"trans_b", int64_t{1}}});
  g.AddOutput("logits", fc);
  g.AddOutput("probs", Op(g, OpKind::kSoftmax, {fc}, {{"axis", int64_t{1}}}));
  ExpectMatchesReference(g, "head");
}

TEST(ModelBuildTest, GemmsWithColumnPackedWeightsMatchTheReference) {
  // 64 columns: whole blocks of any CPU's vector, so both weights are packed as [N/lanes][K][lanes]
  // (one read transposed, one not), the second gemm with a bias and a relu after it; batch 1
  // (a vector times the weight, as a classifier at batch 1) and batch 3.
  for (int64_t batch : {1, 3}) {
    Graph g;
    ValueId x = g.AddInput("x", {kF32, {batch, 40}});
    ValueId fc1 = Op(g, OpKind::kGemm, {x, Weight(g, {64, 40}, 1)}, {{"trans_b", int64_t{1}}});
    ValueId fc2 = Op(g, OpKind::kGemm, {fc1, Weight(g, {64, 64}, 2), Weight(g, {64}, 3)});
    g.AddOutput("y", Op(g, OpKind::kRelu, {fc2}));
    ExpectMatchesReference(g, "packed_gemm");
    absl::StatusOr<BuiltModel> built = Optimize(g, KernelTarget::Host());
    ASSERT_TRUE(built.ok()) << built.status();
    const int lanes = topi::DetectHostCpu().Lanes(4);
    int packed = 0;
    for (const runtime::GraphTensor& t : built->graph.tensors) {
      if (t.kind == runtime::GraphTensorKind::kParam && t.shape.size() == 3 &&
          t.shape[2] == lanes) {
        ++packed;
      }
    }
    EXPECT_EQ(packed, 2) << "both weights folded into their packed layout";
  }
}

TEST(ModelBuildTest, ShapeOpsAndAveragePoolingMatchTheReference) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {1, 6, 10, 10}});
  ValueId a = Op(g, OpKind::kAvgPool2d, {x},
                 {{"kernel", std::vector<int64_t>{3, 3}},
                  {"pads", Pads(1)},
                  {"strides", std::vector<int64_t>{2, 2}}});
  ValueId t = Op(g, OpKind::kTranspose, {a}, {{"perm", std::vector<int64_t>{0, 2, 3, 1}}});
  ValueId r = Op(g, OpKind::kReshape, {t}, {{"shape", std::vector<int64_t>{1, 25, 6}}});
  ValueId s = Op(g, OpKind::kSigmoid, {r});
  g.AddOutput("y", Op(g, OpKind::kConcat, {s, r}, {{"axis", int64_t{2}}}));
  ExpectMatchesReference(g, "shapes");
}

TEST(ModelBuildTest, TheArenaReusesBuffersAndTheWeightsAreAligned) {
  Graph g;
  ValueId v = g.AddInput("x", {kF32, {1, 16, 16, 16}});
  for (int i = 0; i < 6; ++i) {
    v = Op(g, OpKind::kRelu,
           {Op(g, OpKind::kConv2d, {v, Weight(g, {16, 16, 3, 3}, i)}, {{"pads", Pads(1)}})});
  }
  g.AddOutput("y", v);
  // In NCHW, so that every intermediate is one 16 KiB conv output.
  Built b = BuildAndLoad(g, "chain", {"layout_rewrite"});
  ASSERT_NE(b.executor, nullptr);
  EXPECT_EQ(b.model.kernels.size(), 6u);
  EXPECT_EQ(b.model.graph.params_bytes, 6u * 16 * 16 * 9 * 4);
  for (const runtime::GraphTensor& t : b.model.graph.tensors) {
    EXPECT_EQ(t.param_offset % runtime::kParamAlignment, 0u);
  }
  // The input, the output and five 16 KiB intermediates between them: the intermediates take
  // turns in two buffers; the input and output are never shared.
  const runtime::MemoryPlanStats& stats = b.executor->memory_stats();
  EXPECT_EQ(stats.unplanned_bytes, 7u * 16384);
  EXPECT_EQ(stats.arena_bytes, 4u * 16384);
  EXPECT_TRUE(b.executor->params_in_place());
}

TEST(ModelBuildTest, OutputsThatNoKernelWritesAreCopies) {
  // An input named as an output (ONNX's Identity and inference-mode Dropout import as nothing),
  // a weight, and one value under two names.
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {2, 3}});
  ValueId w = Weight(g, {2, 3}, 1);
  ValueId r = Op(g, OpKind::kRelu, {x});
  g.AddOutput("same_as_x", x);
  g.AddOutput("weight", w);
  g.AddOutput("relu", r);
  g.AddOutput("relu_again", r);
  ExpectMatchesReference(g, "copies");
  Built b = BuildAndLoad(g, "copies_kernels");
  ASSERT_NE(b.executor, nullptr);
  EXPECT_EQ(b.executor->outputs().size(), 4u);
  int copies = 0;
  for (const GroupKernel& k : b.model.kernels) copies += k.schedule == "copy";
  EXPECT_EQ(copies, 1);  // one kernel per tensor type, called three times
  EXPECT_EQ(b.model.graph.steps.size(), 4u);
  // Numbered in the model's order, whichever step writes them first.
  ASSERT_EQ(b.executor->outputs().size(), 4u);
  const char* order[] = {"same_as_x", "weight", "relu", "relu_again"};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(b.executor->outputs()[i].name, order[i]) << i;
}

TEST(ModelBuildTest, OutputsKeepTheModelsOrderWhateverOrderTheyAreComputedIn) {
  // y is computed after z but listed first (as in ONNX's expanded DynamicQuantizeLinear).
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {2, 3}});
  ValueId z = Op(g, OpKind::kRelu, {x});
  ValueId y = Op(g, OpKind::kExp, {z});
  g.AddOutput("y", y);
  g.AddOutput("z", z);
  ExpectMatchesReference(g, "order");
  Built b = BuildAndLoad(g, "order_kernels");
  ASSERT_NE(b.executor, nullptr);
  ASSERT_EQ(b.executor->outputs().size(), 2u);
  EXPECT_EQ(b.executor->outputs()[0].name, "y");
  EXPECT_EQ(b.executor->outputs()[1].name, "z");
  EXPECT_EQ(b.executor->GetOutput(0)->ndim, 2);
}

// A constant of `dtype` (int8, uint8 or int32) holding `values`.
template <typename T>
ValueId IntConstant(Graph& g, const std::string& name, const Shape& shape, DLDataType dtype,
                    const std::vector<T>& values) {
  runtime::NDArray a = *runtime::NDArray::Empty(shape, dtype);
  std::memcpy(a.data(), values.data(), values.size() * sizeof(T));
  return g.AddConstant(name, std::move(a));
}

// x -> quantize -> dequantize -> gemm(dequantized int8 weight, bias) -> relu, as a QDQ model's
// Linear layer exports: `per_row` scales of the weight (else one), trans_b as PyTorch's Linear.
Graph QuantizedLinear(int64_t m, int64_t n, int64_t k, bool per_row, bool trans_b) {
  Graph g;
  const DLDataType u8{kDLUInt, 8, 1}, i8{kDLInt, 8, 1};
  ValueId x = g.AddInput("x", {kF32, {m, k}});
  ValueId sx = g.AddConstant("sx", Random({}, 1, 0.02f, 0.021f));
  ValueId zx = IntConstant<uint8_t>(g, "zx", {}, u8, {131});
  ValueId dx = Op(g, OpKind::kDequantize, {Op(g, OpKind::kQuantize, {x, sx, zx}), sx, zx});
  std::vector<int8_t> w(static_cast<size_t>(n * k));
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int8_t>((i * 37 + 11) % 256 - 128);
  ValueId wq = IntConstant(g, "wq", trans_b ? Shape{n, k} : Shape{k, n}, i8, w);
  const int64_t scales = per_row ? n : 1;
  ValueId sw = g.AddConstant("sw", Random({scales}, 2, 0.001f, 0.01f));
  ValueId zw = IntConstant(g, "zw", {scales}, i8, std::vector<int8_t>(scales, 0));
  ValueId dw = Op(g, OpKind::kDequantize, {wq, sw, zw}, {{"axis", int64_t{trans_b ? 0 : 1}}});
  ValueId y = Op(g, OpKind::kGemm, {dx, dw, Weight(g, {n}, 3)},
                 {{"trans_b", int64_t{trans_b}}, {"alpha", 0.5}});
  g.AddOutput("y", Op(g, OpKind::kRelu, {y}));
  return g;
}

TEST(ModelBuildTest, QuantizedLinearLayersRunInInt8AndMatchTheirFloatForm) {
  for (const auto& [per_row, trans_b] : {std::pair{true, true}, {false, false}}) {
    // 40 rows: not whole vectors of lanes; 5 rows: not whole register tiles.
    Graph g = QuantizedLinear(5, 40, 64, per_row, trans_b);
    ExpectMatchesReference(g, "quantized_linear");
    Built b = BuildAndLoad(g, "quantized_linear_kernels");
    int int8 = 0;
    for (const GroupKernel& kernel : b.model.kernels) {
      int8 += kernel.schedule.find("dense_int8 template") != std::string::npos;
    }
    EXPECT_EQ(int8, 1) << "per_row " << per_row << " trans_b " << trans_b;
  }
}

// A QDQ transformer's Linear layer: a MatMul of a [2, 5, 64] sequence by a dequantized int8
// constant [64, 40], as `tunefarm model quantize` writes it.
TEST(ModelBuildTest, AQuantizedMatMulOnASequenceRunsAsOneInt8Kernel) {
  Graph g;
  const DLDataType u8{kDLUInt, 8, 1}, i8{kDLInt, 8, 1};
  ValueId x = g.AddInput("x", {kF32, {2, 5, 64}});
  ValueId sx = g.AddConstant("sx", Random({}, 1, 0.02f, 0.021f));
  ValueId zx = IntConstant<uint8_t>(g, "zx", {}, u8, {120});
  ValueId dx = Op(g, OpKind::kDequantize, {Op(g, OpKind::kQuantize, {x, sx, zx}), sx, zx});
  std::vector<int8_t> w(64 * 40);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int8_t>((i * 29 + 3) % 255 - 127);
  ValueId sw = g.AddConstant("sw", Random({40}, 2, 0.001f, 0.01f));
  ValueId zw = IntConstant(g, "zw", {40}, i8, std::vector<int8_t>(40, 0));
  ValueId dw = Op(g, OpKind::kDequantize, {IntConstant(g, "wq", {64, 40}, i8, w), sw, zw},
                  {{"axis", int64_t{1}}});
  g.AddOutput("y", Op(g, OpKind::kMatMul, {dx, dw}));
  ExpectMatchesReference(g, "quantized_matmul");
  Built b = BuildAndLoad(g, "quantized_matmul_kernels");
  int int8 = 0;
  for (const GroupKernel& kernel : b.model.kernels) {
    int8 += kernel.schedule.find("dense_int8 template") != std::string::npos;
  }
  EXPECT_EQ(int8, 1);
}

TEST(ModelBuildTest, AQuantizedLinearThatDoesNotFitStaysFloat) {
  // K = 30 is not whole groups of four: the gemm keeps its float form and still matches.
  Graph g = QuantizedLinear(3, 16, 30, true, true);
  ExpectMatchesReference(g, "quantized_linear_float");
  Built b = BuildAndLoad(g, "quantized_linear_float_kernels");
  for (const GroupKernel& kernel : b.model.kernels) {
    EXPECT_EQ(kernel.schedule.find("dense_int8"), std::string::npos) << kernel.schedule;
  }
}

// An int8 weight [O, C, KH, KW] behind its dequantize, per filter or per tensor.
ValueId QuantizedConvWeight(Graph& g, const std::string& name, const Shape& shape, bool per_filter,
                            uint64_t seed) {
  const DLDataType i8{kDLInt, 8, 1};
  int64_t count = 1;
  for (int64_t d : shape) count *= d;
  std::vector<int8_t> w(static_cast<size_t>(count));
  for (size_t i = 0; i < w.size(); ++i) {
    w[i] = static_cast<int8_t>((i * 53 + seed * 17 + 5) % 255 - 127);
  }
  const int64_t scales = per_filter ? shape[0] : 1;
  ValueId wq = IntConstant(g, name, shape, i8, w);
  ValueId sw = g.AddConstant(name + "_scale", Random({scales}, seed, 0.001f, 0.004f));
  ValueId zw = IntConstant(g, name + "_zero", {scales}, i8, std::vector<int8_t>(scales, 0));
  return Op(g, OpKind::kDequantize, {wq, sw, zw}, {{"axis", int64_t{0}}});
}

// A QDQ model's two convolutions as PyTorch exports them: quantized input (zero point 131, so
// the padding is the zero point), conv + relu requantized with another zero point, a max pool of
// the dequantized values, a second conv with a per-tensor weight; 20 and 24 filters are not
// whole vectors of lanes and 3 channels not whole groups of four.
Graph QuantizedConvs() {
  Graph g;
  const DLDataType u8{kDLUInt, 8, 1};
  ValueId x = g.AddInput("x", {kF32, {1, 3, 10, 10}});
  ValueId sx = g.AddConstant("sx", Random({}, 1, 0.01f, 0.011f));
  ValueId zx = IntConstant<uint8_t>(g, "zx", {}, u8, {131});
  ValueId dx = Op(g, OpKind::kDequantize, {Op(g, OpKind::kQuantize, {x, sx, zx}), sx, zx});
  ValueId c1 = Op(g, OpKind::kConv2d,
                  {dx, QuantizedConvWeight(g, "qw1", {20, 3, 3, 3}, true, 1), Weight(g, {20}, 2)},
                  {{"pads", Pads(1)}});
  ValueId s1 = g.AddConstant("s1", Random({}, 3, 0.02f, 0.021f));
  ValueId z1 = IntConstant<uint8_t>(g, "z1", {}, u8, {7});
  ValueId d1 = Op(g, OpKind::kDequantize,
                  {Op(g, OpKind::kQuantize, {Op(g, OpKind::kRelu, {c1}), s1, z1}), s1, z1});
  ValueId pooled =
      Op(g, OpKind::kMaxPool2d, {d1},
         {{"kernel", std::vector<int64_t>{2, 2}}, {"strides", std::vector<int64_t>{2, 2}}});
  ValueId c2 =
      Op(g, OpKind::kConv2d,
         {pooled, QuantizedConvWeight(g, "qw2", {24, 20, 3, 3}, false, 4), Weight(g, {24}, 5)},
         {{"pads", Pads(1)}});
  g.AddOutput("y", c2);
  return g;
}

TEST(ModelBuildTest, QuantizedConvolutionsRunInInt8AndMatchTheirFloatForm) {
  Graph g = QuantizedConvs();
  // The int8 convs compute exactly the float form's products; the requantize between them can
  // round one value the other way at a tie, a step of 1/1000 of the output here.
  ExpectMatchesReference(g, "quantized_convs", 2e-3);
  Built b = BuildAndLoad(g, "quantized_convs_kernels");
  int int8 = 0;
  for (const GroupKernel& kernel : b.model.kernels) {
    int8 += kernel.schedule.find("conv2d_int8 template") != std::string::npos;
  }
  EXPECT_EQ(int8, 2);
}

}  // namespace
}  // namespace tunefarm::graph
