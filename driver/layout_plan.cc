#include "driver/layout_plan.h"

#include <cstdio>
#include <map>
#include <vector>

#include "compiler/graph/winograd_rewrite.h"
#include "tuner/model_tasks.h"

namespace tunefarm::driver {
namespace {

// Adds a workload's time to `cost`, or counts it unmeasured; `alternatives` are the same kernel's
// other algorithms, of which the fastest measured counts.
absl::Status AddKernel(const std::vector<tuner::Workload>& alternatives,
                       const WorkloadSeconds& seconds, LayoutCost& cost) {
  std::optional<double> best;
  for (const tuner::Workload& w : alternatives) {
    absl::StatusOr<std::optional<double>> s = seconds(w);
    if (!s.ok()) return s.status();
    if (*s && (!best || **s < *best)) best = *s;
  }
  if (best) {
    cost.seconds += *best;
  } else {
    ++cost.unmeasured;
  }
  return absl::OkStatus();
}

const graph::Node* Producer(const graph::Graph& g, graph::ValueId v) {
  const graph::Value& value = g.value(v);
  return value.kind == graph::ValueKind::kNodeOutput ? &g.nodes()[value.index] : nullptr;
}

// A to_nchwc of a from_nchwc's output: one value moved between two blocks, as a
// layout_transform workload (nullopt for any other to_nchwc).
std::optional<tuner::Workload> TransformWorkload(const graph::Graph& g, const graph::Node& node) {
  if (node.op != graph::OpKind::kToNchwc || node.inputs.size() != 1) return std::nullopt;
  const graph::Node* from = Producer(g, node.inputs[0]);
  if (from == nullptr || from->op != graph::OpKind::kFromNchwc || from->inputs.size() != 1) {
    return std::nullopt;
  }
  const std::vector<int64_t>& nchw = g.value(node.inputs[0]).type.shape;
  const std::vector<int64_t>& blocked = g.value(from->inputs[0]).type.shape;
  const int64_t to = node.attrs.Int("block", 0).value_or(0);
  if (nchw.size() != 4 || blocked.size() != 5 || to <= 0) return std::nullopt;
  return tuner::Workload{"layout_transform", {nchw[0], nchw[1], nchw[2], nchw[3], blocked[4], to}};
}

}  // namespace

absl::StatusOr<LayoutCost> CostOfLayout(const graph::Graph& graph, const topi::CpuInfo& cpu,
                                        const graph::ConvBlockPlan& plan,
                                        const WorkloadSeconds& seconds, bool winograd) {
  absl::StatusOr<graph::Graph> laid = graph::RewriteLayoutNchwc(graph, cpu, plan);
  if (!laid.ok()) return laid.status();
  LayoutCost cost;
  for (const graph::Node& node : laid->nodes()) {
    if (node.op == graph::OpKind::kConv2dNchwc || node.op == graph::OpKind::kDepthwiseConv2dNchwc) {
      std::optional<tuner::Workload> direct = tuner::NodeWorkload(*laid, node);
      if (!direct) continue;
      std::vector<tuner::Workload> alternatives = {*direct};
      if (winograd && graph::WinogradPadding(*laid, node)) {
        alternatives.push_back({"conv2d_winograd_nchwc", direct->args});
      }
      if (absl::Status s = AddKernel(alternatives, seconds, cost); !s.ok()) return s;
    } else if (std::optional<tuner::Workload> transform = TransformWorkload(*laid, node)) {
      if (absl::Status s = AddKernel({*transform}, seconds, cost); !s.ok()) return s;
    }
  }
  return cost;
}

absl::StatusOr<LayoutPlan> PlanConvBlocks(const graph::Graph& graph, const topi::CpuInfo& cpu,
                                          const WorkloadSeconds& seconds, bool winograd) {
  // The plannable convs by output-channel count: one var each, in stages.
  std::map<int64_t, std::vector<size_t>> by_filters;
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    const graph::Node& node = graph.nodes()[i];
    if (!graph::IsPlannableConv(graph, node)) continue;
    by_filters[graph.value(node.inputs[1]).type.shape[0]].push_back(i);
  }
  std::vector<size_t> node_of;
  std::vector<std::vector<int64_t>> candidates;
  std::vector<int64_t> rule;
  std::vector<std::vector<int>> stages;
  for (const auto& [filters, convs] : by_filters) {
    stages.emplace_back();
    for (size_t i : convs) {
      stages.back().push_back(static_cast<int>(node_of.size()));
      node_of.push_back(i);
      candidates.push_back(graph::ConvOcBlockCandidates(filters, cpu));
      rule.push_back(candidates.back().back());
    }
  }
  // The plan names only the convs whose block is not the rule's.
  auto plan_of = [&](const std::vector<int64_t>& blocks) {
    graph::ConvBlockPlan plan;
    for (size_t v = 0; v < blocks.size(); ++v) {
      if (blocks[v] != rule[v]) plan[node_of[v]] = blocks[v];
    }
    return plan;
  };
  std::optional<LayoutCost> at_rule;  // the search costs the rule's layout first
  absl::StatusOr<tuner::BlockAssignment> found =
      tuner::SearchBlocks(candidates, rule, stages,
                          [&](const std::vector<int64_t>& blocks) -> absl::StatusOr<LayoutCost> {
                            absl::StatusOr<LayoutCost> cost =
                                CostOfLayout(graph, cpu, plan_of(blocks), seconds, winograd);
                            if (cost.ok() && !at_rule) at_rule = *cost;
                            return cost;
                          });
  if (!found.ok()) return found.status();
  LayoutPlan result;
  result.plan = plan_of(found->blocks);
  result.chosen = found->cost;
  result.evaluated = found->evaluated;
  result.plannable = static_cast<int>(node_of.size());
  result.rule = at_rule.value_or(found->cost);
  return result;
}

std::string DescribeLayout(const LayoutPlan& plan) {
  char line[256];
  std::snprintf(line, sizeof line,
                "layout: %zu of %d convs in blocks other than the rule's; kernels and transforms "
                "%.3f ms (rule: %.3f ms), %d without a record (rule: %d)",
                plan.plan.size(), plan.plannable, plan.chosen.seconds * 1e3,
                plan.rule.seconds * 1e3, plan.chosen.unmeasured, plan.rule.unmeasured);
  return line;
}

}  // namespace tunefarm::driver
