#include "runtime/graph/graph_format.h"

#include <charconv>
#include <cstdio>
#include <utility>

#include "runtime/core/dtype_name.h"
#include "runtime/core/percent_escape.h"
#include "runtime/core/quoted_line.h"

namespace tunefarm::runtime {
namespace {

constexpr std::string_view kGraphHeader = "tunefarm-graph";

// '#' starts a comment in the graph text, so names escape it.
constexpr std::string_view kGraphSpecial = "#";

void AppendEscaped(std::string_view name, std::string* out) {
  AppendPercentEscaped(name, kGraphSpecial, /*escape_leading_number=*/false, out);
}

bool Unescape(std::string_view token, std::string* out) {
  return PercentUnescape(token, kGraphSpecial, out);
}

template <typename T>
bool ParseNumber(std::string_view text, T* out) {
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

std::vector<std::string_view> SplitGraphTokens(std::string_view line) {
  if (size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
  std::vector<std::string_view> tokens;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) tokens.push_back(line.substr(start, i - start));
  }
  return tokens;
}

// The offending line for an error message.
std::string QuoteGraphLine(std::string_view line) { return QuoteLine(line, 100); }

bool IsIdentifier(std::string_view name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == '$';
    if (!ok) return false;
  }
  return true;
}

const char* KindName(GraphTensorKind kind) {
  switch (kind) {
    case GraphTensorKind::kInput:
      return "input";
    case GraphTensorKind::kOutput:
      return "output";
    case GraphTensorKind::kParam:
      return "param";
    case GraphTensorKind::kIntermediate:
      return "intermediate";
  }
  return "?";
}

// Parses "[1,16]" within `limits`, computing the byte size; returns "" or what is wrong.
std::string ParseShape(std::string_view text, DLDataType dtype, const GraphLimits& limits,
                       GraphTensor* t) {
  if (text.size() < 2 || text.front() != '[' || text.back() != ']') {
    return "expected a shape in brackets such as [1,16], got '" + std::string(text) + "'";
  }
  std::string_view body = text.substr(1, text.size() - 2);
  uint64_t bytes = ElementBytes(dtype);
  for (size_t start = 0; !body.empty();) {
    size_t comma = body.find(',', start);
    std::string_view dim = body.substr(start, comma == body.npos ? body.npos : comma - start);
    int64_t extent = 0;
    if (!ParseNumber(dim, &extent) || extent < 1) {
      return "bad extent '" + std::string(dim) + "' (extents are integers >= 1)";
    }
    if (static_cast<int64_t>(t->shape.size()) >= limits.max_rank) {
      return "rank above the limit of " + std::to_string(limits.max_rank);
    }
    if (__builtin_mul_overflow(bytes, static_cast<uint64_t>(extent), &bytes) ||
        bytes > limits.max_tensor_bytes) {
      return "shape " + std::string(text) + " is larger than the limit of " +
             std::to_string(limits.max_tensor_bytes) + " bytes per tensor";
    }
    t->shape.push_back(extent);
    if (comma == body.npos) break;
    start = comma + 1;
  }
  t->bytes = bytes;
  return "";
}

// Parses "tensor ID DTYPE SHAPE KIND ..." (tokens[1] already checked); returns "" or the problem.
std::string ParseTensor(const std::vector<std::string_view>& tokens, uint64_t params_size,
                        const GraphLimits& limits, GraphTensor* t) {
  if (tokens.size() < 5) return "expected 'tensor ID DTYPE SHAPE KIND ...'";
  if (!ParseDTypeName(tokens[2], &t->dtype) || ElementBytes(t->dtype) == 0) {
    return "unknown or unstorable dtype '" + std::string(tokens[2]) + "'";
  }
  if (std::string what = ParseShape(tokens[3], t->dtype, limits, t); !what.empty()) return what;
  std::string_view kind = tokens[4];
  if (kind == "input" || kind == "output") {
    t->kind = kind == "input" ? GraphTensorKind::kInput : GraphTensorKind::kOutput;
    if (tokens.size() != 6) return "expected '" + std::string(kind) + " NAME'";
    if (tokens[5].size() > limits.max_name_bytes || !Unescape(tokens[5], &t->name)) {
      return "bad name '" + std::string(tokens[5]) + "'";
    }
    return "";
  }
  if (kind == "param") {
    t->kind = GraphTensorKind::kParam;
    uint64_t bytes = 0;
    if (tokens.size() != 7 || !ParseNumber(tokens[5], &t->param_offset) ||
        !ParseNumber(tokens[6], &bytes)) {
      return "expected 'param OFFSET BYTES'";
    }
    if (bytes != t->bytes) {
      return "param claims " + std::to_string(bytes) + " bytes, but its dtype and shape take " +
             std::to_string(t->bytes);
    }
    if (t->param_offset % kParamAlignment != 0) {
      return "param offset " + std::to_string(t->param_offset) + " is not a multiple of " +
             std::to_string(kParamAlignment);
    }
    if (t->param_offset > params_size || bytes > params_size - t->param_offset) {
      return "param bytes [" + std::to_string(t->param_offset) + ", +" + std::to_string(bytes) +
             ") lie outside the " + std::to_string(params_size) + "-byte params blob";
    }
    return "";
  }
  if (kind == "intermediate") {
    t->kind = GraphTensorKind::kIntermediate;
    return tokens.size() == 5 ? "" : "an intermediate tensor takes nothing after its kind";
  }
  return "unknown tensor kind '" + std::string(kind) +
         "' (expected input, output, param or intermediate)";
}

// Parses one "in:ID", "out:ID", "int:V" or "float:V" argument; returns "" or the problem.
std::string ParseStepArg(std::string_view token, int64_t num_tensors, StepArg* arg) {
  size_t colon = token.find(':');
  std::string_view kind = token.substr(0, colon == token.npos ? 0 : colon);
  std::string_view value = colon == token.npos ? token : token.substr(colon + 1);
  const std::string quoted = "'" + std::string(token) + "'";
  if (kind == "in" || kind == "out") {
    arg->kind = kind == "in" ? StepArgKind::kIn : StepArgKind::kOut;
    if (!ParseNumber(value, &arg->value) || arg->value < 0 || arg->value >= num_tensors) {
      return "argument " + quoted + " names no tensor (ids are 0.." +
             std::to_string(num_tensors - 1) + ")";
    }
    return "";
  }
  if (kind == "int") {
    arg->kind = StepArgKind::kInt;
    return ParseNumber(value, &arg->value) ? "" : "bad int argument " + quoted;
  }
  if (kind == "float") {
    arg->kind = StepArgKind::kFloat;
    return ParseNumber(value, &arg->float_value) ? "" : "bad float argument " + quoted;
  }
  return "bad argument " + quoted + " (expected in:ID, out:ID, int:V or float:V)";
}

std::string ParseStep(const std::vector<std::string_view>& tokens, const GraphLimits& limits,
                      int64_t num_tensors, GraphStep* step) {
  if (tokens.size() < 3) return "expected 'step INDEX KERNEL ARGS...'";
  if (!IsIdentifier(tokens[2])) return "bad kernel name '" + std::string(tokens[2]) + "'";
  step->kernel = std::string(tokens[2]);
  if (static_cast<int64_t>(tokens.size() - 3) > limits.max_args) {
    return "more than " + std::to_string(limits.max_args) + " arguments";
  }
  step->args.resize(tokens.size() - 3);
  for (size_t i = 3; i < tokens.size(); ++i) {
    if (std::string what = ParseStepArg(tokens[i], num_tensors, &step->args[i - 3]);
        !what.empty()) {
      return what;
    }
  }
  return "";
}

// Dataflow over the steps in order; returns "" or "graph line N: ..." / a graph-level problem.
std::string CheckDataflow(const GraphDescription& g) {
  std::vector<char> written(g.tensors.size(), 0);
  for (const GraphStep& step : g.steps) {
    const std::string where =
        "graph line " + std::to_string(step.line) + ": step '" + step.kernel + "': ";
    for (const StepArg& arg : step.args) {
      if (arg.kind != StepArgKind::kIn) continue;
      const GraphTensor& t = g.tensors[arg.value];
      bool ready = t.kind == GraphTensorKind::kInput || t.kind == GraphTensorKind::kParam ||
                   written[arg.value];
      if (!ready) {
        return where + "reads " + KindName(t.kind) + " tensor " + std::to_string(arg.value) +
               " before any step writes it";
      }
    }
    for (const StepArg& arg : step.args) {
      if (arg.kind != StepArgKind::kOut) continue;
      const GraphTensor& t = g.tensors[arg.value];
      if (t.kind == GraphTensorKind::kInput || t.kind == GraphTensorKind::kParam) {
        return where + "writes " + KindName(t.kind) + " tensor " + std::to_string(arg.value) +
               ", which is read-only";
      }
      written[arg.value] = 1;
    }
  }
  for (size_t i = 0; i < g.tensors.size(); ++i) {
    const GraphTensor& t = g.tensors[i];
    bool needs_writer =
        t.kind == GraphTensorKind::kOutput || t.kind == GraphTensorKind::kIntermediate;
    if (needs_writer && !written[i]) {
      return std::string("graph: ") + KindName(t.kind) + " tensor " + std::to_string(i) +
             (t.name.empty() ? "" : " ('" + t.name + "')") + " is never written by any step";
    }
  }
  return "";
}

std::string CheckNames(const GraphDescription& g) {
  bool has_output = false;
  for (size_t i = 0; i < g.tensors.size(); ++i) {
    const GraphTensor& t = g.tensors[i];
    has_output = has_output || t.kind == GraphTensorKind::kOutput;
    if (t.name.empty()) continue;
    for (size_t j = 0; j < i; ++j) {
      if (g.tensors[j].kind == t.kind && g.tensors[j].name == t.name) {
        return std::string("graph: two ") + KindName(t.kind) + "s are named '" + t.name +
               "' (tensors " + std::to_string(j) + " and " + std::to_string(i) + ")";
      }
    }
  }
  return has_output ? "" : "graph: no output tensor";
}

// Reads the count of a "NAME COUNT" line within [0, max].
bool ParseCount(const std::vector<std::string_view>& tokens, std::string_view name, int64_t max,
                int64_t* count) {
  return tokens.size() == 2 && tokens[0] == name && ParseNumber(tokens[1], count) && *count >= 0 &&
         *count <= max;
}

// The records in the order they must come; Record returns "" or what is wrong with one.
class GraphParser {
 public:
  GraphParser(uint64_t params_size, const GraphLimits& limits)
      : params_size_(params_size), limits_(limits) {}

