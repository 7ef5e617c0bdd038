#include "compiler/interp/memory_code.h"

#include <type_traits>
#include <utility>

#include "absl/strings/str_cat.h"

namespace tunefarm::interp {
namespace {

void ReportFlat(Frame& f, const char* what, const std::string& name, int64_t index, int64_t size) {
  f.Fail(absl::OutOfRangeError(
      absl::StrCat(what, " ", name, "[", index, "]: index out of bounds [0, ", size, ")")));
}

// Row-major offset of the indices idx[0], idx[stride], ... in `t`; reports an index outside its
// dimension's range and returns false.
bool TensorOffset(Frame& f, const TensorView& t, const Lane* idx, int ndim, int stride,
                  const char* what, const std::string& name, int64_t* offset) {
  int64_t off = 0;
  for (int d = 0; d < ndim; ++d) {
    const int64_t i = idx[d * stride].i;
    // Wrapping subtraction: extreme indices must be reported, not overflow.
    const auto rel =
        static_cast<int64_t>(static_cast<uint64_t>(i) - static_cast<uint64_t>(t.min[d]));
    if (rel < 0 || rel >= t.extent[d]) [[unlikely]] {
      f.Fail(absl::OutOfRangeError(absl::StrCat(what, " ", name, ": index ", i, " of dimension ", d,
                                                " out of bounds [", t.min[d], ", ",
                                                t.min[d] + t.extent[d], ")")));
      return false;
    }
    off = off * t.extent[d] + rel;
  }
  *offset = off;
  return true;
}

bool MaskedOff(const Frame& f, int lanes, int lane) {
  return f.mask_lanes == lanes && f.lane_mask != nullptr && f.lane_mask[lane].i == 0;
}

template <typename T>
class LoadCode final : public ExprCode {
 public:
  LoadCode(int slot, const ExprCode* index, std::string name)
      : ExprCode(index->lanes()), slot_(slot), index_(index), name_(std::move(name)) {}

  Lane Scalar(Frame& f) const override {
    const int64_t i = index_->Scalar(f).i;
    const BufferView& b = f.buffers[slot_];
    if (static_cast<uint64_t>(i) >= static_cast<uint64_t>(b.size)) [[unlikely]] {
      ReportFlat(f, "Load", name_, i, b.size);
      return IntLane(0);
    }
    return ReadElement<T>(b.data + i * static_cast<int64_t>(sizeof(T)));
  }

  void Vector(Frame& f, Lane* out) const override {
    Value idx(lanes());
    index_->Vector(f, idx.data());
    const BufferView& b = f.buffers[slot_];
    for (int l = 0; l < lanes(); ++l) {
      out[l] = IntLane(0);
      if (MaskedOff(f, lanes(), l)) continue;
      const int64_t i = idx[l].i;
      if (static_cast<uint64_t>(i) >= static_cast<uint64_t>(b.size)) {
        ReportFlat(f, "Load", name_, i, b.size);
        return;
      }
      out[l] = ReadElement<T>(b.data + i * static_cast<int64_t>(sizeof(T)));
    }
  }

 private:
  const int slot_;
  const ExprCode* index_;
  const std::string name_;
};

template <typename T>
class StoreCode final : public StmtCode {
 public:
  StoreCode(int slot, const ExprCode* index, const ExprCode* value, std::string name)
      : StmtCode(false), slot_(slot), index_(index), value_(value), name_(std::move(name)) {}

  void Run(Frame& f) const override {
    if (value_->lanes() == 1) {
      const Lane v = value_->Scalar(f);
      const int64_t i = index_->Scalar(f).i;
      if (f.failed()) return;
      Write(f, i, v);
      return;
    }
    Value v(value_->lanes()), idx(value_->lanes());
    value_->Vector(f, v.data());
    index_->Vector(f, idx.data());
    for (int l = 0; l < value_->lanes() && !f.failed(); ++l) Write(f, idx[l].i, v[l]);
  }

 private:
  void Write(Frame& f, int64_t i, Lane v) const {
    const BufferView& b = f.buffers[slot_];
    if (static_cast<uint64_t>(i) >= static_cast<uint64_t>(b.size)) [[unlikely]] {
      ReportFlat(f, "Store", name_, i, b.size);
      return;
    }
    WriteElement<T>(b.data + i * static_cast<int64_t>(sizeof(T)), v);
  }

  const int slot_;
  const ExprCode* index_;
  const ExprCode* value_;
  const std::string name_;
};

template <typename T>
class TensorLoadCode final : public ExprCode {
 public:
  TensorLoadCode(int slot, std::vector<const ExprCode*> indices, std::string name)
      : ExprCode(1), slot_(slot), indices_(std::move(indices)), name_(std::move(name)) {}

