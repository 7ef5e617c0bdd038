#include "runtime/data_type.h"

#include "absl/strings/str_cat.h"
#include "runtime/core/dtype_name.h"

namespace tunefarm::runtime {

// The names live in runtime/core so that manifests and argument errors use the same spelling.
absl::StatusOr<DLDataType> ParseDataType(std::string_view text) {
  DLDataType t;
  if (!ParseDTypeName(text, &t)) {
    return absl::InvalidArgumentError(absl::StrCat("bad dtype '", std::string(text), "'"));
  }
  return t;
}

std::string DataTypeToString(DLDataType t) { return DTypeName(t); }

}  // namespace tunefarm::runtime
