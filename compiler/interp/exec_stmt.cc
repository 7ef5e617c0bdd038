// Runs compiled statements for one thread. Each statement checks Frame::failed() before a side
// effect and stops at the first error; bindings (loop variables, lets, buffers) are restored on
// the way out, so a frame is unchanged by running a statement except for memory it wrote.
#include <limits>

#include "absl/strings/str_cat.h"
#include "compiler/interp/stmt_code.h"

namespace tunefarm::interp {

SeqCode::SeqCode(std::vector<const StmtCode*> seq)
    : StmtCode([&] {
        for (const StmtCode* s : seq) {
          if (s->has_barrier()) return true;
        }
        return false;
      }()),
      seq_(std::move(seq)) {
  for (const StmtCode* s : seq_) {
    if (s->has_barrier() || segments_.empty() || segments_.back().has_barrier) {
      segments_.push_back({{}, s->has_barrier()});
    }
    segments_.back().stmts.push_back(s);
  }
}

void SeqCode::Run(Frame& f) const {
  for (const StmtCode* s : seq_) {
    s->Run(f);
    if (f.failed()) return;
  }
}

void ForCode::Run(Frame& f) const {
  const int64_t min = min_->Scalar(f).i;
  const int64_t extent = extent_->Scalar(f).i;
  if (f.failed()) return;
  Lane& var = f.slots[slot_];
  const Lane saved = var;
  for (int64_t i = 0; i < extent; ++i) {
    var.i = LoopValue(min, i);
    body_->Run(f);
    if (f.failed()) break;
  }
  var = saved;
}

void LetStmtCode::Run(Frame& f) const {
  const int lanes = value_->lanes();
  if (lanes == 1) {
    const Lane saved = f.slots[slot_];
    f.slots[slot_] = value_->Scalar(f);
    if (!f.failed()) body_->Run(f);
    f.slots[slot_] = saved;
    return;
  }
  // Into a temporary first: the value may read the slots it is about to replace.
  Value value(lanes), saved(lanes);
  value_->Vector(f, value.data());
  for (int l = 0; l < lanes; ++l) {
    saved[l] = f.slots[slot_ + l];
    f.slots[slot_ + l] = value[l];
  }
  if (!f.failed()) body_->Run(f);
  for (int l = 0; l < lanes; ++l) f.slots[slot_ + l] = saved[l];
}

void IfCode::Run(Frame& f) const {
  const bool c = condition_->Scalar(f).i != 0;
  if (f.failed()) return;
  if (c) {
    then_->Run(f);
  } else if (else_ != nullptr) {
    else_->Run(f);
  }
}

void AssertCode::Run(Frame& f) const {
  const bool c = condition_->Scalar(f).i != 0;
  if (f.failed()) return;
  if (!c) {
    f.Fail(absl::InvalidArgumentError(absl::StrCat("assertion failed: ", message_)));
    return;
  }
  body_->Run(f);
}

void EvaluateCode::Run(Frame& f) const {
  if (value_ == nullptr) return;
  if (value_->lanes() == 1) {
    value_->Scalar(f);
  } else {
    Value v(value_->lanes());
    value_->Vector(f, v.data());
  }
}

uint8_t* AcquireStorage(Frame& f, const AllocSpec& spec, int64_t count, Storage* owned) {
  if (spec.scope != MemScope::kShared) {
    return NewStorage(f, spec.name, count, spec.elem_bytes, owned) ? owned->bytes.get() : nullptr;
  }
  auto& shared = f.block->shared;
  if (shared.size() <= static_cast<size_t>(spec.shared_id)) shared.resize(spec.shared_id + 1);
  Storage& s = shared[spec.shared_id];
  if (s.bytes == nullptr) {
    return NewStorage(f, spec.name, count, spec.elem_bytes, &s) ? s.bytes.get() : nullptr;
  }
  if (s.size != count) {
    f.Fail(absl::InvalidArgumentError(absl::StrCat("shared allocation ", spec.name, " has ", count,
                                                   " elements here but ", s.size,
                                                   " where another thread of the block made it")));
    return nullptr;
  }
  return s.bytes.get();
}

int64_t AllocateCode::Count(Frame& f) const {
  int64_t count = 1;
  for (const ExprCode* e : extents_) {
    const int64_t extent = e->Scalar(f).i;
    if (extent < 0 && !f.failed()) {
      f.Fail(absl::InvalidArgumentError(
          absl::StrCat("allocate ", spec_.name, ": negative extent ", extent)));
    }
    if (f.failed()) return -1;
    // Saturate: NewStorage reports anything this large.
    const bool overflows = extent != 0 && count > std::numeric_limits<int64_t>::max() / extent;
    count = overflows ? std::numeric_limits<int64_t>::max() : count * extent;
  }
  return count;
}

BufferView AllocateCode::View(uint8_t* data, int64_t count) const {
  return BufferView{data, count, spec_.elem_bytes, spec_.scope == MemScope::kLocal};
}

void AllocateCode::Run(Frame& f) const {
  const int64_t count = Count(f);
  if (count < 0) return;
  Storage owned;
  uint8_t* data = AcquireStorage(f, spec_, count, &owned);
  if (data == nullptr) return;
  const BufferView saved = f.buffers[slot_];
  f.buffers[slot_] = View(data, count);
  body_->Run(f);
  f.buffers[slot_] = saved;
}

bool RealizeCode::Bind(Frame& f, std::vector<int64_t>& region, Storage* owned) const {
  const size_t ndim = bounds_.size();
  region.resize(2 * ndim);
  for (size_t d = 0; d < ndim; ++d) {
    region[d] = bounds_[d].min->Scalar(f).i;
    region[ndim + d] = bounds_[d].extent->Scalar(f).i;
  }
  if (f.failed()) return false;
  int64_t count = 1;
  for (size_t d = 0; d < ndim; ++d) {
    const int64_t min = region[d], extent = region[ndim + d];
    const TensorView& param = f.tensors[tensor_slot_];
    const bool bad =
        extent < 0 ||
        (is_param_ && (min < param.min[d] || min + extent > param.min[d] + param.extent[d]));
    if (bad) {
      f.Fail(absl::InvalidArgumentError(absl::StrCat(
          "realize ", spec_.name, ": dimension ", d, " region [", min, ", ", min + extent, ")",
          is_param_ ? " exceeds the parameter" : " has a negative extent")));
      return false;
    }
    const bool overflows = extent != 0 && count > std::numeric_limits<int64_t>::max() / extent;
    count = overflows ? std::numeric_limits<int64_t>::max() : count * extent;
  }
  if (is_param_) return true;  // accesses keep using the parameter's own storage and shape
  uint8_t* data = AcquireStorage(f, spec_, count, owned);
  if (data == nullptr) return false;
  const bool local = spec_.scope == MemScope::kLocal;
  f.tensors[tensor_slot_] =
      TensorView{data, count, spec_.elem_bytes, region.data(), region.data() + ndim, local};
  f.buffers[buffer_slot_] = BufferView{data, count, spec_.elem_bytes, local};
  return true;
}

void RealizeCode::Run(Frame& f) const {
  const TensorView saved_tensor = f.tensors[tensor_slot_];
  const BufferView saved_buffer = f.buffers[buffer_slot_];
  std::vector<int64_t> region;
  Storage owned;
  if (Bind(f, region, &owned)) body_->Run(f);
  f.tensors[tensor_slot_] = saved_tensor;
  f.buffers[buffer_slot_] = saved_buffer;
}

}  // namespace tunefarm::interp
