// `cfg["name"].val` and `cfg["name"].apply(s, T, axes)`: reading the value a knob takes in this
// run and applying it to a stage (split into the factors, reorder, annotate). The value is the
// config's in apply mode and the knob's fallback otherwise (tuning.h).
#include "absl/strings/str_cat.h"
#include "compiler/ir/arith/analyzer.h"
#include "compiler/script/evaluator.h"
#include "compiler/space/annotate_knob.h"
#include "compiler/space/choice_knob.h"
#include "compiler/space/reorder_knob.h"
#include "compiler/space/split_knob.h"

namespace tunefarm::script {
namespace {

const Tuning::Entry& EntryOf(CallContext& ctx) {
  return *ctx.evaluator.tuning().Find(ctx.self.as<KnobRef>().name);
}

Value IntList(const std::vector<int64_t>& ints) {
  std::vector<Value> items;
  for (int64_t v : ints) items.push_back(Value::Int(v));
  return Value::List(std::move(items), false);
}

// The knob's value as a script value: split factors and permutations are lists of integers,
// annotations strings, plain choices an integer or a string.
Value KnobValueOf(const Tuning::Entry& entry) {
  space::KnobValue v = entry.knob->ValueAt(entry.index);
  if (const auto* ints = std::get_if<std::vector<int64_t>>(&v)) return IntList(*ints);
  if (const auto* i = std::get_if<int64_t>(&v)) return Value::Int(*i);
  return Value::String(std::get<std::string>(v));
}

// The schedule's error after a primitive, reported at the apply call.
absl::Status ScheduleError(const CallContext& ctx, const schedule::Schedule& s) {
  if (s.error().ok()) return absl::OkStatus();
  return ctx.Error(std::string(s.error().message()));
}

// apply(s, T, axes) for every kind: the schedule, the stage of T and the axes argument.
struct ApplyArgs {
  schedule::Schedule schedule;
  te::Tensor tensor;
  const Arg* axes;
};

absl::StatusOr<ApplyArgs> BindApply(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"s"}, {"op"}, {"axes"}});
  if (!args.ok()) return args.status();
  const auto& a = *args;
  if (!a[0]->value.is(Value::Kind::kSchedule)) {
    return ctx.TypeError(*a[0], "s", "a schedule (create_schedule(...))");
  }
  ApplyArgs result{a[0]->value.as<schedule::Schedule>(), te::Tensor(), a[2]};
  absl::StatusOr<te::Tensor> t = ArgTensor(ctx, *a[1], "op");
  if (!t.ok()) return t.status();
  if (!result.schedule.Contains(*t)) {
    return ctx.Error(a[1]->pos,
                     absl::StrCat(ctx.name, ": tensor ", t->name(), " is not in this schedule"));
  }
  result.tensor = *t;
  return result;
}

absl::StatusOr<Value> ApplySplit(CallContext& ctx, const ApplyArgs& a) {
  const auto& knob = static_cast<const space::SplitKnob&>(*EntryOf(ctx).knob);
  absl::StatusOr<std::vector<ir::IterVar>> axes = ArgIterVars(ctx, *a.axes, "axes");
  if (!axes.ok()) return axes.status();
  if (axes->size() != 1) {
    return ctx.Error(a.axes->pos, absl::StrCat(ctx.name, ": a split knob applies to one axis, got ",
                                               axes->size()));
  }
  ir::IterVar axis = axes->front();
  if (axis->dom.extent.defined()) {
    arith::Analyzer analyzer;
    std::optional<int64_t> extent = ir::AsConstInt(analyzer.Simplify(axis->dom.extent));
    if (extent && *extent != knob.extent()) {
      return ctx.Error(a.axes->pos,
                       absl::StrCat(ctx.name, ": axis ", axis->var.name(), " has extent ", *extent,
                                    " but the knob splits an extent of ", knob.extent()));
    }
  }
  // Split off the innermost part first; what stays outer is split again.
  const std::vector<int64_t>& factors = knob.FactorsAt(EntryOf(ctx).index);
  std::vector<ir::IterVar> parts(factors.size());
  schedule::Stage& stage = a.schedule[a.tensor];
  for (size_t i = factors.size() - 1; i > 0; --i) {
    ir::IterVar outer, inner;
    stage.split(axis, ir::IntImm(axis->var.dtype(), factors[i]), &outer, &inner);
    if (absl::Status st = ScheduleError(ctx, a.schedule); !st.ok()) return st;
    parts[i] = inner;
    axis = outer;
  }
  parts[0] = axis;
  return Value::AxisList(parts);
}

