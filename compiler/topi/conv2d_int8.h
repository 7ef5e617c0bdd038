// The int8 blocked conv2d on CPUs: uint8 data NCHW[c] (c a multiple of 4), int8 kernel packed
// [O/L][C/c][KH][KW][c/4][L][4], int32 output NCHW[L]; each output vector of L channels is one
// dot instruction per four input channels (compiler/intrin/dot_int8.h: VNNI's vpdpbusd here).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/scheduled_op.h"
#include "compiler/topi/window.h"

namespace tunefarm::topi {

struct Conv2dInt8Tensors {
  te::Tensor data;    // uint8 [N][C/c][H][W][c]
  te::Tensor kernel;  // int8 [O/L][C/c][KH][KW][c/4][L][4]
  te::Tensor padded;  // `data` itself without padding
  te::Tensor out;     // int32 [N][O/L][OH][OW][L]
  int64_t ic_block = 0, lanes = 0;
};

// `pad_value` fills the padding: the data's zero point, so that padding means 0 after the
// zero point is subtracted. Errors name conv2d_int8 and the shapes.
absl::StatusOr<Conv2dInt8Tensors> Conv2dInt8Compute(const te::Tensor& data,
                                                    const te::Tensor& kernel,
                                                    const Window2d& window, int64_t pad_value = 0);

// A register tile of reg_w output columns of one L-channel vector each, its accumulators over
// (input channel block, kh, kw, quad of channels), in one parallel loop over (n, out block, row).
struct Conv2dInt8Config {
  int64_t reg_w = 8;
  bool parallel = true;
  std::string ToString() const;
};

Conv2dInt8Config DefaultConv2dInt8Config(const Conv2dInt8Tensors& t, const CpuInfo& cpu);

// With an `epilogue` (elementwise stages after `out`: the dequantizing scale, bias, relu, the
// next layer's quantize), it is applied to each register tile before its one store.
// Arguments: data, kernel, then out or the epilogue's output.
absl::StatusOr<ScheduledOp> ScheduleConv2dInt8(const Conv2dInt8Config& config,
                                               const Conv2dInt8Tensors& t,
                                               const te::Tensor& epilogue = te::Tensor());

// The kernel OIHW int8 `w` packed for `ic_block` and `lanes` (zero past O and C), as `kernel`.
std::vector<int8_t> PackConv2dInt8Kernel(const int8_t* w, int64_t o, int64_t c, int64_t kh,
                                         int64_t kw, int64_t ic_block, int64_t lanes);

}  // namespace tunefarm::topi
