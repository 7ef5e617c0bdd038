#include "runtime/data_type.h"

#include <charconv>

#include "absl/strings/str_cat.h"

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

}  // namespace

absl::StatusOr<DLDataType> ParseDataType(std::string_view text) {
  auto invalid = [&] {
    return absl::InvalidArgumentError(absl::StrCat("bad dtype '", std::string(text), "'"));
  };
  std::string_view base = text;
  int lanes = 1;
  if (size_t x = base.rfind('x'); x != std::string_view::npos && x > 0) {
    if (!ParsePositive(base.substr(x + 1), &lanes) || lanes > 65535) return invalid();
    base = base.substr(0, x);
  }
  const auto lanes16 = static_cast<uint16_t>(lanes);
  if (base == "bool") return DLDataType{kDLUInt, 1, lanes16};
  if (base == "handle") {
    if (lanes != 1) return invalid();
    return DLDataType{kDLOpaqueHandle, 64, 1};
  }
  for (const TypeName& name : kTypeNames) {
    if (base.substr(0, name.prefix.size()) != name.prefix) continue;
    int bits = 0;
    if (!ParsePositive(base.substr(name.prefix.size()), &bits) || !ValidBits(name.code, bits)) {
      return invalid();
    }
    return DLDataType{name.code, static_cast<uint8_t>(bits), lanes16};
  }
  return invalid();
}

std::string DataTypeToString(DLDataType t) {
  std::string base;
  if (t.code == kDLUInt && t.bits == 1) {
    base = "bool";
  } else if (t.code == kDLOpaqueHandle && t.bits == 64) {
    base = "handle";
  } else if (t.code <= kDLBfloat && t.code != kDLOpaqueHandle && ValidBits(t.code, t.bits)) {
    const char* names[] = {"int", "uint", "float", "", "bfloat"};
    base = absl::StrCat(names[t.code], t.bits);
  } else {
    return absl::StrCat("unknown(", t.code, ",", t.bits, ",", t.lanes, ")");
  }
  if (t.lanes != 1) absl::StrAppend(&base, "x", t.lanes);
  return base;
}

}  // namespace tunefarm::runtime