  Lane Scalar(Frame& f) const override {
    const int ndim = static_cast<int>(indices_.size());
    Value idx(ndim);
    for (int d = 0; d < ndim; ++d) idx[d] = indices_[d]->Scalar(f);
    const TensorView& t = f.tensors[slot_];
    int64_t off = 0;
    if (!TensorOffset(f, t, idx.data(), ndim, 1, "BufferLoad", name_, &off)) return IntLane(0);
    return ReadElement<T>(t.data + off * static_cast<int64_t>(sizeof(T)));
  }

 private:
  const int slot_;
  const std::vector<const ExprCode*> indices_;
  const std::string name_;
};

template <typename T>
class TensorStoreCode final : public StmtCode {
 public:
  TensorStoreCode(int slot, std::vector<const ExprCode*> indices, const ExprCode* value,
                  std::string name)
      : StmtCode(false),
        slot_(slot),
        indices_(std::move(indices)),
        value_(value),
        name_(std::move(name)) {}

  // Indices are laid out dimension-major (`lanes` entries per dimension), scalars repeated.
  void Run(Frame& f) const override {
    const int ndim = static_cast<int>(indices_.size()), lanes = value_->lanes();
    Value v(lanes), idx(ndim * lanes);
    value_->Vector(f, v.data());
    for (int d = 0; d < ndim; ++d) {
      Lane* row = idx.data() + d * lanes;
      if (indices_[d]->lanes() == 1) {
        const Lane i = indices_[d]->Scalar(f);
        for (int l = 0; l < lanes; ++l) row[l] = i;
      } else {
        indices_[d]->Vector(f, row);
      }
    }
    if (f.failed()) return;
    const TensorView& t = f.tensors[slot_];
    for (int l = 0; l < lanes; ++l) {
      int64_t off = 0;
      if (!TensorOffset(f, t, idx.data() + l, ndim, lanes, "BufferStore", name_, &off)) return;
      WriteElement<T>(t.data + off * static_cast<int64_t>(sizeof(T)), v[l]);
    }
  }

 private:
  const int slot_;
  const std::vector<const ExprCode*> indices_;
  const ExprCode* value_;
  const std::string name_;
};

// Instantiates Code<T> for the C type T that stores `elem`.
template <template <typename> class Code, typename... Args>
auto NewForElement(CodeArena& arena, ir::DataType elem, Args&&... args) {
  using Base = std::conditional_t<std::is_base_of_v<ExprCode, Code<int>>, ExprCode, StmtCode>;
  const Base* code = nullptr;
  auto make = [&](auto tag) { code = arena.New<Code<decltype(tag)>>(std::forward<Args>(args)...); };
  if (elem.is_bool()) {
    make(bool{});
  } else if (elem.is_float()) {
    elem.bits() == 32 ? make(float{}) : make(double{});
  } else if (elem.is_int()) {
    switch (elem.bits()) {
      case 8:
        make(int8_t{});
        break;
      case 16:
        make(int16_t{});
        break;
      case 32:
        make(int32_t{});
        break;
      default:
        make(int64_t{});
        break;
    }
  } else {
    switch (elem.bits()) {
      case 8:
        make(uint8_t{});
        break;
      case 16:
        make(uint16_t{});
        break;
      case 32:
        make(uint32_t{});
        break;
      default:
        make(uint64_t{});
        break;
    }
  }
  return code;
}

}  // namespace

const ExprCode* MakeLoadCode(CodeArena& arena, ir::DataType elem, int buffer_slot,
                             const ExprCode* index, std::string name) {
  return NewForElement<LoadCode>(arena, elem, buffer_slot, index, std::move(name));
}

const StmtCode* MakeStoreCode(CodeArena& arena, ir::DataType elem, int buffer_slot,
                              const ExprCode* index, const ExprCode* value, std::string name) {
  return NewForElement<StoreCode>(arena, elem, buffer_slot, index, value, std::move(name));
}

const ExprCode* MakeTensorLoadCode(CodeArena& arena, ir::DataType elem, int tensor_slot,
                                   std::vector<const ExprCode*> indices, std::string name) {
  return NewForElement<TensorLoadCode>(arena, elem, tensor_slot, std::move(indices),
                                       std::move(name));
}

const StmtCode* MakeTensorStoreCode(CodeArena& arena, ir::DataType elem, int tensor_slot,
                                    std::vector<const ExprCode*> indices, const ExprCode* value,
                                    std::string name) {
  return NewForElement<TensorStoreCode>(arena, elem, tensor_slot, std::move(indices), value,
                                        std::move(name));
}

}  // namespace tunefarm::interp
