// Blocked conv2d in NCHW[ic]c with an OIHW[ic]i[oc]o kernel, and its CPU schedule template:
// register tiles of reg_w columns x the oc block, so each kernel load is one contiguous vector.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/conv2d.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/scheduled_op.h"
#include "compiler/topi/window.h"

namespace tunefarm::topi {

struct Conv2dNchwcTensors {
  te::Tensor data;
  te::Tensor kernel;
  te::Tensor padded;  // `data` itself when the window has no padding
  te::Tensor out;
  int64_t ic_block = 0, oc_block = 0;
};

// Errors: ranks other than 5 and 6, channel blocks that disagree between data and kernel, a
// window larger than the padded input (InvalidArgument naming conv2d_nchwc and the shapes).
absl::StatusOr<Conv2dNchwcTensors> Conv2dNchwcCompute(const te::Tensor& data,
                                                      const te::Tensor& kernel,
                                                      const Window2d& window);

// Grouped conv2d in the same layouts, scheduled by ScheduleConv2dNchwc: each run of
// `out_blocks_per_group` output blocks reads its own kernel.shape[1] consecutive data blocks,
// out[n, ob, y, x, o] = sum over kb, ky, kx, i of padded[n, (ob / out_blocks_per_group) *
// kernel.shape[1] + kb, ...] * kernel[ob, kb, ky, kx, i, o]. A block that holds several small
// groups has a block-diagonal kernel (zeros between its groups). Errors: as above, and groups of
// blocks that do not cover the data's blocks exactly.
absl::StatusOr<Conv2dNchwcTensors> GroupConv2dNchwcCompute(const te::Tensor& data,
                                                           const te::Tensor& kernel,
                                                           const Window2d& window,
                                                           int64_t out_blocks_per_group);

struct Conv2dNchwcScheduleConfig {
  int64_t ic_block = 8;   // layout: input channels per block (data and kernel)
  int64_t oc_block = 16;  // layout: output channels per block, a multiple of vector_lanes
  int64_t vector_lanes = 8;
  int64_t reg_w = 4;  // output columns per register tile (unrolled)
  ConvReduceOrder order = ConvReduceOrder::kChannelFirst;  // (cb, kh, kw, ci) or (kh, kw, cb, ci)
  bool unroll_kw = false;
  bool pad_inline = false;  // read the input through a bounds check instead of a padded copy
  bool parallel = true;     // run the fused (n, oc block, output row) loop on the thread pool
  // Loop the oc blocks inside the output rows, (n, row, oc block), so every block reuses a row's
  // input while it is in cache; false: (n, oc block, row), each block's kernel stays in cache.
  bool oc_blocks_inner = false;
  std::string ToString() const;
};

// The channel blocks of a blocked conv's layout, where something other than the conv's own
// config fixed them (a model's layout: the input block is its producer's).
struct NchwcBlocks {
  int64_t ic_block = 0;
  int64_t oc_block = 0;
  bool operator==(const NchwcBlocks&) const = default;
};

// The output-channel block of a conv with fewer filters than one vector has lanes: the next
// power of two (at least 4), so that 3 or 8 filters are not padded to 16.
int64_t NarrowOcBlock(int64_t filters, const CpuInfo& cpu);

// Blocks and a register tile for a conv of NCHW data `data_shape` and OIHW kernel
// `kernel_shape` on `cpu`, chosen before the layout transforms (which take its blocks); with
// `blocks`, the register tile for those blocks instead.
Conv2dNchwcScheduleConfig DefaultConv2dNchwcConfig(
    const std::vector<int64_t>& data_shape, const std::vector<int64_t>& kernel_shape,
    const Window2d& window, const CpuInfo& cpu,
    const std::optional<NchwcBlocks>& blocks = std::nullopt);

// `output`, when given, is an epilogue over `t.out` (epilogue.h) computed in the register tile
// before the one store. Errors: a non-positive config field, an oc block that is not whole
// vectors, or blocks that differ from the tensors' (FailedPrecondition); an epilogue that widens
// the output (FailedPrecondition).
absl::StatusOr<ScheduledOp> ScheduleConv2dNchwc(const Conv2dNchwcScheduleConfig& config,
                                                const Conv2dNchwcTensors& t,
                                                const te::Tensor& output = te::Tensor());

}  // namespace tunefarm::topi
