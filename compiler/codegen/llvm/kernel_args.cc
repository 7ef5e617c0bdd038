#include "compiler/codegen/llvm/kernel_args.h"

#include <unordered_map>
#include <unordered_set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/codegen/llvm/build.h"
#include "compiler/codegen/llvm/free_vars.h"
#include "compiler/ir/printer.h"

namespace tunefarm::codegen {
namespace {

bool IsCIdentifier(const std::string& s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s) {
    bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

absl::Status Bad(const ir::PrimFunc& f, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrCat("function ", f.name, ": ", why));
}

runtime::ArgKind ScalarKind(ir::DataType t) {
  if (t.is_float()) return runtime::ArgKind::kFloat;
  if (t.is_handle()) return runtime::ArgKind::kHandle;
  return runtime::ArgKind::kInt;
}

// Checks that one name stands for one variable across the whole signature.
class NameTable {
 public:
  bool Claim(const ir::Var& v) {
    auto [it, inserted] = owners_.try_emplace(v.name(), v.get());
    return inserted || it->second == v.get();
  }

 private:
  std::unordered_map<std::string, const ir::VarNode*> owners_;
};

}  // namespace

DLDataType ToDLDataType(ir::DataType t) {
  uint8_t code = t.is_float()    ? kDLFloat
                 : t.is_int()    ? kDLInt
                 : t.is_handle() ? kDLOpaqueHandle
                                 : kDLUInt;
  return DLDataType{code, static_cast<uint8_t>(t.bits()), static_cast<uint16_t>(t.lanes())};
}

absl::StatusOr<KernelArgs> AnalyzeKernelArgs(const ir::PrimFunc& f) {
  if (!IsCIdentifier(f.name) || absl::StartsWith(f.name, "__tf_")) {
    return Bad(f, "the name must be a C identifier not starting with __tf_");
  }
  KernelArgs args;
  args.signature.name = f.name;
  NameTable names;
  std::unordered_set<const ir::VarNode*> bound;
  for (size_t p = 0; p < f.params.size(); ++p) {
    const ir::Buffer& b = f.params[p];
    if (!b->data.defined() || !b->data.dtype().is_handle()) {
      return Bad(f, absl::StrCat("parameter ", b->name, " has no data handle"));
    }
    if (b->dtype.is_void() || b->dtype.is_handle()) {
      return Bad(f, absl::StrCat("parameter ", b->name, " has element type ", b->dtype.ToString()));
    }
    bound.insert(b->data.get());
    runtime::ArgSpec spec{runtime::ArgKind::kTensor, b->name, ToDLDataType(b->dtype), {}};
    for (size_t d = 0; d < b->shape.size(); ++d) {
      const ir::Expr& extent = b->shape[d];
      if (std::optional<int64_t> c = ir::AsConstInt(extent)) {
        spec.shape.push_back(runtime::DimSpec::Const(*c));
        continue;
      }
      const auto* var = extent.As<ir::VarNode>();
      if (var == nullptr || !extent.dtype().is_int()) {
        return Bad(f, absl::StrCat("dimension ", d, " of ", b->name, " is ", ir::ToString(extent),
                                   "; an extent must be a constant or an integer variable"));
      }
      ir::Var v(std::static_pointer_cast<const ir::VarNode>(extent.node_ptr()));
      if (!names.Claim(v)) {
        return Bad(f, absl::StrCat("two different variables are named ", v.name()));
      }
      if (bound.insert(var).second) {
        args.shape_vars.push_back({v, static_cast<int>(p), static_cast<int>(d)});
      }
      spec.shape.push_back(runtime::DimSpec::Symbol(v.name()));
    }
    args.signature.args.push_back(std::move(spec));
  }
  for (const ir::Var& v : FreeVars(f.body)) {
    if (bound.count(v.get())) continue;
    if (v.dtype().is_vector() || v.dtype().is_void()) {
      return Bad(f, absl::StrCat("free variable ", v.name(), " has type ", v.dtype().ToString()));
    }
    if (!names.Claim(v))
      return Bad(f, absl::StrCat("two different variables are named ", v.name()));
    args.scalars.push_back(v);
    args.signature.args.push_back(
        runtime::ArgSpec{ScalarKind(v.dtype()), v.name(), ToDLDataType(v.dtype()), {}});
  }
  return args;
}

absl::StatusOr<runtime::FunctionSignature> SignatureOf(const ir::PrimFunc& func) {
  absl::StatusOr<KernelArgs> args = AnalyzeKernelArgs(func);
  if (!args.ok()) return args.status();
  return std::move(args->signature);
}

}  // namespace tunefarm::codegen
