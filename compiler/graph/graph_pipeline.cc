#include "compiler/graph/graph_pipeline.h"

#include "compiler/graph/common_subexpression.h"
#include "compiler/graph/constant_folding.h"
#include "compiler/graph/dead_code.h"
#include "compiler/graph/fold_scales.h"
#include "compiler/graph/fusion.h"
#include "compiler/graph/matmul_as_gemm.h"
#include "compiler/graph/pack_weights.h"
#include "compiler/graph/quantized_conv.h"
#include "compiler/graph/quantized_dense.h"
#include "compiler/graph/simplify_inference.h"
#include "compiler/topi/dense_int8.h"

namespace tunefarm::graph {

std::vector<GraphPass> DefaultGraphPasses(const KernelTarget& target, WinogradChooser winograd,
                                          ConvBlockPlanner layout) {
  std::vector<GraphPass> passes = {
      {"simplify_inference", SimplifyInference},
      {"fold_scales", FoldScales},
  };
  // Linear layers on sequences: gemms with a packed weight and the GEMM template (CPU).
  if (!target.is_gpu()) passes.push_back({"matmul_as_gemm", RewriteMatmulAsGemm});
  // A QDQ model's Linear layers: int8 on the CPU's dot product.
  if (!target.is_gpu()) {
    const int64_t lanes = topi::DefaultDenseInt8Config(1, 1, 4, target.cpu).lanes;
    passes.push_back({"quantized_dense",
                      [lanes](Graph g) { return RewriteQuantizedDense(std::move(g), lanes); }});
  }
  // A QDQ model's convolutions: int8 too, blocked by the layout rewrite below.
  if (!target.is_gpu()) passes.push_back({"quantized_conv", RewriteQuantizedConv});
  // The weights that stay float in a QDQ model, float before anything looks for constant weights.
  passes.push_back({"fold_quantized_weights", FoldQuantizedWeights});
  // CPU kernels stream a packed weight a vector of columns at a time; GPU schedules read [K][N].
  const int64_t column_block = target.is_gpu() ? 0 : target.cpu.Lanes(4);
  passes.push_back({"pack_weights",
                    [column_block](Graph g) { return PackWeights(std::move(g), column_block); }});
  if (!target.is_gpu()) {
    passes.push_back(
        {"layout_rewrite",
         [cpu = target.cpu, plan_layout = std::move(layout)](Graph g) -> absl::StatusOr<Graph> {
           ConvBlockPlan plan;
           if (plan_layout) {
             absl::StatusOr<ConvBlockPlan> planned = plan_layout(g);
             if (!planned.ok()) return planned.status();
             plan = *std::move(planned);
           }
           return RewriteLayoutNchwc(g, cpu, plan);
         }});
    passes.push_back({"winograd", [choose = std::move(winograd)](Graph g) {
                        return RewriteWinograd(std::move(g), choose);
                      }});
  }
  passes.push_back({"constant_folding", FoldConstants});
  passes.push_back({"common_subexpression", EliminateCommonSubexpressions});
  passes.push_back({"dead_code", EliminateDeadCode});
  passes.push_back({"fuse_ops", FuseOps});
  return passes;
}

}  // namespace tunefarm::graph
