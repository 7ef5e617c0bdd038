// Padding: a tensor extended by constant borders, the first stage of padded convolutions and
// pooling (computed on its own or inlined into its reader, as the schedule decides).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/schedule/schedule.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/injective_schedule.h"
#include "compiler/topi/window.h"

namespace tunefarm::topi {

// out[i] = t[i - before] inside, `value` in the border; `before`/`after` have one entry per
// dimension (>= 0). Returns `t` itself when there is nothing to pad.
absl::StatusOr<te::Tensor> PadCompute(const te::Tensor& t, const std::vector<int64_t>& before,
                                      const std::vector<int64_t>& after, ir::Expr value,
                                      const std::string& name);

// Pads the spatial axes (2 and 3: H and W of NCHW and of blocked NCHWc) of `data` by the window's
// padding, as every sliding-window op does before it reads.
absl::StatusOr<te::Tensor> PadWindowCompute(const te::Tensor& data, const Window2d& window,
                                            ir::Expr value, const std::string& name);

// Schedules a padded copy made by PadCompute: inlined into its readers (a bounds check per read,
// no copy) or computed first as its own injective loop nest. Nothing when `padded` is `data`.
void SchedulePad(schedule::Schedule& s, const te::Tensor& padded, const te::Tensor& data,
                 bool inline_it, const InjectiveScheduleConfig& config);

}  // namespace tunefarm::topi
