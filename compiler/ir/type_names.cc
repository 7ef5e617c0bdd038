#include "compiler/ir/type_names.h"

namespace tunefarm::ir {

std::optional<DataType> ParseElementType(std::string_view text) {
  std::optional<DataType> t = DataType::Parse(text);
  if (!t || !t->is_scalar() || t->is_handle() || t->is_void()) return std::nullopt;
  return t;
}

const char* ElementTypeNames() {
  return "bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, "
         "float64";
}

}  // namespace tunefarm::ir
