// Schedule: how each operation of a computation is turned into loops. A stage per operation
// records primitives (split, fuse, reorder, bind, compute_at, ...) as data; the first invalid
// call sets a sticky error naming the primitive, stage and axis, which `Lower` returns.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/schedule/relations.h"
#include "compiler/te/tensor.h"

namespace tunefarm::schedule {

enum class AttachType : uint8_t {
  kRoot,    // computed at the top level (compute_root; the default)
  kInline,  // substituted into its consumers (compute_inline)
  kScope,   // computed inside a loop of another stage (compute_at)
};

class ScheduleNode;

// One operation's schedule. Primitives return *this so calls chain; outputs go to pointers.
class Stage {
 public:
  Stage(ScheduleNode* schedule, te::Operation op);

  Stage& split(const ir::IterVar& parent, ir::Expr factor, ir::IterVar* outer, ir::IterVar* inner);
  Stage& split_by_nparts(const ir::IterVar& parent, ir::Expr nparts, ir::IterVar* outer,
                         ir::IterVar* inner);
  // Splits x by x_factor and y by y_factor and orders the loops xo, yo, xi, yi.
  Stage& tile(const ir::IterVar& x, const ir::IterVar& y, ir::Expr x_factor, ir::Expr y_factor,
              ir::IterVar* x_outer, ir::IterVar* y_outer, ir::IterVar* x_inner,
              ir::IterVar* y_inner);
  // Fuses two adjacent leaf axes (outer immediately before inner) into one.
  Stage& fuse(const ir::IterVar& outer, const ir::IterVar& inner, ir::IterVar* fused);
  // Puts the given leaf axes in this order, in the positions they occupied.
  Stage& reorder(const std::vector<ir::IterVar>& order);
  Stage& bind(const ir::IterVar& axis, const ir::IterVar& thread);
  Stage& compute_at(Stage& parent, const ir::IterVar& scope);
  Stage& compute_inline();
  Stage& compute_root();
  Stage& parallel(const ir::IterVar& axis);
  Stage& vectorize(const ir::IterVar& axis);
  Stage& unroll(const ir::IterVar& axis);
  Stage& pragma(const ir::IterVar& axis, const std::string& name);
  // Replaces the loops from `axis` inward by `intrin`, which lowering checks computes exactly
  // what they do (an error names the first mismatch: extent, dtype, stride or expression).
  Stage& tensorize(const ir::IterVar& axis, std::shared_ptr<const TensorIntrinNode> intrin);

  // The current operation (cache_read/cache_write may rewrite it; its buffer never changes).
  const te::Operation& op() const { return op_; }
  const te::Operation& origin_op() const { return origin_op_; }
  const std::string& name() const { return op_->name; }
  const std::vector<ir::IterVar>& all_iter_vars() const { return all_iter_vars_; }
  const std::vector<ir::IterVar>& leaf_iter_vars() const { return leaf_iter_vars_; }
  const std::vector<Relation>& relations() const { return relations_; }
  const IterVarAttr* attr_of(const ir::IterVar& iv) const;
  AttachType attach_type() const { return attach_type_; }
  Stage* attach_stage() const { return attach_stage_; }
  const ir::IterVar& attach_ivar() const { return attach_ivar_; }
  const std::string& scope() const { return op_->buffer->scope; }

 private:
  friend class Schedule;
  friend class ScheduleNode;
  // Sets the schedule's sticky error (if none yet) and returns false.
  bool Fail(const std::string& primitive, const std::string& message);
  // Checks that iv is a leaf of this stage; on failure records why.
  bool CheckLeaf(const std::string& primitive, const ir::IterVar& iv);
  bool IsReduceDerived(const ir::IterVar& iv) const;
  void ResetIterVars();
  IterVarAttr& MutableAttr(const ir::IterVar& iv);
  Stage& SetKind(const char* primitive, const ir::IterVar& axis, ir::ForKind kind);
  Stage& SplitImpl(const char* primitive, const ir::IterVar& parent, ir::Expr factor,
                   ir::Expr nparts, ir::IterVar* outer, ir::IterVar* inner);

  ScheduleNode* schedule_;
  te::Operation op_;
  te::Operation origin_op_;
  std::vector<ir::IterVar> all_iter_vars_;
  std::vector<ir::IterVar> leaf_iter_vars_;
  std::vector<Relation> relations_;
  std::unordered_map<const ir::IterVarNode*, IterVarAttr> attrs_;
  AttachType attach_type_ = AttachType::kRoot;
  Stage* attach_stage_ = nullptr;
  ir::IterVar attach_ivar_;
};

// A schedule over the operations that produce `outputs` (all their inputs included). A
// Schedule is a handle: copies share one state, as `s` does in a TE script.
class Schedule {
 public:
  Schedule() = default;
  static Schedule Create(const std::vector<te::Operation>& outputs);

  bool defined() const { return node_ != nullptr; }
  // The stage of a tensor (by its original operation); Contains() first for user input.
  Stage& operator[](const te::Tensor& tensor) const;
  bool Contains(const te::Tensor& tensor) const;
  // Stages in producer-before-consumer order, placeholders included.
  std::vector<Stage*> stages() const;
  const std::vector<te::Operation>& outputs() const;

  // Adds a stage that copies `tensor` into `scope` and makes `readers` read the copy.
  absl::StatusOr<te::Tensor> cache_read(const te::Tensor& tensor, const std::string& scope,
                                        const std::vector<te::Tensor>& readers);
  // Adds a stage that computes `tensor`'s definition into `scope`; `tensor` becomes a copy.
  absl::StatusOr<te::Tensor> cache_write(const te::Tensor& tensor, const std::string& scope);

  // The first invalid primitive call, or OK.
  const absl::Status& error() const;

 private:
  std::shared_ptr<ScheduleNode> node_;
};

}  // namespace tunefarm::schedule
