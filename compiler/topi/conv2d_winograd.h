// Winograd convolution F(m x m, 3 x 3) for 3x3 stride-1 convs in the blocked NCHW[c]c layout
// (winograd_matrices.h): the weights transformed once (U = G g Gᵀ; a model's graph folds it as a
// constant), each input tile of (m+2)^2 pixels to V = Bᵀ d B, one product per tile position
// summed over the input channels (M = U V, (m+2)^2 products for 9 m^2 direct multiply-adds), and
// each output tile Y = Aᵀ M A.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/scheduled_op.h"
#include "compiler/topi/winograd_matrices.h"

namespace tunefarm::topi {

// U[ξ][ν][ob][cb][ic][oc] = Σ_{a,b} G[ξ][a] G[ν][b] kernel[ob][cb][a][b][ic][oc], for a 3x3
// conv2d_nchwc kernel [OB][CB][3][3][ic][oc]. InvalidArgument for another shape or w.r != 3.
absl::StatusOr<te::Tensor> WinogradWeightCompute(const te::Tensor& kernel,
                                                 const WinogradMatrices& w);

struct Conv2dWinogradTensors {
  te::Tensor data;    // [N][CB][H][W][ic]
  te::Tensor weight;  // U: [α][α][OB][CB][ic][oc]
  te::Tensor rows;    // Bᵀ d: [α][α][N][CB][P][ic] (the transform's first half, by rows)
  te::Tensor tiles;   // V = (Bᵀ d) B: [α][α][N][CB][P][ic], P tiles of m x m outputs, row-major
  te::Tensor product;  // M: [α][α][N][OB][P][oc]
  te::Tensor out;      // [N][OB][OH][OW][oc]
  int64_t m = 0, tiles_w = 0;
};

// `pad` 1 keeps the height and width, 0 shrinks them by 2; input rows and columns past the edge
// read as zeros (no padded copy). InvalidArgument naming the shapes when data and weight disagree
// (blocks, alpha) or the output would be empty.
absl::StatusOr<Conv2dWinogradTensors> Conv2dWinogradCompute(const te::Tensor& data,
                                                            const te::Tensor& weight, int64_t pad,
                                                            const WinogradMatrices& w);

struct Conv2dWinogradScheduleConfig {
  int64_t tile = 4;  // m of F(m x m, 3x3): the compute's, which the config must match
  int64_t vector_lanes = 8;
  // Tiles per register block of the product: each weight vector loaded is used this many times.
  int64_t reg_p = 4;
  bool parallel = true;  // the tiles' and the outputs' outer loops on the thread pool
  std::string ToString() const;
};

// For F(tile x tile, 3x3) on `cpu`: 4 tiles per register block, parallel on several cores.
Conv2dWinogradScheduleConfig DefaultConv2dWinogradConfig(int64_t tile, const CpuInfo& cpu);

// Each stage a loop nest of its own, channels innermost (vectorized where the block is whole
// vectors), the transforms' sums and the output tile's pixels unrolled so that their constant
// coefficients fold; the product in register blocks of reg_p tiles x the oc block. `output`, when
// given, is an epilogue over `t.out` (epilogue.h) applied to each output vector before its store.
absl::StatusOr<ScheduledOp> ScheduleConv2dWinograd(const Conv2dWinogradScheduleConfig& config,
                                                   const Conv2dWinogradTensors& t,
                                                   const te::Tensor& output = te::Tensor());

}  // namespace tunefarm::topi
