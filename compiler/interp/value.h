// Runtime values of the reference interpreter: one 8-byte Lane per vector lane, kept unboxed,
// and Value, a lane buffer with inline room for 16 lanes that holds vector temporaries.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>

#include "compiler/ir/check.h"
#include "compiler/ir/type.h"

namespace tunefarm::interp {

// One lane of a value. Integers (int, uint and bool of any width) are kept as int64 wrapped to
// their type: sign-extended for int, zero-extended for uint and bool (uint64 keeps its bit
// pattern). Floats are kept as double; a float32 lane always holds a float32-representable value,
// so every float32 operation rounds its result back to float.
union Lane {
  int64_t i;
  double f;
};

inline Lane IntLane(int64_t v) {
  Lane l;
  l.i = v;
  return l;
}
inline Lane FloatLane(double v) {
  Lane l;
  l.f = v;
  return l;
}

// How the lanes of a type are computed on; bool is kUInt of 1 bit.
enum class ScalarKind : uint8_t { kInt, kUInt, kFloat32, kFloat64 };

constexpr bool IsFloatKind(ScalarKind k) {
  return k == ScalarKind::kFloat32 || k == ScalarKind::kFloat64;
}

// The kind of an int/uint/bool/float32/float64 type (the builder rejects all other types).
inline ScalarKind KindOf(ir::DataType t) {
  if (t.is_float()) {
    TF_CHECK(t.bits() == 32 || t.bits() == 64) << "no scalar kind for " << t.ToString();
    return t.bits() == 32 ? ScalarKind::kFloat32 : ScalarKind::kFloat64;
  }
  TF_CHECK(t.is_integral()) << "no scalar kind for " << t.ToString();
  return t.is_int() ? ScalarKind::kInt : ScalarKind::kUInt;
}

// Integers are wrapped to `bits` by a shift pair; `shift` is 64 - bits (0 for 64-bit types).
inline int64_t WrapSigned(uint64_t v, int shift) {
  return static_cast<int64_t>(v << shift) >> shift;
}
inline int64_t WrapUnsigned(uint64_t v, int shift) {
  return static_cast<int64_t>((v << shift) >> shift);
}
inline int ShiftOf(ir::DataType t) { return 64 - t.bits(); }

// The lane of kind K for an integer result `v` (wrapped) or a float result `v` (rounded).
template <ScalarKind K>
inline Lane MakeIntLane(uint64_t v, int shift) {
  return IntLane(K == ScalarKind::kInt ? WrapSigned(v, shift) : WrapUnsigned(v, shift));
}
template <ScalarKind K>
inline Lane MakeFloatLane(double v) {
  return FloatLane(K == ScalarKind::kFloat32 ? static_cast<double>(static_cast<float>(v)) : v);
}

// Reads and writes one element of C type T (bool is one byte) at `p`, which may be unaligned.
template <typename T>
inline Lane ReadElement(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  if constexpr (std::is_same_v<T, bool>) {
    return IntLane(*p != 0);  // any nonzero byte (poison included) reads as true
  } else if constexpr (std::is_floating_point_v<T>) {
    return FloatLane(static_cast<double>(v));
  } else {
    return IntLane(static_cast<int64_t>(v));
  }
}
template <typename T>
inline void WriteElement(uint8_t* p, Lane l) {
  T v;
  if constexpr (std::is_same_v<T, bool>) {
    v = l.i != 0;
  } else if constexpr (std::is_floating_point_v<T>) {
    v = static_cast<T>(l.f);
  } else {
    v = static_cast<T>(l.i);
  }
  std::memcpy(p, &v, sizeof(T));
}

// A vector temporary: `lanes` lanes, inline up to kInlineLanes, on the heap beyond. Not copyable
// (it points into itself); vector code evaluates children into Values on its stack.
class Value {
 public:
  static constexpr int kInlineLanes = 16;

  explicit Value(int lanes)
      : heap_(lanes > kInlineLanes ? std::make_unique<Lane[]>(lanes) : nullptr),
        data_(heap_ ? heap_.get() : inline_) {}
  Value(const Value&) = delete;
  Value& operator=(const Value&) = delete;

  Lane* data() { return data_; }
  const Lane* data() const { return data_; }
  Lane& operator[](int lane) { return data_[lane]; }
  const Lane& operator[](int lane) const { return data_[lane]; }

 private:
  Lane inline_[kInlineLanes];
  std::unique_ptr<Lane[]> heap_;
  Lane* data_;
};

}  // namespace tunefarm::interp
