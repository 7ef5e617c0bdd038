#include "compiler/schedule/schedule.h"

#include <algorithm>
#include <functional>
#include <unordered_set>

#include "absl/strings/str_cat.h"
#include "compiler/ir/check.h"
#include "compiler/ir/visitor.h"
#include "compiler/schedule/schedule_node.h"

namespace tunefarm::schedule {

Stage* ScheduleNode::Find(const te::OperationNode* origin) const {
  auto it = stage_of_origin.find(origin);
  return it == stage_of_origin.end() ? nullptr : it->second;
}

Stage* ScheduleNode::AddStage(te::Operation op, const Stage* after) {
  auto stage = std::make_unique<Stage>(this, op);
  Stage* raw = stage.get();
  auto pos = stages.begin();
  if (after != nullptr) {
    pos = std::find_if(stages.begin(), stages.end(),
                       [&](const std::unique_ptr<Stage>& s) { return s.get() == after; });
    TF_CHECK(pos != stages.end()) << "AddStage after a stage of another schedule";
    ++pos;
  }
  stages.insert(pos, std::move(stage));
  stage_of_origin[op.get()] = raw;
  return raw;
}

std::vector<Stage*> ScheduleNode::ReadersOf(const ir::Buffer& buffer) const {
  std::vector<Stage*> readers;
  for (const auto& stage : stages) {
    if (!stage->op()->body.defined()) continue;
    bool reads = false;
    ir::PostOrderVisit(stage->op()->body, [&](const ir::Expr& e) {
      if (const auto* load = e.As<ir::BufferLoadNode>()) {
        reads = reads || load->buffer.same_as(buffer);
      }
    });
    if (reads) readers.push_back(stage.get());
  }
  return readers;
}

Schedule Schedule::Create(const std::vector<te::Operation>& outputs) {
  Schedule s;
  s.node_ = std::make_shared<ScheduleNode>();
  s.node_->outputs = outputs;
  // Post-order DFS from the outputs gives producers before consumers.
  std::unordered_set<const te::OperationNode*> visited;
  std::vector<te::Operation> order;
  std::function<void(const te::Operation&)> visit = [&](const te::Operation& op) {
    if (!visited.insert(op.get()).second) return;
    for (const auto& input : op->InputOps()) visit(input);
    order.push_back(op);
  };
  for (const auto& op : outputs) visit(op);
  for (auto& op : order) {
    const Stage* last = s.node_->stages.empty() ? nullptr : s.node_->stages.back().get();
    s.node_->AddStage(op, last);
  }
  return s;
}

Stage& Schedule::operator[](const te::Tensor& tensor) const {
  Stage* stage = node_->Find(tensor.op().get());
  TF_CHECK(stage != nullptr) << "tensor " << tensor.name() << " is not in this schedule";
  return *stage;
}

bool Schedule::Contains(const te::Tensor& tensor) const {
  return tensor.defined() && node_->Find(tensor.op().get()) != nullptr;
}

std::vector<Stage*> Schedule::stages() const {
  std::vector<Stage*> out;
  for (const auto& s : node_->stages) out.push_back(s.get());
  return out;
}

const std::vector<te::Operation>& Schedule::outputs() const { return node_->outputs; }

const absl::Status& Schedule::error() const { return node_->error; }

}  // namespace tunefarm::schedule
