#include "compiler/ir/type.h"

#include <charconv>

namespace tunefarm::ir {
namespace {

std::optional<int> ParseInt(std::string_view text) {
  int value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || value <= 0) return std::nullopt;
  return value;
}

bool ValidBits(DataType::Code code, int bits) {
  if (code == DataType::Code::kFloat) return bits == 16 || bits == 32 || bits == 64;
  return bits == 8 || bits == 16 || bits == 32 || bits == 64;
}

}  // namespace

std::optional<DataType> DataType::Parse(std::string_view text) {
  int lanes = 1;
  if (auto x = text.rfind('x'); x != std::string_view::npos && x > 0) {
    auto parsed = ParseInt(text.substr(x + 1));
    // The lane count is 16 bits: a larger one must not wrap around (float32x65537 is no float32).
    if (!parsed || *parsed > 0xFFFF) return std::nullopt;
    lanes = *parsed;
    text = text.substr(0, x);
  }
  if (text == "bool") return Bool(lanes);
  if (text == "handle") return lanes == 1 ? std::optional(Handle()) : std::nullopt;
  struct Prefix {
    std::string_view name;
    Code code;
  };
  for (Prefix p :
       {Prefix{"uint", Code::kUInt}, Prefix{"int", Code::kInt}, Prefix{"float", Code::kFloat}}) {
    if (text.substr(0, p.name.size()) != p.name) continue;
    auto bits = ParseInt(text.substr(p.name.size()));
    if (!bits || !ValidBits(p.code, *bits)) return std::nullopt;
    return DataType(p.code, *bits, lanes);
  }
  return std::nullopt;
}

std::string DataType::ToString() const {
  if (is_void()) return "void";
  std::string base;
  if (is_bool()) {
    base = "bool";
  } else if (is_handle()) {
    base = "handle";
  } else {
    base = (code_ == Code::kInt    ? "int"
            : code_ == Code::kUInt ? "uint"
                                   : "float") +
           std::to_string(bits_);
  }
  if (lanes_ != 1) base += "x" + std::to_string(lanes_);
  return base;
}

}  // namespace tunefarm::ir
