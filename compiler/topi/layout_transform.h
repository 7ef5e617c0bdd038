// Layout transforms NCHW <-> NCHW[x]c and OIHW -> OIHW[i]i[o]o for conv2d_nchwc; channel counts
// a block does not divide are padded with zeros, which leave a convolution's sums unchanged.
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/injective_schedule.h"
#include "compiler/topi/scheduled_op.h"

namespace tunefarm::topi {

// data[N][C][H][W] -> out[N][ceil(C/block)][H][W][block].
absl::StatusOr<te::Tensor> NchwToNchwcCompute(const te::Tensor& data, int64_t block);

// data[N][CB][H][W][c] -> out[N][channels][H][W]; `channels` <= CB * c drops the padding.
absl::StatusOr<te::Tensor> NchwcToNchwCompute(const te::Tensor& data, int64_t channels);

// kernel[O][C][KH][KW] -> out[ceil(O/oc)][ceil(C/ic)][KH][KW][ic][oc].
absl::StatusOr<te::Tensor> OihwToBlockedCompute(const te::Tensor& kernel, int64_t ic_block,
                                                int64_t oc_block);

// A layout transform is injective: its schedule is the injective one.
using LayoutTransformScheduleConfig = InjectiveScheduleConfig;
inline LayoutTransformScheduleConfig DefaultLayoutTransformConfig(
    const std::vector<int64_t>& out_shape, const CpuInfo& cpu) {
  return DefaultInjectiveConfig(out_shape, cpu);
}

// Schedules `out` (one of the transforms above) reading `in`.
absl::StatusOr<ScheduledOp> ScheduleLayoutTransform(const LayoutTransformScheduleConfig& config,
                                                    const te::Tensor& in, const te::Tensor& out);

}  // namespace tunefarm::topi
