#include "compiler/script/script.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/script/bind_line.h"
#include "compiler/script/evaluator.h"
#include "compiler/script/lexer.h"
#include "compiler/script/parser.h"
#include "runtime/core/abbreviate.h"

namespace tunefarm::script {
namespace {

absl::StatusOr<std::vector<te::Tensor>> ArgsOf(const Evaluator& ev, Pos end) {
  const Value* args = ev.globals().Lookup("args");
  if (args == nullptr) {
    return ev.Error(end, "the script must end by naming its arguments: args = [A, B, ...]");
  }
  if (!args->is(Value::Kind::kList)) {
    return ev.Error(end, absl::StrCat("args must be a list of tensors, got ", TypeName(*args)));
  }
  std::vector<te::Tensor> tensors;
  for (size_t i = 0; i < args->items().size(); ++i) {
    const Value& item = args->items()[i];
    if (item.is(Value::Kind::kTensor)) {
      tensors.push_back(item.as<te::Tensor>());
    } else if (item.is(Value::Kind::kOperation)) {
      tensors.push_back(te::Tensor(item.as<te::Operation>()));
    } else {
      return ev.Error(end, absl::StrCat("args[", i, "] must be a tensor, got ", TypeName(item)));
    }
  }
  if (tensors.empty()) return ev.Error(end, "args must name at least one tensor");
  return tensors;
}

absl::StatusOr<schedule::Schedule> ScheduleOf(const Evaluator& ev, Pos end) {
  const Value* s = ev.globals().Lookup("s");
  if (s != nullptr && s->is(Value::Kind::kSchedule)) return s->as<schedule::Schedule>();
  if (ev.last_schedule()) return *ev.last_schedule();
  return ev.Error(end, "the script creates no schedule: s = create_schedule(...)");
}

// Whether the script mentions the name `cfg` (a tunable script). Only called on source that
// parsed, so lexing cannot fail.
bool UsesCfg(absl::string_view source, absl::string_view file) {
  absl::StatusOr<std::vector<Token>> tokens = Lex(source, file);
  if (!tokens.ok()) return false;
  for (const Token& t : *tokens) {
    if (t.Is(TokenKind::kName, "cfg")) return true;
  }
  return false;
}

// The bindings a run uses: the caller's, else a tunable script's bind line, else none.
absl::StatusOr<std::optional<std::map<std::string, int64_t>>> BindingsFor(
    absl::string_view source, absl::string_view file, const ScriptOptions& options) {
  if (options.bindings) return options.bindings;
  if (!UsesCfg(source, file)) return std::nullopt;
  return ParseBindLine(std::string_view(source.data(), source.size()),
                       std::string_view(file.data(), file.size()));
}

// Every bound value within [1, kMaxBindingValue], checked before the script runs (a huge size
// costs the tuner minutes before anything else could complain).
absl::Status CheckBindingValues(absl::string_view file,
                                const std::map<std::string, int64_t>& bindings) {
  for (const auto& [name, value] : bindings) {
    if (value < 1 || value > kMaxBindingValue) {
      return ErrorAt(
          file, Pos{1, 1},
          absl::StrCat("binding ", runtime::Abbreviate(name), "=", value, " is outside [1, ",
                       kMaxBindingValue, "]: a bound variable is a size"));
    }
  }
  return absl::OkStatus();
}

// Each bound name must be a variable of the script; the bound ones in creation order.
absl::StatusOr<std::vector<std::pair<std::string, int64_t>>> BoundVars(
    const Evaluator& ev, const std::map<std::string, int64_t>& bindings) {
  std::vector<std::pair<std::string, int64_t>> bound;
  std::vector<std::string> names;
  for (const ir::Var& v : ev.symbolic_vars()) {
    if (std::find(names.begin(), names.end(), v.name()) != names.end()) continue;
    names.push_back(v.name());
    auto it = bindings.find(v.name());
    if (it != bindings.end()) bound.emplace_back(v.name(), it->second);
  }
  for (const auto& [name, value] : bindings) {
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      return ev.Error(Pos{1, 1},
                      absl::StrCat("a binding names unknown variable '", runtime::Abbreviate(name),
                                   "'; the script's variables are: ",
                                   names.empty() ? "none" : absl::StrJoin(names, ", ")));
    }
  }
  return bound;
}

}  // namespace

absl::StatusOr<ScriptResult> RunScript(std::string_view source, std::string_view filename) {
  return RunScript(source, filename, ScriptOptions());
}

absl::StatusOr<ScriptResult> RunScript(std::string_view source, std::string_view filename,
                                       const ScriptOptions& options) {
  absl::string_view file(filename.data(), filename.size());
  absl::string_view text(source.data(), source.size());
  if (options.define_into != nullptr && options.config != nullptr) {
    return absl::InvalidArgumentError(
        "RunScript: give a space to define into or a config to "
        "apply, not both");
  }
  if (options.define_into != nullptr && options.define_into->num_knobs() != 0) {
    return absl::InvalidArgumentError("RunScript: the space to define into must be empty");
  }
  absl::StatusOr<ast::Module> module = Parse(text, file);
  if (!module.ok()) return module.status();
  absl::StatusOr<std::optional<std::map<std::string, int64_t>>> bindings =
      BindingsFor(text, file, options);
  if (!bindings.ok()) return bindings.status();
  if (*bindings) {
    if (absl::Status st = CheckBindingValues(file, **bindings); !st.ok()) return st;
  }
  Tuning tuning = options.config        ? Tuning::Apply(options.config)
                  : options.define_into ? Tuning::Define(options.define_into)
                                        : Tuning::Fallback();
  Evaluator evaluator(file, &tuning, *bindings ? &**bindings : nullptr);
  if (absl::Status st = evaluator.Run(*module); !st.ok()) return st;
  if (absl::Status st = tuning.CheckAllApplied(); !st.ok()) {
    return evaluator.Error(module->end, st.message());
  }
  ScriptResult result;
  if (*bindings) {
    absl::StatusOr<std::vector<std::pair<std::string, int64_t>>> bound =
        BoundVars(evaluator, **bindings);
    if (!bound.ok()) return bound.status();
    result.bound_vars = *std::move(bound);
  }
  result.knob_names = tuning.names();
  result.knob_indices = tuning.KnobIndices();
  absl::StatusOr<std::vector<te::Tensor>> args = ArgsOf(evaluator, module->end);
  if (!args.ok()) return args.status();
  absl::StatusOr<schedule::Schedule> s = ScheduleOf(evaluator, module->end);
  if (!s.ok()) return s.status();
  for (const te::Tensor& t : *args) {
    if (!s->Contains(t)) {
      return evaluator.Error(module->end,
                             absl::StrCat("argument ", t.name(), " is not in the schedule"));
    }
  }
  result.schedule = *std::move(s);
  result.args = *std::move(args);
  result.symbolic_vars = evaluator.symbolic_vars();
  return result;
}

}  // namespace tunefarm::script
