// `cfg.define_split`, `define_reorder`, `define_annotate`, `define_knob` and `cfg.is_fallback`:
// declaring a script's tuning knobs (docs/te-script.md, "Tunable scripts"). Each definition
// builds a compiler/space knob and hands it to the run's Tuning state, which declares it into
// the space or checks it against the config being applied.
#include "absl/strings/str_cat.h"
#include "compiler/ir/arith/analyzer.h"
#include "compiler/ir/printer.h"
#include "compiler/script/evaluator.h"
#include "compiler/space/annotate_knob.h"
#include "compiler/space/choice_knob.h"
#include "compiler/space/reorder_knob.h"
#include "compiler/space/split_knob.h"

namespace tunefarm::script {
namespace {

// "cfg.define_split('tile_x'): " before a message about that knob.
std::string Prefix(const CallContext& ctx, const std::string& knob) {
  return absl::StrCat(ctx.name, "('", knob, "'): ");
}

absl::StatusOr<std::string> KnobName(const CallContext& ctx, const Arg& arg) {
  absl::StatusOr<std::string> name = ArgString(ctx, arg, "name");
  if (!name.ok()) return name;
  if (name->empty()) return ctx.Error(arg.pos, absl::StrCat(ctx.name, ": the knob name is empty"));
  return name;
}

// A compiler/space message without its own "split knob 'x': " lead (the prefix names the knob).
std::string SpaceMessage(const absl::Status& st, const std::string& knob) {
  std::string message(st.message());
  const std::string lead = absl::StrCat("knob '", knob, "': ");
  size_t at = message.find(lead);
  if (at != std::string::npos && message.find(' ') + 1 >= at) message.erase(0, at + lead.size());
  return message;
}

// Declares the knob (or reports why `made` failed), with the call's position on any error.
absl::StatusOr<Value> Declare(CallContext& ctx, const std::string& name,
                              absl::StatusOr<std::unique_ptr<space::Knob>> made, int num_axes = 0) {
  if (!made.ok()) return ctx.Error(Prefix(ctx, name) + SpaceMessage(made.status(), name));
  absl::Status st = ctx.evaluator.tuning().Define(*std::move(made), num_axes);
  if (!st.ok()) return ctx.Error(Prefix(ctx, name) + std::string(st.message()));
  return Value();
}

template <typename K>
absl::StatusOr<std::unique_ptr<space::Knob>> Upcast(absl::StatusOr<std::unique_ptr<K>> knob) {
  if (!knob.ok()) return knob.status();
  return std::unique_ptr<space::Knob>(*std::move(knob));
}

// The constant extent of an axis (or a plain integer given instead of one).
absl::StatusOr<int64_t> ConstExtent(const CallContext& ctx, const Arg& arg,
                                    const std::string& knob) {
  if (arg.value.is(Value::Kind::kInt)) return arg.value.as<int64_t>();
  absl::StatusOr<ir::IterVar> axis = ArgIterVar(ctx, arg, "axis");
  if (!axis.ok()) return axis.status();
  const ir::Range& dom = (*axis)->dom;
  if (!dom.extent.defined()) {
    return ctx.Error(arg.pos, Prefix(ctx, knob) + absl::StrCat("axis ", (*axis)->var.name(),
                                                               " has no known extent; give an "
                                                               "axis of the computation"));
  }
  arith::Analyzer analyzer;
  ir::Expr extent = analyzer.Simplify(dom.extent);
  if (std::optional<int64_t> c = ir::AsConstInt(extent)) return *c;
  return ctx.Error(arg.pos, Prefix(ctx, knob) +
                                absl::StrCat("the extent of axis ", (*axis)->var.name(), " is ",
                                             ir::ToString(extent),
                                             ", not a constant: tuning needs constant shapes, so "
                                             "bind the script's variables (# bind: n=512)"));
}

// [[1, 2], [3, 4]]: a list of integer lists; an axis in a list counts as its position in `axes`.
absl::StatusOr<std::vector<std::vector<int64_t>>> IntLists(const CallContext& ctx, const Arg& arg,
                                                           const std::vector<ir::IterVar>& axes) {
  const char* expected = "a list of integer lists";
  if (!arg.value.is(Value::Kind::kList)) return ctx.TypeError(arg, "candidate", expected);
  std::vector<std::vector<int64_t>> lists;
  for (const Value& item : arg.value.items()) {
    if (!item.is(Value::Kind::kList)) return ctx.TypeError(arg, "candidate", expected);
    std::vector<int64_t> list;
    for (const Value& v : item.items()) {
      if (v.is(Value::Kind::kInt)) {
        list.push_back(v.as<int64_t>());
        continue;
      }
      int64_t at = -1;
      for (size_t i = 0; v.is(Value::Kind::kIterVar) && i < axes.size(); ++i) {
        if (axes[i].same_as(v.as<ir::IterVar>())) at = static_cast<int64_t>(i);
      }
      if (at < 0) {
        return ctx.Error(arg.pos, absl::StrCat(ctx.name, ": candidate must hold integers",
                                               axes.empty() ? "" : " or the knob's axes", ", got ",
                                               TypeName(v)));
      }
      list.push_back(at);
    }
    lists.push_back(std::move(list));
  }
  return lists;
}

absl::StatusOr<std::string> Policy(const CallContext& ctx, const Arg* arg,
                                   const std::string& fallback) {
  if (arg == nullptr) return fallback;
  return ArgString(ctx, *arg, "policy");
}

absl::Status UnknownPolicy(const CallContext& ctx, const Arg& arg, const std::string& policy,
                           absl::string_view known) {
  return ctx.Error(
      arg.pos, absl::StrCat(ctx.name, ": unknown policy \"", policy, "\" (expected ", known, ")"));
}

// cfg.define_split(name, axis, policy="factors", num_outputs=2, max_factor=0, candidate=None)
absl::StatusOr<Value> DefineSplit(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"name"},
                             {"axis"},
                             {"policy", false},
                             {"num_outputs", false},
                             {"max_factor", false},
                             {"candidate", false}});
  if (!args.ok()) return args.status();
  const auto& a = *args;
  absl::StatusOr<std::string> name = KnobName(ctx, *a[0]);
  if (!name.ok()) return name.status();
  absl::StatusOr<int64_t> extent = ConstExtent(ctx, *a[1], *name);
  if (!extent.ok()) return extent.status();
  space::SplitOptions options;
  options.extent = *extent;
  absl::StatusOr<std::string> policy = Policy(ctx, a[2], a[5] ? "candidate" : "factors");
  if (!policy.ok()) return policy.status();
  if (*policy == "factors") {
    options.policy = space::SplitPolicy::kAll;
  } else if (*policy == "power2") {
    options.policy = space::SplitPolicy::kPowerOfTwo;
  } else if (*policy == "candidate") {
    options.policy = space::SplitPolicy::kCandidates;
    if (a[5] == nullptr)
      return ctx.Error(Prefix(ctx, *name) + "policy \"candidate\" needs candidate=[[...], ...]");
    absl::StatusOr<std::vector<std::vector<int64_t>>> lists = IntLists(ctx, *a[5], {});
    if (!lists.ok()) return lists.status();
    options.candidates = *std::move(lists);
  } else {
    return UnknownPolicy(ctx, *a[2], *policy, "factors, power2 or candidate");
  }
  if (a[3]) {
    absl::StatusOr<int64_t> n = ArgInt(ctx, *a[3], "num_outputs");
    if (!n.ok()) return n.status();
    options.num_parts = static_cast<int>(std::clamp<int64_t>(*n, -1, 1000));
  }
  if (options.policy == space::SplitPolicy::kCandidates && !options.candidates.empty() && !a[3]) {
    options.num_parts = static_cast<int>(options.candidates.front().size());
  }
  if (a[4]) {
    absl::StatusOr<int64_t> m = ArgInt(ctx, *a[4], "max_factor");
    if (!m.ok()) return m.status();
    options.max_innermost = *m;
  }
  return Declare(ctx, *name, Upcast(space::SplitKnob::Make(*name, options)));
}

