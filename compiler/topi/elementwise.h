// Elementwise operators (relu, bias_add, add, subtract, multiply, divide, clip, sigmoid, tanh) and
// the schedule of a chain of them: inner stages inlined, the output scheduled as any injective
// stage.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/injective_schedule.h"
#include "compiler/topi/scheduled_op.h"

namespace tunefarm::topi {

// max(x, 0).
absl::StatusOr<te::Tensor> ReluCompute(const te::Tensor& x);
// x + bias, bias[C] broadcast along every axis of x but `axis` (1 for NCHW, the last for dense).
absl::StatusOr<te::Tensor> BiasAddCompute(const te::Tensor& x, const te::Tensor& bias,
                                          int axis = 1);
// a + b and a * b with numpy broadcasting (shapes aligned at the right; a dimension of 1
// stretches). Errors name the op and both shapes.
absl::StatusOr<te::Tensor> AddCompute(const te::Tensor& a, const te::Tensor& b);
absl::StatusOr<te::Tensor> MultiplyCompute(const te::Tensor& a, const te::Tensor& b);
// a - b and a / b, broadcast the same way (`/` is ir::Div: floor division for integers).
absl::StatusOr<te::Tensor> SubtractCompute(const te::Tensor& a, const te::Tensor& b);
absl::StatusOr<te::Tensor> DivideCompute(const te::Tensor& a, const te::Tensor& b);
// pow(a, b), max(a, b), min(a, b) and PReLU (a < 0 ? b * a : a), broadcast the same way; pow
// needs floats.
absl::StatusOr<te::Tensor> PowCompute(const te::Tensor& a, const te::Tensor& b);
// x with the elements off its triangle zeroed, over the last two axes (row i, column j): kept
// where j - i >= k with `upper`, where j - i <= k without.
absl::StatusOr<te::Tensor> TriluCompute(const te::Tensor& x, bool upper, int64_t k);
// a mod b, broadcast: with `truncated` the remainder takes a's sign (C's fmod and %), else b's
// (Python's %).
absl::StatusOr<te::Tensor> ModCompute(const te::Tensor& a, const te::Tensor& b, bool truncated);
absl::StatusOr<te::Tensor> MaximumCompute(const te::Tensor& a, const te::Tensor& b);
absl::StatusOr<te::Tensor> MinimumCompute(const te::Tensor& a, const te::Tensor& b);
absl::StatusOr<te::Tensor> PReluCompute(const te::Tensor& x, const te::Tensor& slope);
// a == b, a < b, a <= b, a > b, a >= b (bool), broadcast the same way.
enum class CompareFn : uint8_t { kEqual, kLess, kLessEqual, kGreater, kGreaterEqual };
absl::StatusOr<te::Tensor> CompareCompute(const te::Tensor& a, const te::Tensor& b, CompareFn fn);
// "equal", "less", "less_equal", "greater", "greater_equal"; nullopt for another name.
std::optional<CompareFn> CompareFnFromName(std::string_view name);
// a && b, a || b, a != b on bools, broadcast; !x.
enum class LogicalFn : uint8_t { kAnd, kOr, kXor };
absl::StatusOr<te::Tensor> LogicalCompute(const te::Tensor& a, const te::Tensor& b, LogicalFn fn);
// "and", "or", "xor".
std::optional<LogicalFn> LogicalFnFromName(std::string_view name);
absl::StatusOr<te::Tensor> LogicalNotCompute(const te::Tensor& x);
// cond ? a : b with the three broadcast together; cond bool, a and b of one dtype.
absl::StatusOr<te::Tensor> WhereCompute(const te::Tensor& cond, const te::Tensor& a,
                                        const te::Tensor& b);
// x converted to `dtype` (C's conversions; to bool: x != 0).
absl::StatusOr<te::Tensor> CastCompute(const te::Tensor& x, ir::DataType dtype);
// min(max(x, lo), hi); lo <= hi.
absl::StatusOr<te::Tensor> ClipCompute(const te::Tensor& x, double lo, double hi);
absl::StatusOr<te::Tensor> SigmoidCompute(const te::Tensor& x);
absl::StatusOr<te::Tensor> TanhCompute(const te::Tensor& x);

using ElementwiseScheduleConfig = InjectiveScheduleConfig;
inline ElementwiseScheduleConfig DefaultElementwiseConfig(const std::vector<int64_t>& shape,
                                                          const CpuInfo& cpu) {
  return DefaultInjectiveConfig(shape, cpu);
}

// Schedules the chain that computes `out` from `inputs` (every stage in between inlined); the
// args are `inputs`, then `out`. Errors: a stage in between that is a reduction.
absl::StatusOr<ScheduledOp> ScheduleElementwise(const ElementwiseScheduleConfig& config,
                                                const std::vector<te::Tensor>& inputs,
                                                const te::Tensor& out);

}  // namespace tunefarm::topi
