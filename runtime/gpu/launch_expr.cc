// EvalLaunchExpr: a recursive-descent evaluator for the grid and block expressions of a GPU
// module (gpu_module.h). Grammar:
//   expr    := term (('+' | '-') term)*
//   term    := unary ('*' unary)*
//   unary   := '-' unary | primary
//   primary := INTEGER | NAME | FUNC '(' expr ',' expr ')' | '(' expr ')'
//   FUNC    := floordiv | floormod | min | max
// Arithmetic is checked int64: an overflow is an error rather than a wrong launch size.
#include <cctype>
#include <string>

#include "absl/strings/str_cat.h"
#include "runtime/gpu/gpu_module.h"

namespace tunefarm::runtime::gpu {
namespace {

class Evaluator {
 public:
  Evaluator(std::string_view expr, const std::map<std::string, int64_t>& values)
      : expr_(expr), values_(values) {}

  absl::StatusOr<int64_t> Run() {
    absl::StatusOr<int64_t> v = Expr();
    if (!v.ok()) return v;
    SkipSpace();
    if (pos_ < expr_.size()) return Error(absl::StrCat("unexpected ", Describe()));
    return v;
  }

 private:
  absl::StatusOr<int64_t> Expr() {
    absl::StatusOr<int64_t> lhs = Term();
    while (lhs.ok()) {
      SkipSpace();
      if (pos_ >= expr_.size() || (expr_[pos_] != '+' && expr_[pos_] != '-')) break;
      char op = expr_[pos_++];
      absl::StatusOr<int64_t> rhs = Term();
      if (!rhs.ok()) return rhs;
      int64_t out = 0;
      bool overflow = op == '+' ? __builtin_add_overflow(*lhs, *rhs, &out)
                                : __builtin_sub_overflow(*lhs, *rhs, &out);
      if (overflow)
        return Error(absl::StrCat("overflow in ", *lhs, " ", std::string(1, op), " ", *rhs));
      lhs = out;
    }
    return lhs;
  }

  absl::StatusOr<int64_t> Term() {
    absl::StatusOr<int64_t> lhs = Unary();
    while (lhs.ok()) {
      SkipSpace();
      if (pos_ >= expr_.size() || expr_[pos_] != '*') break;
      ++pos_;
      absl::StatusOr<int64_t> rhs = Unary();
      if (!rhs.ok()) return rhs;
      int64_t out = 0;
      if (__builtin_mul_overflow(*lhs, *rhs, &out)) {
        return Error(absl::StrCat("overflow in ", *lhs, " * ", *rhs));
      }
      lhs = out;
    }
    return lhs;
  }

  absl::StatusOr<int64_t> Unary() {
    SkipSpace();
    if (pos_ < expr_.size() && expr_[pos_] == '-') {
      ++pos_;
      absl::StatusOr<int64_t> v = Unary();
      if (!v.ok()) return v;
      int64_t out = 0;
      if (__builtin_sub_overflow(int64_t{0}, *v, &out)) return Error("overflow in negation");
      return out;
    }
    return Primary();
  }

  absl::StatusOr<int64_t> Primary() {
    SkipSpace();
    if (pos_ >= expr_.size()) return Error("unexpected end of expression");
    char c = expr_[pos_];
    if (c == '(') {
      ++pos_;
      absl::StatusOr<int64_t> v = Expr();
      if (!v.ok()) return v;
      if (absl::Status s = Expect(')'); !s.ok()) return s;
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) return Integer();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return NameOrCall();
    return Error(absl::StrCat("unexpected ", Describe()));
  }

  absl::StatusOr<int64_t> Integer() {
    int64_t v = 0;
    size_t start = pos_;
    while (pos_ < expr_.size() && std::isdigit(static_cast<unsigned char>(expr_[pos_]))) {
      if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, expr_[pos_] - '0', &v)) {
        return Error(absl::StrCat("integer too large at offset ", start));
      }
      ++pos_;
    }
    return v;
  }

  absl::StatusOr<int64_t> NameOrCall() {
    size_t start = pos_;
    while (pos_ < expr_.size() && (std::isalnum(static_cast<unsigned char>(expr_[pos_])) ||
                                   expr_[pos_] == '_' || expr_[pos_] == '.')) {
      ++pos_;
    }
    std::string name(expr_.substr(start, pos_ - start));
    SkipSpace();
    if (pos_ < expr_.size() && expr_[pos_] == '(') {
      if (name != "floordiv" && name != "floormod" && name != "min" && name != "max") {
        return Error(absl::StrCat("unknown function '", name, "'"));
      }
      ++pos_;
      absl::StatusOr<int64_t> a = Expr();
      if (!a.ok()) return a;
      if (absl::Status s = Expect(','); !s.ok()) return s;
      absl::StatusOr<int64_t> b = Expr();
      if (!b.ok()) return b;
      if (absl::Status s = Expect(')'); !s.ok()) return s;
      return Apply(name, *a, *b);
    }
    auto it = values_.find(name);
    if (it == values_.end()) return Error(absl::StrCat("unbound name '", name, "'"));
    return it->second;
  }

  absl::StatusOr<int64_t> Apply(const std::string& fn, int64_t a, int64_t b) {
    if (fn == "min") return a < b ? a : b;
    if (fn == "max") return a > b ? a : b;
    if (b == 0) return Error(absl::StrCat("division by zero in ", fn, "(", a, ", 0)"));
    if (a == INT64_MIN && b == -1) return Error(absl::StrCat("overflow in ", fn));
    // C++ truncates toward zero; floor semantics round the quotient down instead.
    int64_t q = a / b;
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) {
      --q;
      r += b;
    }
    return fn == "floordiv" ? q : r;
  }

  absl::Status Expect(char c) {
    SkipSpace();
    if (pos_ < expr_.size() && expr_[pos_] == c) {
      ++pos_;
      return absl::OkStatus();
    }
    return Error(absl::StrCat("expected '", std::string(1, c), "' but found ", Describe()));
  }

  std::string Describe() const {
    if (pos_ >= expr_.size()) return "end of expression";
    return absl::StrCat("'", std::string(1, expr_[pos_]), "' at offset ", pos_);
  }

  void SkipSpace() {
    while (pos_ < expr_.size() && std::isspace(static_cast<unsigned char>(expr_[pos_]))) ++pos_;
  }

  absl::Status Error(std::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat("launch expression '", std::string(expr_), "': ", std::string(what)));
  }

  std::string_view expr_;
  const std::map<std::string, int64_t>& values_;
  size_t pos_ = 0;
};

}  // namespace

absl::StatusOr<int64_t> EvalLaunchExpr(std::string_view expr,
                                       const std::map<std::string, int64_t>& values) {
  return Evaluator(expr, values).Run();
}

}  // namespace tunefarm::runtime::gpu
