// Builtins that schedule a computation: create_schedule, the schedule's cache_read/cache_write
// and the stage primitives (split, tile, fuse, reorder, bind, compute_at, ...). After each
// primitive the schedule's sticky error is checked and reported at the call.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "compiler/script/evaluator.h"

namespace tunefarm::script {
namespace {

const schedule::Schedule& ScheduleOf(const CallContext& ctx) {
  if (ctx.self.is(Value::Kind::kStage)) return ctx.self.as<StageRef>().schedule;
  return ctx.self.as<schedule::Schedule>();
}

schedule::Stage& StageOf(const CallContext& ctx) {
  const StageRef& ref = ctx.self.as<StageRef>();
  return ref.schedule[ref.tensor];
}

// The result of a primitive, or the schedule's error (which names the stage and axis).
absl::StatusOr<Value> Checked(const CallContext& ctx, Value result) {
  const absl::Status& error = ScheduleOf(ctx).error();
  if (!error.ok()) return ctx.Error(std::string(error.message()));
  return result;
}

Value Axes(std::vector<ir::IterVar> axes) {
  std::vector<Value> items;
  for (ir::IterVar& iv : axes) items.push_back(Value::FromIterVar(std::move(iv)));
  return Value::List(std::move(items), true);
}

absl::StatusOr<Value> CreateSchedule(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"ops"}});
  if (!args.ok()) return args.status();
  absl::StatusOr<std::vector<te::Tensor>> outputs = ArgTensors(ctx, *(*args)[0], "ops");
  if (!outputs.ok()) return outputs.status();
  if (outputs->empty()) return ctx.Error((*args)[0]->pos, "create_schedule: no outputs given");
  std::vector<te::Operation> ops;
  for (const te::Tensor& t : *outputs) ops.push_back(t.op());
  schedule::Schedule s = schedule::Schedule::Create(ops);
  ctx.evaluator.NoteSchedule(s);
  return Value::FromSchedule(std::move(s));
}

absl::StatusOr<Value> Split(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"parent"}, {"factor", false}, {"nparts", false}});
  if (!args.ok()) return args.status();
  const auto& a = *args;
  absl::StatusOr<ir::IterVar> parent = ArgIterVar(ctx, *a[0], "parent");
  if (!parent.ok()) return parent.status();
  if ((a[1] == nullptr) == (a[2] == nullptr)) {
    return ctx.Error(a[1] ? "split: give only one of factor and nparts"
                          : "split() missing required argument 'factor' (or 'nparts')");
  }
  const Arg& amount = a[1] ? *a[1] : *a[2];
  absl::StatusOr<ir::Expr> value = ArgIntExpr(ctx, amount, a[1] ? "factor" : "nparts");
  if (!value.ok()) return value.status();
  ir::IterVar outer, inner;
  if (a[1]) {
    StageOf(ctx).split(*parent, *value, &outer, &inner);
  } else {
    StageOf(ctx).split_by_nparts(*parent, *value, &outer, &inner);
  }
  return Checked(ctx, Axes({outer, inner}));
}

absl::StatusOr<Value> Tile(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"x_parent"}, {"y_parent"}, {"x_factor"}, {"y_factor"}});
  if (!args.ok()) return args.status();
  const auto& a = *args;
  absl::StatusOr<ir::IterVar> x = ArgIterVar(ctx, *a[0], "x_parent");
  if (!x.ok()) return x.status();
  absl::StatusOr<ir::IterVar> y = ArgIterVar(ctx, *a[1], "y_parent");
  if (!y.ok()) return y.status();
  absl::StatusOr<ir::Expr> x_factor = ArgIntExpr(ctx, *a[2], "x_factor");
  if (!x_factor.ok()) return x_factor.status();
  absl::StatusOr<ir::Expr> y_factor = ArgIntExpr(ctx, *a[3], "y_factor");
  if (!y_factor.ok()) return y_factor.status();
  ir::IterVar xo, yo, xi, yi;
  StageOf(ctx).tile(*x, *y, *x_factor, *y_factor, &xo, &yo, &xi, &yi);
  return Checked(ctx, Axes({xo, yo, xi, yi}));
}

absl::StatusOr<std::vector<ir::IterVar>> PositionalAxes(const CallContext& ctx, size_t min) {
  if (absl::Status st = RequirePositional(ctx, min); !st.ok()) return st;
  std::vector<ir::IterVar> axes;
  for (const Arg& arg : ctx.args) {
    absl::StatusOr<ir::IterVar> iv = ArgIterVar(ctx, arg, "each argument");
    if (!iv.ok()) return iv.status();
    axes.push_back(*iv);
  }
  return axes;
}