  std::string Record(const std::vector<std::string_view>& tokens, int line_number) {
    switch (expect_) {
      case kHeaderLine:
        return Header(tokens);
      case kParams:
        if (tokens.size() != 2 || tokens[0] != "params" ||
            !ParseNumber(tokens[1], &g_.params_bytes)) {
          return "expected 'params BYTES'";
        }
        if (g_.params_bytes != params_size_) {
          return "the graph expects " + std::to_string(g_.params_bytes) +
                 " bytes of params, the module holds " + std::to_string(params_size_);
        }
        expect_ = kTensors;
        return "";
      case kTensors:
        if (!ParseCount(tokens, "tensors", limits_.max_tensors, &count_)) {
          return "expected 'tensors COUNT' with COUNT at most " +
                 std::to_string(limits_.max_tensors);
        }
        g_.tensors.reserve(static_cast<size_t>(count_));
        expect_ = count_ > 0 ? kTensor : kSteps;
        return "";
      case kTensor:
        return Tensor(tokens);
      case kSteps:
        if (!ParseCount(tokens, "steps", limits_.max_steps, &count_)) {
          return "expected 'steps COUNT' with COUNT at most " + std::to_string(limits_.max_steps);
        }
        g_.steps.reserve(static_cast<size_t>(count_));
        expect_ = count_ > 0 ? kStep : kEnd;
        return "";
      case kStep:
        return Step(tokens, line_number);
      case kEnd:
        break;
    }
    return "unexpected record after the last step";
  }