// cfg.define_reorder(name, axes, policy="all", candidate=None)
absl::StatusOr<Value> DefineReorder(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"name"}, {"axes"}, {"policy", false}, {"candidate", false}});
  if (!args.ok()) return args.status();
  const auto& a = *args;
  absl::StatusOr<std::string> name = KnobName(ctx, *a[0]);
  if (!name.ok()) return name.status();
  absl::StatusOr<std::vector<ir::IterVar>> axes = ArgIterVars(ctx, *a[1], "axes");
  if (!axes.ok()) return axes.status();
  absl::StatusOr<std::string> policy = Policy(ctx, a[2], a[3] ? "candidate" : "all");
  if (!policy.ok()) return policy.status();
  const int n = static_cast<int>(axes->size());
  if (*policy == "all") {
    return Declare(ctx, *name, Upcast(space::ReorderKnob::AllPermutations(*name, n)), n);
  }
  if (*policy != "candidate") return UnknownPolicy(ctx, *a[2], *policy, "all or candidate");
  if (a[3] == nullptr)
    return ctx.Error(Prefix(ctx, *name) + "policy \"candidate\" needs candidate=[[...], ...]");
  absl::StatusOr<std::vector<std::vector<int64_t>>> lists = IntLists(ctx, *a[3], *axes);
  if (!lists.ok()) return lists.status();
  for (const std::vector<int64_t>& order : *lists) {
    if (static_cast<int>(order.size()) != n) {
      return ctx.Error(a[3]->pos,
                       Prefix(ctx, *name) + absl::StrCat("a candidate orders ", order.size(),
                                                         " axes but the knob has ", n));
    }
  }
  return Declare(ctx, *name, Upcast(space::ReorderKnob::Candidates(*name, *std::move(lists))), n);
}

