#include "runtime/signature_text.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/data_type.h"

namespace tunefarm::runtime {
namespace {

std::string ArgText(const ArgSpec& arg) {
  std::string type = DataTypeToString(arg.dtype);
  switch (arg.kind) {
    case ArgKind::kTensor: {
      std::vector<std::string> dims;
      for (const DimSpec& d : arg.shape) {
        dims.push_back(d.is_symbol() ? d.symbol : absl::StrCat(d.value));
      }
      return absl::StrCat(arg.name, ": ", type, "[", absl::StrJoin(dims, ", "), "]");
    }
    case ArgKind::kHandle:
      return absl::StrCat(arg.name, ": handle");
    case ArgKind::kInt:
    case ArgKind::kFloat:
      return absl::StrCat(arg.name, ": ", type);
  }
  return arg.name;
}

}  // namespace

std::string SignatureText(const FunctionSignature& signature) {
  std::vector<std::string> args;
  for (const ArgSpec& a : signature.args) args.push_back(ArgText(a));
  return absl::StrCat(signature.name, "(", absl::StrJoin(args, ", "), ")");
}

}  // namespace tunefarm::runtime
