#include "runtime/core/function_signature.h"

#include <charconv>
#include <cstdio>
#include <utility>

#include "runtime/core/dtype_name.h"
#include "runtime/core/percent_escape.h"
#include "runtime/core/quoted_line.h"

// The manifest, one record per line so that `strings lib.so` shows it as written:
//
//   tunefarm-manifest 1
//   function matmul 3
//   arg tensor A float32 [64,n]
//   arg tensor B float32 [n,64]
//   arg int n int64
//
// A `function` line gives the kernel's symbol and how many `arg` lines follow. An `arg` line
// gives the kind (tensor, int, float, handle), the name, the dtype and, for tensors only, the
// shape: constants and symbols separated by commas, `[]` for a rank-0 tensor. Names escape
// whitespace, `%`, `,`, `[`, `]` and non-printable bytes as %XX (and a symbol's leading digit or
// `-`, which would read as a number); `%` alone is the empty name. Blank lines are ignored.

namespace tunefarm::runtime {
namespace {

constexpr std::string_view kHeader = "tunefarm-manifest";
constexpr int kVersion = 1;

// Bytes the manifest's tokens use as separators, escaped in names beside percent-escaping's own.
constexpr std::string_view kManifestSpecial = ",[]";

// The empty name travels as a lone '%'.
void AppendEscaped(std::string_view name, bool is_symbol, std::string* out) {
  if (name.empty()) {
    *out += '%';
    return;
  }
  AppendPercentEscaped(name, kManifestSpecial, is_symbol, out);
}

// Decodes a name; false for a malformed one, or for the empty name unless `allow_empty`.
bool Unescape(std::string_view token, bool allow_empty, std::string* out) {
  if (token == "%") {
    out->clear();
    return allow_empty;
  }
  return PercentUnescape(token, kManifestSpecial, out);
}

const char* KindName(ArgKind kind) {
  switch (kind) {
    case ArgKind::kTensor:
      return "tensor";
    case ArgKind::kInt:
      return "int";
    case ArgKind::kFloat:
      return "float";
    case ArgKind::kHandle:
      return "handle";
  }
  return "?";
}

bool ParseKind(std::string_view text, ArgKind* kind) {
  for (ArgKind k : {ArgKind::kTensor, ArgKind::kInt, ArgKind::kFloat, ArgKind::kHandle}) {
    if (text == KindName(k)) {
      *kind = k;
      return true;
    }
  }
  return false;
}

bool ParseInt64(std::string_view text, int64_t* out) {
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

std::vector<std::string_view> SplitTokens(std::string_view line) {
  std::vector<std::string_view> tokens;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) tokens.push_back(line.substr(start, i - start));
  }
  return tokens;
}

// A scalar argument's dtype must be one its TFValue member can carry.
bool DTypeFitsKind(ArgKind kind, DLDataType t) {
  switch (kind) {
    case ArgKind::kTensor:
      return t.code != kDLOpaqueHandle;
    case ArgKind::kInt:
      return (t.code == kDLInt || t.code == kDLUInt) && t.lanes == 1;
    case ArgKind::kFloat:
      return t.code == kDLFloat && t.lanes == 1;
    case ArgKind::kHandle:
      return t.code == kDLOpaqueHandle;
  }
  return false;
}

// Parses "[64,n]" into `shape`; returns an empty string or what is wrong.
std::string ParseShape(std::string_view text, std::vector<DimSpec>* shape) {
  if (text.size() < 2 || text.front() != '[' || text.back() != ']') {
    return "expected a shape in brackets such as [64,n], got '" + std::string(text) + "'";
  }
  std::string_view body = text.substr(1, text.size() - 2);
  if (body.empty()) return "";
  for (size_t start = 0;;) {
    size_t comma = body.find(',', start);
    std::string_view dim =
        body.substr(start, comma == std::string_view::npos ? body.npos : comma - start);
    if (dim.empty()) return "empty dimension in shape " + std::string(text);
    if ((dim[0] >= '0' && dim[0] <= '9') || dim[0] == '-') {
      int64_t value = 0;
      if (!ParseInt64(dim, &value)) return "bad dimension '" + std::string(dim) + "'";
      if (value < 0) return "negative dimension " + std::string(dim);
      shape->push_back(DimSpec::Const(value));
    } else {
      std::string symbol;
      if (!Unescape(dim, /*allow_empty=*/false, &symbol))
        return "bad symbol '" + std::string(dim) + "'";
      shape->push_back(DimSpec::Symbol(std::move(symbol)));
    }
    if (comma == std::string_view::npos) return "";
    start = comma + 1;
  }
}

// Parses the tokens after "arg"; returns an empty string or what is wrong.
std::string ParseArg(const std::vector<std::string_view>& tokens, ArgSpec* arg) {
  if (tokens.size() < 4) return "expected 'arg KIND NAME DTYPE [SHAPE]'";
  if (!ParseKind(tokens[1], &arg->kind)) {
    return "unknown argument kind '" + std::string(tokens[1]) +
           "' (expected tensor, int, float or handle)";
  }
  if (!Unescape(tokens[2], /*allow_empty=*/true, &arg->name)) {
    return "bad argument name '" + std::string(tokens[2]) + "'";
  }
  if (!ParseDTypeName(tokens[3], &arg->dtype)) {
    return "unknown dtype '" + std::string(tokens[3]) + "'";
  }
  if (!DTypeFitsKind(arg->kind, arg->dtype)) {
    return "dtype " + std::string(tokens[3]) + " is not valid for kind '" + KindName(arg->kind) +
           "'";
  }
  if (arg->kind != ArgKind::kTensor) {
    if (tokens.size() != 4) return "only tensor arguments have a shape";
    return "";
  }
  if (tokens.size() != 5) return "expected 'arg tensor NAME DTYPE [SHAPE]'";
  return ParseShape(tokens[4], &arg->shape);
}

// The offending line for an error message.
std::string Quote(std::string_view line) { return QuoteLine(line, 80); }

}  // namespace