// fuse(a, b, c) fuses successively: fuse(fuse(a, b), c).
absl::StatusOr<Value> Fuse(CallContext& ctx) {
  absl::StatusOr<std::vector<ir::IterVar>> axes = PositionalAxes(ctx, 1);
  if (!axes.ok()) return axes.status();
  ir::IterVar fused = axes->front();
  for (size_t i = 1; i < axes->size(); ++i) {
    ir::IterVar next;
    StageOf(ctx).fuse(fused, (*axes)[i], &next);
    if (!ScheduleOf(ctx).error().ok()) break;
    fused = next;
  }
  return Checked(ctx, Value::FromIterVar(fused));
}

absl::StatusOr<Value> Reorder(CallContext& ctx) {
  absl::StatusOr<std::vector<ir::IterVar>> axes = PositionalAxes(ctx, 1);
  if (!axes.ok()) return axes.status();
  StageOf(ctx).reorder(*axes);
  return Checked(ctx, Value());
}

absl::StatusOr<Value> Bind(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"ivar"}, {"thread_ivar"}});
  if (!args.ok()) return args.status();
  absl::StatusOr<ir::IterVar> axis = ArgIterVar(ctx, *(*args)[0], "ivar");
  if (!axis.ok()) return axis.status();
  absl::StatusOr<ir::IterVar> thread = ArgIterVar(ctx, *(*args)[1], "thread_ivar");
  if (!thread.ok()) return thread.status();
  if ((*thread)->iter_type != ir::IterVarType::kThreadIndex) {
    return ctx.Error((*args)[1]->pos, absl::StrCat("bind: thread_ivar must be a thread axis "
                                                   "(from thread_axis), got axis ",
                                                   (*thread)->var.name()));
  }
  StageOf(ctx).bind(*axis, *thread);
  return Checked(ctx, Value());
}

absl::StatusOr<Value> ComputeAt(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"parent"}, {"scope"}});
  if (!args.ok()) return args.status();
  const Arg& parent_arg = *(*args)[0];
  if (!parent_arg.value.is(Value::Kind::kStage)) {
    return ctx.TypeError(parent_arg, "parent", "a stage (s[T])");
  }
  const StageRef& parent_ref = parent_arg.value.as<StageRef>();
  schedule::Stage& parent = parent_ref.schedule[parent_ref.tensor];
  std::vector<schedule::Stage*> stages = ScheduleOf(ctx).stages();
  if (std::find(stages.begin(), stages.end(), &parent) == stages.end()) {
    return ctx.Error(parent_arg.pos, "compute_at: the parent stage belongs to another schedule");
  }
  absl::StatusOr<ir::IterVar> scope = ArgIterVar(ctx, *(*args)[1], "scope");
  if (!scope.ok()) return scope.status();
  StageOf(ctx).compute_at(parent, *scope);
  return Checked(ctx, Value());
}

// compute_inline() and compute_root().
template <schedule::Stage& (schedule::Stage::*primitive)()>
absl::StatusOr<Value> NoArgs(CallContext& ctx) {
  auto args = BindArgs(ctx, {});
  if (!args.ok()) return args.status();
  (StageOf(ctx).*primitive)();
  return Checked(ctx, Value());
}

// parallel(ax), vectorize(ax), unroll(ax).
template <schedule::Stage& (schedule::Stage::*primitive)(const ir::IterVar&)>
absl::StatusOr<Value> Annotate(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"var"}});
  if (!args.ok()) return args.status();
  absl::StatusOr<ir::IterVar> axis = ArgIterVar(ctx, *(*args)[0], "var");
  if (!axis.ok()) return axis.status();
  (StageOf(ctx).*primitive)(*axis);
  return Checked(ctx, Value());
}

absl::StatusOr<Value> Pragma(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"var"}, {"pragma_type"}});
  if (!args.ok()) return args.status();
  absl::StatusOr<ir::IterVar> axis = ArgIterVar(ctx, *(*args)[0], "var");
  if (!axis.ok()) return axis.status();
  absl::StatusOr<std::string> name = ArgString(ctx, *(*args)[1], "pragma_type");
  if (!name.ok()) return name.status();
  StageOf(ctx).pragma(*axis, *name);
  return Checked(ctx, Value());
}

// tensorize(var, intrin): intrin from a builtin such as dot_int8_intrin(16, "uint8", "int8").
absl::StatusOr<Value> Tensorize(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"var"}, {"intrin"}});
  if (!args.ok()) return args.status();
  absl::StatusOr<ir::IterVar> axis = ArgIterVar(ctx, *(*args)[0], "var");
  if (!axis.ok()) return axis.status();
  const Arg& intrin = *(*args)[1];
  if (!intrin.value.is(Value::Kind::kTensorIntrin)) {
    return ctx.Error(intrin.pos, absl::StrCat(ctx.name, ": intrin must be a tensor intrinsic, got ",
                                              TypeName(intrin.value)));
  }
  StageOf(ctx).tensorize(*axis, intrin.value.as<schedule::TensorIntrin>());
  return Checked(ctx, Value());
}

