#include "tools/commands/signature_text.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/data_type.h"

namespace tunefarm::tools {
namespace {

std::string ArgText(const runtime::ArgSpec& arg) {
  std::string type = runtime::DataTypeToString(arg.dtype);
  switch (arg.kind) {
    case runtime::ArgKind::kTensor: {
      std::vector<std::string> dims;
      for (const runtime::DimSpec& d : arg.shape) {
        dims.push_back(d.is_symbol() ? d.symbol : absl::StrCat(d.value));
      }
      return absl::StrCat(arg.name, ": ", type, "[", absl::StrJoin(dims, ", "), "]");
    }
    case runtime::ArgKind::kHandle:
      return absl::StrCat(arg.name, ": handle");
    case runtime::ArgKind::kInt:
    case runtime::ArgKind::kFloat:
      return absl::StrCat(arg.name, ": ", type);
  }
  return arg.name;
}

}  // namespace

std::string SignatureText(const runtime::FunctionSignature& signature) {
  std::vector<std::string> args;
  for (const runtime::ArgSpec& a : signature.args) args.push_back(ArgText(a));
  return absl::StrCat(signature.name, "(", absl::StrJoin(args, ", "), ")");
}

}  // namespace tunefarm::tools