std::string SerializeManifest(const std::vector<FunctionSignature>& functions) {
  std::string out = std::string(kHeader) + " " + std::to_string(kVersion) + "\n";
  for (const FunctionSignature& f : functions) {
    out += "function ";
    AppendEscaped(f.name, false, &out);
    out += " " + std::to_string(f.args.size()) + "\n";
    for (const ArgSpec& arg : f.args) {
      out += "arg ";
      out += KindName(arg.kind);
      out += ' ';
      AppendEscaped(arg.name, false, &out);
      out += " " + DTypeName(arg.dtype);
      if (arg.kind == ArgKind::kTensor) {
        out += " [";
        for (size_t i = 0; i < arg.shape.size(); ++i) {
          if (i > 0) out += ',';
          if (arg.shape[i].is_symbol()) {
            AppendEscaped(arg.shape[i].symbol, true, &out);
          } else {
            out += std::to_string(arg.shape[i].value);
          }
        }
        out += ']';
      }
      out += '\n';
    }
  }
  return out;
}

bool ParseManifest(std::string_view text, std::vector<FunctionSignature>* functions,
                   std::string* error) {
  std::vector<FunctionSignature> parsed;
  size_t expected_args = 0;
  bool seen_header = false;
  int line_number = 0;
  auto fail = [&](const std::string& what, std::string_view line) {
    *error = "manifest line " + std::to_string(line_number) + ": " + what + ": " + Quote(line);
    return false;
  };
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::vector<std::string_view> tokens = SplitTokens(line);
    if (tokens.empty()) continue;
    if (!seen_header) {
      int64_t version = 0;
      if (tokens.size() != 2 || tokens[0] != kHeader || !ParseInt64(tokens[1], &version)) {
        return fail("not a tunefarm manifest (expected 'tunefarm-manifest 1')", line);
      }
      if (version != kVersion) {
        return fail("unsupported manifest version " + std::string(tokens[1]) +
                        " (this runtime reads version 1)",
                    line);
      }
      seen_header = true;
    } else if (tokens[0] == "function") {
      if (expected_args > 0) {
        return fail("function '" + parsed.back().name + "' has " +
                        std::to_string(parsed.back().args.size()) + " of its " +
                        std::to_string(parsed.back().args.size() + expected_args) + " arguments",
                    line);
      }
      FunctionSignature f;
      int64_t num_args = 0;
      if (tokens.size() != 3 || !Unescape(tokens[1], /*allow_empty=*/false, &f.name) ||
          !ParseInt64(tokens[2], &num_args) || num_args < 0 || num_args > 65535) {
        return fail("expected 'function NAME NUM_ARGS'", line);
      }
      for (const FunctionSignature& other : parsed) {
        if (other.name == f.name) return fail("function '" + f.name + "' listed twice", line);
      }
      expected_args = static_cast<size_t>(num_args);
      parsed.push_back(std::move(f));
    } else if (tokens[0] == "arg") {
      if (expected_args == 0) return fail("'arg' line outside a function's arguments", line);
      ArgSpec arg;
      if (std::string what = ParseArg(tokens, &arg); !what.empty()) return fail(what, line);
      parsed.back().args.push_back(std::move(arg));
      --expected_args;
    } else {
      return fail("unknown record '" + std::string(tokens[0]) + "'", line);
    }
  }
  if (!seen_header) {
    *error = "empty manifest (expected 'tunefarm-manifest 1')";
    return false;
  }
  if (expected_args > 0) {
    *error = "manifest ends inside function '" + parsed.back().name + "' (" +
             std::to_string(parsed.back().args.size()) + " of " +
             std::to_string(parsed.back().args.size() + expected_args) + " arguments)";
    return false;
  }
  *functions = std::move(parsed);
  return true;
}

}  // namespace tunefarm::runtime
