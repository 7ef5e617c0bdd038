// Builtins that make tensor intrinsics for `s[C].tensorize(axis, intrin)`:
// dot_int8_intrin(lanes, a_dtype="uint8", b_dtype="int8").
#include "absl/strings/str_cat.h"
#include "compiler/intrin/dot_int8.h"
#include "compiler/script/call_args.h"

namespace tunefarm::script {
namespace {

absl::StatusOr<Value> DotInt8(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"lanes"}, {"a_dtype", false}, {"b_dtype", false}});
  if (!args.ok()) return args.status();
  const std::vector<const Arg*>& a = *args;
  absl::StatusOr<int64_t> lanes = ArgInt(ctx, *a[0], "lanes");
  if (!lanes.ok()) return lanes.status();
  ir::DataType types[2] = {ir::DataType::UInt(8), ir::DataType::Int(8)};
  for (int i = 0; i < 2; ++i) {
    if (a[i + 1] == nullptr) continue;
    absl::StatusOr<ir::DataType> t = ArgDType(ctx, *a[i + 1], i == 0 ? "a_dtype" : "b_dtype");
    if (!t.ok()) return t.status();
    types[i] = *t;
  }
  if (*lanes < 1 || *lanes > 32) {
    return ctx.Error(a[0]->pos, absl::StrCat(ctx.name, ": lanes must be 1 to 32, got ", *lanes));
  }
  absl::StatusOr<schedule::TensorIntrin> intrin =
      intrin::DotInt8Intrin(static_cast<int>(*lanes), types[0], types[1]);
  if (!intrin.ok()) return ctx.Error(std::string(intrin.status().message()));
  return Value::FromTensorIntrin(*std::move(intrin));
}

constexpr NativeEntry kIntrinBuiltins[] = {{"dot_int8_intrin", DotInt8}};

}  // namespace

std::span<const NativeEntry> IntrinBuiltins() { return kIntrinBuiltins; }

}  // namespace tunefarm::script