// cfg.define_annotate(name, axes, policy, candidate=None)
absl::StatusOr<Value> DefineAnnotate(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"name"}, {"axes"}, {"policy", false}, {"candidate", false}});
  if (!args.ok()) return args.status();
  const auto& a = *args;
  absl::StatusOr<std::string> name = KnobName(ctx, *a[0]);
  if (!name.ok()) return name.status();
  absl::StatusOr<std::vector<ir::IterVar>> axes = ArgIterVars(ctx, *a[1], "axes");
  if (!axes.ok()) return axes.status();
  if (axes->empty()) return ctx.Error(a[1]->pos, Prefix(ctx, *name) + "no axes given");
  absl::StatusOr<std::string> policy = Policy(ctx, a[2], a[3] ? "candidate" : "try_unroll");
  if (!policy.ok()) return policy.status();
  using space::Annotation;
  std::vector<Annotation> choices;
  if (*policy == "try_unroll") {
    choices = {Annotation::kNone, Annotation::kUnroll};
  } else if (*policy == "try_vec") {
    choices = {Annotation::kNone, Annotation::kVectorize};
  } else if (*policy == "try_unroll_vec") {
    choices = {Annotation::kNone, Annotation::kUnroll, Annotation::kVectorize};
  } else if (*policy == "try_parallel") {
    choices = {Annotation::kNone, Annotation::kParallel};
  } else if (*policy == "candidate") {
    if (a[3] == nullptr || !a[3]->value.is(Value::Kind::kList)) {
      return ctx.Error(Prefix(ctx, *name) +
                       "policy \"candidate\" needs candidate=[\"none\", \"unroll\", ...]");
    }
    for (const Value& v : a[3]->value.items()) {
      std::optional<Annotation> ann;
      if (v.is(Value::Kind::kString)) ann = space::ParseAnnotation(v.as<std::string>());
      if (!ann) {
        return ctx.Error(a[3]->pos, Prefix(ctx, *name) +
                                        "candidate must hold \"none\", \"unroll\", "
                                        "\"vectorize\" or \"parallel\"");
      }
      choices.push_back(*ann);
    }
  } else {
    return UnknownPolicy(ctx, a[2] ? *a[2] : *a[0], *policy,
                         "try_unroll, try_vec, try_unroll_vec, try_parallel or candidate");
  }
  return Declare(ctx, *name, Upcast(space::AnnotateKnob::Make(*name, std::move(choices))),
                 static_cast<int>(axes->size()));
}

// cfg.define_knob(name, candidate): a list of integers or strings.
absl::StatusOr<Value> DefineKnob(CallContext& ctx) {
  auto args = BindArgs(ctx, {{"name"}, {"candidate"}});
  if (!args.ok()) return args.status();
  const auto& a = *args;
  absl::StatusOr<std::string> name = KnobName(ctx, *a[0]);
  if (!name.ok()) return name.status();
  const Arg& list = *a[1];
  if (!list.value.is(Value::Kind::kList)) {
    return ctx.TypeError(list, "candidate", "a list of integers or strings");
  }
  std::vector<space::ChoiceValue> values;
  for (const Value& v : list.value.items()) {
    if (v.is(Value::Kind::kInt)) {
      values.emplace_back(v.as<int64_t>());
    } else if (v.is(Value::Kind::kString)) {
      values.emplace_back(v.as<std::string>());
    } else {
      return ctx.Error(list.pos, absl::StrCat(ctx.name,
                                              ": candidate must hold integers or "
                                              "strings, got ",
                                              TypeName(v)));
    }
  }
  return Declare(ctx, *name, Upcast(space::ChoiceKnob::Make(*name, std::move(values))));
}

constexpr NativeEntry kCfgMethods[] = {
    {"define_split", DefineSplit},
    {"define_reorder", DefineReorder},
    {"define_annotate", DefineAnnotate},
    {"define_knob", DefineKnob},
};

}  // namespace

std::optional<Value> CfgAttribute(Evaluator& evaluator, const std::string& name) {
  if (name == "is_fallback") return Value::Bool(evaluator.tuning().is_fallback());
  if (NativeFn fn = FindNative(kCfgMethods, name)) {
    return Value::FromFunction(Function{absl::StrCat("cfg.", name), fn, {}});
  }
  return std::nullopt;
}

}  // namespace tunefarm::script
