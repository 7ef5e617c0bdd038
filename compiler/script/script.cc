#include "compiler/script/script.h"

#include "absl/strings/str_cat.h"
#include "compiler/script/evaluator.h"
#include "compiler/script/parser.h"

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

}  // namespace

absl::StatusOr<ScriptResult> RunScript(std::string_view source, std::string_view filename) {
  absl::string_view file(filename.data(), filename.size());
  absl::StatusOr<ast::Module> module = Parse(absl::string_view(source.data(), source.size()), file);
  if (!module.ok()) return module.status();
  Evaluator evaluator(file);
  if (absl::Status st = evaluator.Run(*module); !st.ok()) return st;
  ScriptResult result;
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
