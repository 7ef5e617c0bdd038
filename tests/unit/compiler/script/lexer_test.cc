#include "compiler/script/lexer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace tunefarm::script {
namespace {

using ::testing::HasSubstr;

std::vector<Token> LexOk(absl::string_view source) {
  absl::StatusOr<std::vector<Token>> tokens = Lex(source, "t.te");
  EXPECT_TRUE(tokens.ok()) << tokens.status();
  return tokens.ok() ? *tokens : std::vector<Token>{};
}

std::string Kinds(const std::vector<Token>& tokens) {
  std::string out;
  for (const Token& t : tokens) {
    switch (t.kind) {
      case TokenKind::kName:
        out += "N(" + t.text + ") ";
        break;
      case TokenKind::kKeyword:
        out += "K(" + t.text + ") ";
        break;
      case TokenKind::kInt:
        out += "I(" + std::to_string(t.int_value) + ") ";
        break;
      case TokenKind::kFloat:
        out += "F(" + t.text + ") ";
        break;
      case TokenKind::kString:
        out += "S(" + t.text + ") ";
        break;
      case TokenKind::kOp:
        out += t.text + " ";
        break;
      case TokenKind::kNewline:
        out += "NL ";
        break;
      case TokenKind::kEnd:
        out += "END";
        break;
    }
  }
  return out;
}

TEST(LexerTest, TokenKindsAndValues) {
  EXPECT_EQ(Kinds(LexOk("x = f(1, 2.5, \"s\", 'q')\n")),
            "N(x) = N(f) ( I(1) , F(2.5) , S(s) , S(q) ) NL END");
  EXPECT_EQ(Kinds(LexOk("a // b % c <= d != e")), "N(a) // N(b) % N(c) <= N(d) != N(e) NL END");
  EXPECT_EQ(Kinds(LexOk("lambda i: not True and None")),
            "K(lambda) N(i) : K(not) K(True) K(and) K(None) NL END");
}

TEST(LexerTest, NumbersWithExponentsAndUnderscores) {
  std::vector<Token> t = LexOk("1e-4 .5 1_000 3.");
  ASSERT_EQ(t.size(), 6u);
  EXPECT_EQ(t[0].kind, TokenKind::kFloat);
  EXPECT_DOUBLE_EQ(t[0].float_value, 1e-4);
  EXPECT_DOUBLE_EQ(t[1].float_value, 0.5);
  EXPECT_EQ(t[2].int_value, 1000);
  EXPECT_DOUBLE_EQ(t[3].float_value, 3.0);
}

TEST(LexerTest, PositionsAreLineAndColumn) {
  std::vector<Token> t = LexOk("a = 1\n  bb = 22\n");
  ASSERT_GE(t.size(), 8u);
  EXPECT_EQ(t[0].pos.line, 1);
  EXPECT_EQ(t[0].pos.column, 1);
  EXPECT_EQ(t[2].pos.column, 5);
  EXPECT_EQ(t[4].text, "bb");
  EXPECT_EQ(t[4].pos.line, 2);
  EXPECT_EQ(t[4].pos.column, 3);
  EXPECT_EQ(t[6].pos.column, 8);
}

TEST(LexerTest, CommentsAndBlankLinesProduceNoTokens) {
  EXPECT_EQ(Kinds(LexOk("# header\n\n   \nx = 1  # trailing\n# end")), "N(x) = I(1) NL END");
}

TEST(LexerTest, NewlinesInsideBracketsContinueTheStatement) {
  EXPECT_EQ(Kinds(LexOk("f(a,\n  b)\nc")), "N(f) ( N(a) , N(b) ) NL N(c) NL END");
  EXPECT_EQ(Kinds(LexOk("x = [1,\n# comment\n 2]")), "N(x) = [ I(1) , I(2) ] NL END");
  EXPECT_EQ(Kinds(LexOk("x = 1 + \\\n 2")), "N(x) = I(1) + I(2) NL END");
}

TEST(LexerTest, StringEscapes) {
  std::vector<Token> t = LexOk(R"("a\"b\n")");
  EXPECT_EQ(t[0].text, "a\"b\n");
}

TEST(LexerTest, ErrorsHavePositions) {
  auto expect_error = [](absl::string_view source, absl::string_view message) {
    absl::StatusOr<std::vector<Token>> t = Lex(source, "t.te");
    ASSERT_FALSE(t.ok()) << source;
    EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(t.status().message()), HasSubstr(std::string(message))) << source;
  };
  expect_error("x = $", "t.te:1:5: unexpected character '$'");
  expect_error("x = 'abc\n", "t.te:1:5: unterminated string");
  expect_error("x = 12ab", "t.te:1:7: invalid character 'a' in a number");
  expect_error("x = 99999999999999999999", "t.te:1:5: number 99999999999999999999 is out of range");
  expect_error("f(a,\n b", "t.te:1:2: '(' was never closed");
  expect_error("x = 1)", "t.te:1:6: unmatched ')'");
}

}  // namespace
}  // namespace tunefarm::script