  // After the last line: "" or what is missing or inconsistent.
  std::string Finish(int line_number) const {
    if (expect_ != kEnd) {
      static constexpr const char* kWanted[] = {"the header", "'params'", "'tensors'", "a tensor",
                                                "'steps'",    "a step",   ""};
      return "graph ends early (line " + std::to_string(line_number) + "): expected " +
             kWanted[expect_];
    }
    if (std::string what = CheckNames(g_); !what.empty()) return what;
    return CheckDataflow(g_);
  }

  GraphDescription Take() { return std::move(g_); }

 private:
  std::string Header(const std::vector<std::string_view>& tokens) {
    int version = 0;
    if (tokens.size() != 2 || tokens[0] != kGraphHeader || !ParseNumber(tokens[1], &version)) {
      return "not a tunefarm graph (expected 'tunefarm-graph 1')";
    }
    if (version != kGraphFormatVersion) {
      return "unsupported graph version " + std::string(tokens[1]) +
             " (this runtime reads version 1)";
    }
    expect_ = kParams;
    return "";
  }

  std::string Tensor(const std::vector<std::string_view>& tokens) {
    const std::string id = std::to_string(g_.tensors.size());
    if (tokens[0] != "tensor" || tokens.size() < 2 || tokens[1] != id) {
      return "expected 'tensor " + id + " ...' (tensor ids are listed in order)";
    }
    GraphTensor t;
    if (std::string what = ParseTensor(tokens, params_size_, limits_, &t); !what.empty()) {
      return what;
    }
    g_.tensors.push_back(std::move(t));
    if (static_cast<int64_t>(g_.tensors.size()) == count_) expect_ = kSteps;
    return "";
  }

