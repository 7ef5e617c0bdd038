// The graph-level layout choice of a build with records (what TVM's graph tuner does with
// AutoTVM's records): each blocked conv's output block, chosen so that the model's conv kernels
// at their best records, plus the layout transforms those blocks put at residual adds, cost the
// least. `model tune --layouts` measures what it weighs.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "compiler/graph/graph.h"
#include "compiler/graph/layout_rewrite.h"
#include "compiler/topi/cpu_info.h"
#include "tuner/layout_choice.h"
#include "tuner/workload.h"

namespace tunefarm::driver {

using tuner::LayoutCost;

// The best record's seconds of a workload (conv2d_nchwc, conv2d_winograd_nchwc,
// depthwise_conv2d_nchwc or layout_transform), nullopt without one.
using WorkloadSeconds =
    std::function<absl::StatusOr<std::optional<double>>(const tuner::Workload&)>;

// The cost of the layout `plan` gives `graph` (before the layout rewrite). With `winograd`, a 3x3
// stride-1 conv costs the faster of its direct and Winograd records, as the build then runs.
// Errors: the rewrite's (a plan it refuses) and `seconds`'.
absl::StatusOr<LayoutCost> CostOfLayout(const graph::Graph& graph, const topi::CpuInfo& cpu,
                                        const graph::ConvBlockPlan& plan,
                                        const WorkloadSeconds& seconds, bool winograd);

struct LayoutPlan {
  graph::ConvBlockPlan plan;  // the convs whose block is not the rule's
  LayoutCost rule, chosen;    // the rule's layout and the plan's
  int plannable = 0;          // convs a plan may name
  int evaluated = 0;          // layouts costed
};

// tuner::SearchBlocks from the rule's blocks over the plannable convs, a stage per output-channel
// count (a stage of a residual net, whose adds want both sides alike), each layout costed by
// CostOfLayout. Never worse than the rule.
absl::StatusOr<LayoutPlan> PlanConvBlocks(const graph::Graph& graph, const topi::CpuInfo& cpu,
                                          const WorkloadSeconds& seconds, bool winograd);

// "layout: 3 of 20 convs in blocks other than the rule's; kernels and transforms 17.204 ms
// (rule: 17.900 ms), 0 without a record (rule: 0)": one line for `model build`.
std::string DescribeLayout(const LayoutPlan& plan);

}  // namespace tunefarm::driver
