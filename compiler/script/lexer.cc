#include "compiler/script/lexer.h"

#include <cctype>
#include <charconv>
#include <string>

#include "absl/strings/str_cat.h"

namespace tunefarm::script {
namespace {

constexpr absl::string_view kKeywords[] = {"lambda", "and",    "or",   "not", "True", "False",
                                           "None",   "import", "from", "as",  "in"};

// Two-character operators first, so "//" is not read as two "/".
constexpr absl::string_view kOperators[] = {"//", "<=", ">=", "==", "!=", "**", "(", ")",
                                            "[",  "]",  "{",  "}",  ",",  ":",  ".", "=",
                                            "+",  "-",  "*",  "/",  "%",  "<",  ">", ";"};

// Far beyond real scripts; keeps the parser's recursion (one level per bracket) shallow.
constexpr int kMaxBracketDepth = 64;

bool IsNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

class Lexer {
 public:
  Lexer(absl::string_view source, absl::string_view filename) : src_(source), filename_(filename) {}

  absl::StatusOr<std::vector<Token>> Run() {
    while (i_ < src_.size()) {
      char c = src_[i_];
      if (c == '\n') {
        NewlineChar();
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
        Advance(1);
      } else if (c == '#') {
        while (i_ < src_.size() && src_[i_] != '\n') Advance(1);
      } else if (c == '\\' && i_ + 1 < src_.size() && src_[i_ + 1] == '\n') {
        Advance(1);  // explicit line continuation: the newline after it is not a statement end
        ++line_;
        ++i_;
        column_ = 1;
      } else if (absl::Status st = LexToken(); !st.ok()) {
        return st;
      }
    }
    if (!tokens_.empty() && tokens_.back().kind != TokenKind::kNewline) Push(TokenKind::kNewline);
    if (depth_ > 0) {
      return ErrorAt(filename_, open_pos_, absl::StrCat("'", open_text_, "' was never closed"));
    }
    Push(TokenKind::kEnd);
    return std::move(tokens_);
  }

 private:
  absl::Status LexToken() {
    char c = src_[i_];
    if (IsNameStart(c)) return LexName();
    if (IsDigit(c) || (c == '.' && i_ + 1 < src_.size() && IsDigit(src_[i_ + 1]))) {
      return LexNumber();
    }
    if (c == '"' || c == '\'') return LexString();
    return LexOperator();
  }

  void NewlineChar() {
    // Inside brackets a newline continues the statement; blank lines produce nothing.
    if (depth_ == 0 && !tokens_.empty() && tokens_.back().kind != TokenKind::kNewline) {
      Push(TokenKind::kNewline);
    }
    ++i_;
    ++line_;
    column_ = 1;
  }

  absl::Status LexName() {
    Pos pos = Here();
    size_t start = i_;
    while (i_ < src_.size() && IsNameChar(src_[i_])) Advance(1);
    std::string text(src_.substr(start, i_ - start));
    bool keyword = false;
    for (absl::string_view k : kKeywords) keyword = keyword || k == text;
    Push(keyword ? TokenKind::kKeyword : TokenKind::kName, std::move(text), pos);
    return absl::OkStatus();
  }

  absl::Status LexNumber() {
    Pos pos = Here();
    size_t start = i_;
    bool is_float = false;
    while (i_ < src_.size() && (IsDigit(src_[i_]) || src_[i_] == '_')) Advance(1);
    if (i_ < src_.size() && src_[i_] == '.') {
      is_float = true;
      Advance(1);
      while (i_ < src_.size() && IsDigit(src_[i_])) Advance(1);
    }
    if (i_ < src_.size() && (src_[i_] == 'e' || src_[i_] == 'E')) {
      size_t exp = i_ + 1;
      if (exp < src_.size() && (src_[exp] == '+' || src_[exp] == '-')) ++exp;
      if (exp < src_.size() && IsDigit(src_[exp])) {
        is_float = true;
        Advance(exp - i_);
        while (i_ < src_.size() && IsDigit(src_[i_])) Advance(1);
      }
    }
    if (i_ < src_.size() && IsNameChar(src_[i_])) {
      return ErrorAt(filename_, Here(),
                     absl::StrCat("invalid character '", src_.substr(i_, 1), "' in a number"));
    }
    std::string text(src_.substr(start, i_ - start));
    std::string digits;
    for (char ch : text) {
      if (ch != '_') digits.push_back(ch);
    }
    Token token{is_float ? TokenKind::kFloat : TokenKind::kInt, text, pos};
    const char* end = digits.data() + digits.size();
    std::from_chars_result r = is_float ? std::from_chars(digits.data(), end, token.float_value)
                                        : std::from_chars(digits.data(), end, token.int_value);
    if (r.ec != std::errc() || r.ptr != end) {
      return ErrorAt(filename_, pos, absl::StrCat("number ", text, " is out of range"));
    }
    tokens_.push_back(std::move(token));
    return absl::OkStatus();
  }

  absl::Status LexString() {
    Pos pos = Here();
    char quote = src_[i_];
    Advance(1);
    std::string value;
    while (true) {
      if (i_ >= src_.size() || src_[i_] == '\n') {
        return ErrorAt(filename_, pos, "unterminated string");
      }
      char c = src_[i_];
      if (c == quote) break;
      if (c == '\\' && i_ + 1 < src_.size()) {
        char e = src_[i_ + 1];
        value.push_back(e == 'n' ? '\n' : e == 't' ? '\t' : e);
        Advance(2);
        continue;
      }
      value.push_back(c);
      Advance(1);
    }
    Advance(1);
    Push(TokenKind::kString, std::move(value), pos);
    return absl::OkStatus();
  }

  absl::Status LexOperator() {
    Pos pos = Here();
    for (absl::string_view op : kOperators) {
      if (src_.substr(i_, op.size()) != op) continue;
      if (op == "(" || op == "[" || op == "{") {
        if (depth_ >= kMaxBracketDepth) {
          return ErrorAt(filename_, pos, "brackets nested too deeply");
        }
        if (depth_++ == 0) {
          open_pos_ = pos;
          open_text_ = op;
        }
      } else if (op == ")" || op == "]" || op == "}") {
        if (depth_ == 0) {
          return ErrorAt(filename_, pos, absl::StrCat("unmatched '", op, "'"));
        }
        --depth_;
      }
      Advance(op.size());
      Push(TokenKind::kOp, std::string(op), pos);
      return absl::OkStatus();
    }
    return ErrorAt(filename_, pos, absl::StrCat("unexpected character '", src_.substr(i_, 1), "'"));
  }

  Pos Here() const { return Pos{line_, column_}; }
  void Advance(size_t n) {
    i_ += n;
    column_ += static_cast<int>(n);
  }
  void Push(TokenKind kind, std::string text = "", Pos pos = Pos{0, 0}) {
    if (pos.line == 0) pos = Here();
    tokens_.push_back(Token{kind, std::move(text), pos});
  }

  absl::string_view src_;
  absl::string_view filename_;
  size_t i_ = 0;
  int line_ = 1;
  int column_ = 1;
  int depth_ = 0;  // open brackets: newlines inside them do not end the statement
  Pos open_pos_;   // where the outermost open bracket is
  absl::string_view open_text_;
  std::vector<Token> tokens_;
};

}  // namespace

absl::StatusOr<std::vector<Token>> Lex(absl::string_view source, absl::string_view filename) {
  return Lexer(source, filename).Run();
}

}  // namespace tunefarm::script