  std::string Step(const std::vector<std::string_view>& tokens, int line_number) {
    const std::string index = std::to_string(g_.steps.size());
    if (tokens[0] != "step" || tokens.size() < 2 || tokens[1] != index) {
      return "expected 'step " + index + " ...' (steps are listed in order)";
    }
    GraphStep step;
    step.line = line_number;
    int64_t num_tensors = static_cast<int64_t>(g_.tensors.size());
    if (std::string what = ParseStep(tokens, limits_, num_tensors, &step); !what.empty()) {
      return what;
    }
    g_.steps.push_back(std::move(step));
    if (static_cast<int64_t>(g_.steps.size()) == count_) expect_ = kEnd;
    return "";
  }

  enum Expect { kHeaderLine, kParams, kTensors, kTensor, kSteps, kStep, kEnd };
  const uint64_t params_size_;
  const GraphLimits& limits_;
  GraphDescription g_;
  Expect expect_ = kHeaderLine;
  int64_t count_ = 0;  // tensors or steps announced
};

}  // namespace

uint64_t ElementBytes(DLDataType dtype) {
  if (dtype.lanes == 0 || dtype.code == kDLOpaqueHandle || dtype.bits == 0) return 0;
  return (static_cast<uint64_t>(dtype.bits) * dtype.lanes + 7) / 8;
}

std::string WriteGraph(const GraphDescription& graph) {
  std::string out = std::string(kGraphHeader) + " " + std::to_string(kGraphFormatVersion) + "\n";
  out += "params " + std::to_string(graph.params_bytes) + "\n";
  out += "tensors " + std::to_string(graph.tensors.size()) + "\n";
  for (size_t i = 0; i < graph.tensors.size(); ++i) {
    const GraphTensor& t = graph.tensors[i];
    out += "tensor " + std::to_string(i) + " " + DTypeName(t.dtype) + " [";
    uint64_t bytes = ElementBytes(t.dtype);
    for (size_t d = 0; d < t.shape.size(); ++d) {
      out += (d > 0 ? "," : "") + std::to_string(t.shape[d]);
      bytes *= static_cast<uint64_t>(t.shape[d]);
    }
    out += std::string("] ") + KindName(t.kind);
    if (t.kind == GraphTensorKind::kInput || t.kind == GraphTensorKind::kOutput) {
      out += ' ';
      AppendEscaped(t.name, &out);
    } else if (t.kind == GraphTensorKind::kParam) {
      out += " " + std::to_string(t.param_offset) + " " + std::to_string(bytes);
    }
    out += '\n';
  }
  out += "steps " + std::to_string(graph.steps.size()) + "\n";
  for (size_t i = 0; i < graph.steps.size(); ++i) {
    out += "step " + std::to_string(i) + " " + graph.steps[i].kernel;
    for (const StepArg& arg : graph.steps[i].args) {
      char value[40];
      if (arg.kind == StepArgKind::kFloat) {
        std::snprintf(value, sizeof(value), "%.17g", arg.float_value);
      } else {
        std::snprintf(value, sizeof(value), "%lld", static_cast<long long>(arg.value));
      }
      static constexpr const char* kPrefix[] = {" in:", " out:", " int:", " float:"};
      out += kPrefix[static_cast<int>(arg.kind)];
      out += value;
    }
    out += '\n';
  }
  return out;
}

bool ParseGraph(std::string_view text, uint64_t params_size, GraphDescription* graph,
                std::string* error, const GraphLimits& limits) {
  if (text.size() > limits.max_text_bytes) {
    *error = "graph text of " + std::to_string(text.size()) + " bytes is over the limit of " +
             std::to_string(limits.max_text_bytes);
    return false;
  }
  GraphParser parser(params_size, limits);
  int line_number = 0;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    std::vector<std::string_view> tokens = SplitGraphTokens(line);
    if (tokens.empty()) continue;
    if (std::string what = parser.Record(tokens, line_number); !what.empty()) {
      *error =
          "graph line " + std::to_string(line_number) + ": " + what + ": " + QuoteGraphLine(line);
      return false;
    }
  }
  if (std::string what = parser.Finish(line_number); !what.empty()) {
    *error = what;
    return false;
  }
  *graph = parser.Take();
  return true;
}

}  // namespace tunefarm::runtime
