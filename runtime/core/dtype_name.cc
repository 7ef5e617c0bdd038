#include "runtime/core/dtype_name.h"

#include <charconv>
#include <cstdint>

namespace tunefarm::runtime {
namespace {

struct TypeName {
  std::string_view prefix;
  uint8_t code;
};

// "uint" before "int" so the longer prefix wins; "bfloat" before "float" likewise.
constexpr TypeName kTypeNames[] = {
    {"uint", kDLUInt}, {"int", kDLInt}, {"bfloat", kDLBfloat}, {"float", kDLFloat}};

bool ParsePositive(std::string_view text, int* out) {
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && ptr == text.data() + text.size() && *out > 0;
}

bool ValidBits(uint8_t code, int bits) {
  switch (code) {
    case kDLInt:
    case kDLUInt:
      return bits == 8 || bits == 16 || bits == 32 || bits == 64;
    case kDLFloat:
      return bits == 16 || bits == 32 || bits == 64;
    case kDLBfloat:
      return bits == 16;
    default:
      return false;
  }
}

std::string_view BaseName(uint8_t code) {
  switch (code) {
    case kDLInt:
      return "int";
    case kDLUInt:
      return "uint";
    case kDLFloat:
      return "float";
    case kDLBfloat:
      return "bfloat";
    default:
      return {};
  }
}

}  // namespace

std::string DTypeName(DLDataType t) {
  std::string name;
  if (t.code == kDLUInt && t.bits == 1) {
    name = "bool";
  } else if (t.code == kDLOpaqueHandle && t.bits == 64 && t.lanes == 1) {
    return "handle";
  } else if (ValidBits(t.code, t.bits)) {
    name = std::string(BaseName(t.code)) + std::to_string(t.bits);
  } else {
    return "unknown(" + std::to_string(t.code) + "," + std::to_string(t.bits) + "," +
           std::to_string(t.lanes) + ")";
  }
  if (t.lanes != 1) name += "x" + std::to_string(t.lanes);
  return name;
}

bool ParseDTypeName(std::string_view text, DLDataType* out) {
  std::string_view base = text;
  int lanes = 1;
  if (size_t x = base.rfind('x'); x != std::string_view::npos && x > 0) {
    if (!ParsePositive(base.substr(x + 1), &lanes) || lanes > 65535) return false;
    base = base.substr(0, x);
  }
  const auto lanes16 = static_cast<uint16_t>(lanes);
  if (base == "bool") {
    *out = DLDataType{kDLUInt, 1, lanes16};
    return true;
  }
  if (base == "handle") {
    if (lanes != 1) return false;
    *out = DLDataType{kDLOpaqueHandle, 64, 1};
    return true;
  }
  for (const TypeName& name : kTypeNames) {
    if (base.substr(0, name.prefix.size()) != name.prefix) continue;
    int bits = 0;
    if (!ParsePositive(base.substr(name.prefix.size()), &bits) || !ValidBits(name.code, bits)) {
      return false;
    }
    *out = DLDataType{name.code, static_cast<uint8_t>(bits), lanes16};
    return true;
  }
  return false;
}

}  // namespace tunefarm::runtime
