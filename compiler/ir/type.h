// DataType: the scalar or vector type of an IR value (int/uint/float of 8-64 bits, bool, handle).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tunefarm::ir {

// A type is a code, a bit width and a lane count; bool is uint1, a handle is an opaque pointer.
class DataType {
 public:
  enum class Code : uint8_t { kInt, kUInt, kFloat, kHandle };

  constexpr DataType() = default;
  constexpr DataType(Code code, int bits, int lanes = 1)
      : code_(code), bits_(static_cast<uint8_t>(bits)), lanes_(static_cast<uint16_t>(lanes)) {}

  static constexpr DataType Int(int bits, int lanes = 1) { return {Code::kInt, bits, lanes}; }
  static constexpr DataType UInt(int bits, int lanes = 1) { return {Code::kUInt, bits, lanes}; }
  static constexpr DataType Float(int bits, int lanes = 1) { return {Code::kFloat, bits, lanes}; }
  static constexpr DataType Bool(int lanes = 1) { return {Code::kUInt, 1, lanes}; }
  static constexpr DataType Handle() { return {Code::kHandle, 64, 1}; }
  static constexpr DataType Void() { return {Code::kHandle, 0, 0}; }

  // Parses "float32", "int8", "uint16", "bool", "handle", with an optional "xN" lane suffix.
  static std::optional<DataType> Parse(std::string_view text);

  constexpr Code code() const { return code_; }
  constexpr int bits() const { return bits_; }
  constexpr int lanes() const { return lanes_; }
  constexpr int bytes() const { return (bits_ + 7) / 8; }
  constexpr bool is_int() const { return code_ == Code::kInt; }
  constexpr bool is_uint() const { return code_ == Code::kUInt && bits_ != 1; }
  constexpr bool is_bool() const { return code_ == Code::kUInt && bits_ == 1; }
  constexpr bool is_float() const { return code_ == Code::kFloat; }
  constexpr bool is_handle() const { return code_ == Code::kHandle && bits_ != 0; }
  constexpr bool is_void() const { return code_ == Code::kHandle && bits_ == 0; }
  // Integer-valued (int, uint or bool): the types index arithmetic works on.
  constexpr bool is_integral() const { return code_ == Code::kInt || code_ == Code::kUInt; }
  constexpr bool is_scalar() const { return lanes_ == 1; }
  constexpr bool is_vector() const { return lanes_ > 1; }

  constexpr DataType with_lanes(int lanes) const { return {code_, bits_, lanes}; }
  constexpr DataType element_of() const { return with_lanes(1); }

  std::string ToString() const;

  friend constexpr bool operator==(DataType a, DataType b) {
    return a.code_ == b.code_ && a.bits_ == b.bits_ && a.lanes_ == b.lanes_;
  }

 private:
  Code code_ = Code::kInt;
  uint8_t bits_ = 32;
  uint16_t lanes_ = 1;
};

}  // namespace tunefarm::ir