absl::StatusOr<std::vector<ir::IterVar>> CountedAxes(CallContext& ctx, const Arg& arg, int want,
                                                     absl::string_view what) {
  absl::StatusOr<std::vector<ir::IterVar>> axes = ArgIterVars(ctx, arg, "axes");
  if (!axes.ok()) return axes;
  if (static_cast<int>(axes->size()) != want) {
    return ctx.Error(arg.pos, absl::StrCat(ctx.name, ": the knob was defined ", what, " ", want,
                                           want == 1 ? " axis" : " axes", ", got ", axes->size()));
  }
  return axes;
}

absl::StatusOr<Value> ApplyReorder(CallContext& ctx, const ApplyArgs& a) {
  const auto& knob = static_cast<const space::ReorderKnob&>(*EntryOf(ctx).knob);
  absl::StatusOr<std::vector<ir::IterVar>> axes =
      CountedAxes(ctx, *a.axes, knob.num_axes(), "to order");
  if (!axes.ok()) return axes.status();
  std::vector<ir::IterVar> order;
  for (int64_t p : knob.PermutationAt(EntryOf(ctx).index)) order.push_back((*axes)[p]);
  a.schedule[a.tensor].reorder(order);
  if (absl::Status st = ScheduleError(ctx, a.schedule); !st.ok()) return st;
  return Value::AxisList(order);
}

// unroll: every axis given; vectorize: the last (innermost) one; parallel: the first one.
absl::StatusOr<Value> ApplyAnnotate(CallContext& ctx, const ApplyArgs& a) {
  const Tuning::Entry& entry = EntryOf(ctx);
  const auto& knob = static_cast<const space::AnnotateKnob&>(*entry.knob);
  absl::StatusOr<std::vector<ir::IterVar>> axes =
      CountedAxes(ctx, *a.axes, entry.num_axes, "to annotate");
  if (!axes.ok()) return axes.status();
  schedule::Stage& stage = a.schedule[a.tensor];
  switch (knob.AnnotationAt(entry.index)) {
    case space::Annotation::kNone:
      break;
    case space::Annotation::kUnroll:
      for (const ir::IterVar& axis : *axes) stage.unroll(axis);
      break;
    case space::Annotation::kVectorize:
      stage.vectorize(axes->back());
      break;
    case space::Annotation::kParallel:
      stage.parallel(axes->front());
      break;
  }
  if (absl::Status st = ScheduleError(ctx, a.schedule); !st.ok()) return st;
  return Value();
}

absl::StatusOr<Value> Apply(CallContext& ctx) {
  absl::StatusOr<ApplyArgs> a = BindApply(ctx);
  if (!a.ok()) return a.status();
  switch (EntryOf(ctx).knob->kind()) {
    case space::KnobKind::kSplit:
      return ApplySplit(ctx, *a);
    case space::KnobKind::kReorder:
      return ApplyReorder(ctx, *a);
    case space::KnobKind::kAnnotate:
      return ApplyAnnotate(ctx, *a);
    case space::KnobKind::kChoice:
      break;
  }
  return ctx.Error(absl::StrCat(ctx.name, ": a knob of plain values has nothing to apply; read ",
                                "its value with .val"));
}

}  // namespace

std::optional<Value> KnobAttribute(Evaluator& evaluator, const Value& knob,
                                   const std::string& name) {
  const std::string& knob_name = knob.as<KnobRef>().name;
  const Tuning::Entry* entry = evaluator.tuning().Find(knob_name);
  if (entry == nullptr) return std::nullopt;
  if (name == "val") return KnobValueOf(*entry);
  if (name == "size" && entry->knob->kind() == space::KnobKind::kSplit) return KnobValueOf(*entry);
  if (name == "apply") {
    return Value::FromFunction(Function{absl::StrCat("cfg[\"", knob_name, "\"].apply"), Apply,
                                        std::make_shared<const Value>(knob)});
  }
  return std::nullopt;
}

}  // namespace tunefarm::script