// The tensor argument of cache_read/cache_write, checked to be in the schedule.
absl::StatusOr<te::Tensor> ScheduledTensor(const CallContext& ctx, const Arg& arg,
                                           absl::string_view what) {
  absl::StatusOr<te::Tensor> t = ArgTensor(ctx, arg, what);
  if (!t.ok()) return t.status();
  if (!ScheduleOf(ctx).Contains(*t)) {
    return ctx.Error(arg.pos,
                     absl::StrCat(ctx.name, ": tensor ", t->name(), " is not in this schedule"));
  }
  return t;
}

absl::StatusOr<std::string> Scope(const CallContext& ctx, const Arg& arg) {
  absl::StatusOr<std::string> scope = ArgString(ctx, arg, "scope");
  if (!scope.ok()) return scope;
  if (*scope != "global" && *scope != "shared" && *scope != "local") {
    return ctx.Error(arg.pos, absl::StrCat(ctx.name, ": unknown scope \"", *scope,
                                           "\" (expected global, shared or local)"));
  }
  return scope;
}

absl::StatusOr<Value> CacheRead(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"tensor"}, {"scope"}, {"readers"}});
  if (!args.ok()) return args.status();
  const auto& a = *args;
  absl::StatusOr<te::Tensor> tensor = ScheduledTensor(ctx, *a[0], "tensor");
  if (!tensor.ok()) return tensor.status();
  absl::StatusOr<std::string> scope = Scope(ctx, *a[1]);
  if (!scope.ok()) return scope.status();
  absl::StatusOr<std::vector<te::Tensor>> readers = ArgTensors(ctx, *a[2], "readers");
  if (!readers.ok()) return readers.status();
  for (const te::Tensor& reader : *readers) {
    if (!ScheduleOf(ctx).Contains(reader)) {
      return ctx.Error(a[2]->pos, absl::StrCat("cache_read: reader ", reader.name(),
                                               " is not in this schedule"));
    }
  }
  schedule::Schedule s = ScheduleOf(ctx);
  absl::StatusOr<te::Tensor> cache = s.cache_read(*tensor, *scope, *readers);
  if (!cache.ok()) return ctx.Error(std::string(cache.status().message()));
  return Checked(ctx, Value::FromTensor(*std::move(cache)));
}

absl::StatusOr<Value> CacheWrite(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"tensor"}, {"scope"}});
  if (!args.ok()) return args.status();
  absl::StatusOr<te::Tensor> tensor = ScheduledTensor(ctx, *(*args)[0], "tensor");
  if (!tensor.ok()) return tensor.status();
  absl::StatusOr<std::string> scope = Scope(ctx, *(*args)[1]);
  if (!scope.ok()) return scope.status();
  schedule::Schedule s = ScheduleOf(ctx);
  absl::StatusOr<te::Tensor> cache = s.cache_write(*tensor, *scope);
  if (!cache.ok()) return ctx.Error(std::string(cache.status().message()));
  return Checked(ctx, Value::FromTensor(*std::move(cache)));
}

constexpr NativeEntry kScheduleBuiltins[] = {{"create_schedule", CreateSchedule}};

constexpr NativeEntry kStageMethods[] = {
    {"split", Split},
    {"tile", Tile},
    {"fuse", Fuse},
    {"reorder", Reorder},
    {"bind", Bind},
    {"compute_at", ComputeAt},
    {"compute_inline", NoArgs<&schedule::Stage::compute_inline>},
    {"compute_root", NoArgs<&schedule::Stage::compute_root>},
    {"parallel", Annotate<&schedule::Stage::parallel>},
    {"vectorize", Annotate<&schedule::Stage::vectorize>},
    {"unroll", Annotate<&schedule::Stage::unroll>},
    {"pragma", Pragma},
    {"tensorize", Tensorize},
};

constexpr NativeEntry kScheduleMethods[] = {
    {"cache_read", CacheRead},
    {"cache_write", CacheWrite},
};

}  // namespace

std::span<const NativeEntry> ScheduleBuiltins() { return kScheduleBuiltins; }
std::span<const NativeEntry> StageMethods() { return kStageMethods; }
std::span<const NativeEntry> ScheduleMethods() { return kScheduleMethods; }

}  // namespace tunefarm::script
