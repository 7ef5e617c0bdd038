// cache_read and cache_write: schedule primitives that add a stage by rewriting the graph.
#include "absl/strings/str_cat.h"
#include "compiler/ir/mutator.h"
#include "compiler/schedule/schedule_node.h"

namespace tunefarm::schedule {
namespace {

absl::Status CheckScope(const std::string& primitive, const std::string& scope) {
  if (scope == "global" || scope == "shared" || scope == "local") return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(primitive, ": unknown storage scope '", scope,
                                                 "'; accepted: global, shared, local"));
}

ir::Expr ReplaceReads(const ir::Expr& body, const ir::Buffer& from, const ir::Buffer& to) {
  return ir::RewriteExpr(body, [&](const ir::Expr& e) -> ir::Expr {
    const auto* load = e.As<ir::BufferLoadNode>();
    if (!load || !load->buffer.same_as(from)) return ir::Expr();
    std::vector<ir::Expr> indices;
    for (const auto& i : load->indices) indices.push_back(ReplaceReads(i, from, to));
    return ir::BufferLoadNode::Make(to, std::move(indices));
  });
}

// Fresh axes over the same domains, named <axis><suffix>; `substitution` maps old to new.
std::vector<ir::IterVar> CopyAxes(const std::vector<ir::IterVar>& axes, const std::string& suffix,
                                  ir::VarMap& substitution) {
  std::vector<ir::IterVar> out;
  for (const auto& iv : axes) {
    ir::Var v(iv->var.name() + suffix, iv->var.dtype());
    substitution[iv->var.get()] = v;
    out.emplace_back(iv->dom, v, iv->iter_type);
  }
  return out;
}

}  // namespace

absl::StatusOr<te::Tensor> Schedule::cache_read(const te::Tensor& tensor, const std::string& scope,
                                                const std::vector<te::Tensor>& readers) {
  if (!Contains(tensor)) {
    return absl::InvalidArgumentError(
        absl::StrCat("cache_read: tensor ", tensor.name(), " is not in this schedule"));
  }
  if (absl::Status st = CheckScope("cache_read", scope); !st.ok()) return st;
  Stage& source = (*this)[tensor];
  const ir::Buffer& buffer = source.op()->buffer;
  std::vector<Stage*> reader_stages;
  const std::vector<Stage*> actual = node_->ReadersOf(buffer);
  for (const auto& reader : readers) {
    Stage* stage = Contains(reader) ? &(*this)[reader] : nullptr;
    if (stage == nullptr || std::find(actual.begin(), actual.end(), stage) == actual.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("cache_read of ", tensor.name(), ": ", reader.name(), " does not read it"));
    }
    reader_stages.push_back(stage);
  }
  if (reader_stages.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("cache_read of ", tensor.name(), ": no readers given"));
  }
  // A placeholder has no axes of its own: the copy gets ax0, ax1, ... over the shape.
  std::vector<ir::IterVar> axis;
  for (size_t d = 0; d < buffer->shape.size(); ++d) {
    std::string name =
        d < source.op()->axis.size() ? source.op()->axis[d]->var.name() : absl::StrCat("ax", d);
    ir::Var v(name, buffer->shape[d].dtype());
    axis.emplace_back(ir::Range{ir::MakeZero(v.dtype()), buffer->shape[d]}, v,
                      ir::IterVarType::kDataPar);
  }
  std::vector<ir::Expr> indices;
  for (const auto& iv : axis) indices.push_back(iv->var);
  te::Operation cache = te::NewComputeOp(absl::StrCat(buffer->name, ".", scope), scope, axis, {},
                                         ir::BufferLoadNode::Make(buffer, indices));
  for (Stage* stage : reader_stages) {
    const te::Operation& op = stage->op();
    stage->op_ = te::MakeComputeOp(op->name, op->buffer, op->axis, op->reduce_axis,
                                   ReplaceReads(op->body, buffer, cache->buffer));
  }
  node_->AddStage(cache, &source);
  return te::Tensor(cache);
}

absl::StatusOr<te::Tensor> Schedule::cache_write(const te::Tensor& tensor,
                                                 const std::string& scope) {
  if (!Contains(tensor)) {
    return absl::InvalidArgumentError(
        absl::StrCat("cache_write: tensor ", tensor.name(), " is not in this schedule"));
  }
  if (absl::Status st = CheckScope("cache_write", scope); !st.ok()) return st;
  Stage& stage = (*this)[tensor];
  const te::Operation op = stage.op();
  if (op->kind != te::OpKind::kCompute) {
    return absl::InvalidArgumentError(
        absl::StrCat("cache_write: ", tensor.name(), " is a placeholder, not a computation"));
  }
  if (!stage.relations().empty() || stage.attach_type() != AttachType::kRoot) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cache_write on stage ", tensor.name(),
        ": call it before splitting, fusing or attaching the stage (its loops are rebuilt)"));
  }
  ir::VarMap substitution;
  std::vector<ir::IterVar> axis = CopyAxes(op->axis, ".c", substitution);
  te::Operation cache = te::NewComputeOp(absl::StrCat(op->name, ".", scope), scope, axis,
                                         op->reduce_axis, ir::Substitute(op->body, substitution));
  std::vector<ir::Expr> indices;
  for (const auto& iv : op->axis) indices.push_back(iv->var);
  stage.op_ = te::MakeComputeOp(op->name, op->buffer, op->axis, {},
                                ir::BufferLoadNode::Make(cache->buffer, indices));
  stage.ResetIterVars();
  const Stage* before = nullptr;
  for (const auto& s : node_->stages) {
    if (s.get() == &stage) break;
    before = s.get();
  }
  node_->AddStage(cache, before);
  return te::Tensor(cache);
}

}  // namespace tunefarm::schedule
