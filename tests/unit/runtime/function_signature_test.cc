#include "runtime/core/function_signature.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace tunefarm::runtime {
namespace {

using ::testing::HasSubstr;

std::vector<FunctionSignature> Sample() {
  FunctionSignature matmul{
      "matmul",
      {{ArgKind::kTensor, "A", {kDLFloat, 32, 1}, {DimSpec::Const(64), DimSpec::Symbol("n")}},
       {ArgKind::kTensor, "B", {kDLFloat, 32, 4}, {DimSpec::Symbol("n")}},
       {ArgKind::kTensor, "S", {kDLInt, 8, 1}, {}},
       {ArgKind::kInt, "n", {kDLInt, 64, 1}, {}},
       {ArgKind::kFloat, "alpha", {kDLFloat, 64, 1}, {}},
       {ArgKind::kHandle, "ctx", {kDLOpaqueHandle, 64, 1}, {}}}};
  FunctionSignature empty{"no_args", {}};
  return {matmul, empty};
}

void ExpectSame(const std::vector<FunctionSignature>& a, const std::vector<FunctionSignature>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t f = 0; f < a.size(); ++f) {
    EXPECT_EQ(a[f].name, b[f].name);
    ASSERT_EQ(a[f].args.size(), b[f].args.size()) << a[f].name;
    for (size_t i = 0; i < a[f].args.size(); ++i) {
      const ArgSpec& x = a[f].args[i];
      const ArgSpec& y = b[f].args[i];
      EXPECT_EQ(x.kind, y.kind);
      EXPECT_EQ(x.name, y.name);
      EXPECT_EQ(x.dtype.code, y.dtype.code);
      EXPECT_EQ(x.dtype.bits, y.dtype.bits);
      EXPECT_EQ(x.dtype.lanes, y.dtype.lanes);
      ASSERT_EQ(x.shape.size(), y.shape.size()) << x.name;
      for (size_t d = 0; d < x.shape.size(); ++d) {
        EXPECT_EQ(x.shape[d].symbol, y.shape[d].symbol);
        EXPECT_EQ(x.shape[d].value, y.shape[d].value);
      }
    }
  }
}

std::string ParseError(const std::string& text) {
  std::vector<FunctionSignature> parsed;
  std::string error;
  EXPECT_FALSE(ParseManifest(text, &parsed, &error)) << text;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  return error;
}

TEST(ManifestTest, IsReadableLineByLine) {
  EXPECT_EQ(SerializeManifest(Sample()),
            "tunefarm-manifest 1\n"
            "function matmul 6\n"
            "arg tensor A float32 [64,n]\n"
            "arg tensor B float32x4 [n]\n"
            "arg tensor S int8 []\n"
            "arg int n int64\n"
            "arg float alpha float64\n"
            "arg handle ctx handle\n"
            "function no_args 0\n");
}

TEST(ManifestTest, RoundTrips) {
  std::vector<FunctionSignature> parsed;
  std::string error;
  ASSERT_TRUE(ParseManifest(SerializeManifest(Sample()), &parsed, &error)) << error;
  ExpectSame(parsed, Sample());
}

TEST(ManifestTest, RoundTripsNamesThatNeedEscaping) {
  std::vector<FunctionSignature> odd = {
      {"f%1",
       {{ArgKind::kTensor,
         "a b,[c]",
         {kDLFloat, 32, 1},
         {DimSpec::Symbol("2n"), DimSpec::Symbol("-m"), DimSpec::Symbol("x\ty")}},
        {ArgKind::kInt, "", {kDLInt, 32, 1}, {}}}}};
  std::string text = SerializeManifest(odd);
  EXPECT_THAT(text, HasSubstr("arg tensor a%20b%2C%5Bc%5D float32 [%32n,%2Dm,x%09y]"));
  std::vector<FunctionSignature> parsed;
  std::string error;
  ASSERT_TRUE(ParseManifest(text, &parsed, &error)) << error;
  ExpectSame(parsed, odd);
}

TEST(ManifestTest, ToleratesBlankLinesCarriageReturnsAndExtraSpaces) {
  std::vector<FunctionSignature> parsed;
  std::string error;
  ASSERT_TRUE(ParseManifest("\ntunefarm-manifest 1\r\n\n function  f 1\r\narg tensor A int32 [4]\n",
                            &parsed, &error))
      << error;
  ASSERT_EQ(parsed.size(), 1u);
  EXPECT_EQ(parsed[0].args[0].shape[0].value, 4);
}

TEST(ManifestTest, BadInputGivesOneLineNamingTheLine) {
  const std::string h = "tunefarm-manifest 1\n";
  EXPECT_THAT(ParseError(""), HasSubstr("empty manifest"));
  EXPECT_THAT(ParseError("hello\n"), HasSubstr("line 1: not a tunefarm manifest"));
  EXPECT_THAT(ParseError("tunefarm-manifest 2\n"), HasSubstr("unsupported manifest version 2"));
  EXPECT_THAT(ParseError(h + "arg int n int64\n"), HasSubstr("line 2: 'arg' line outside"));
  EXPECT_THAT(ParseError(h + "function f\n"), HasSubstr("expected 'function NAME NUM_ARGS'"));
  EXPECT_THAT(ParseError(h + "function f -1\n"), HasSubstr("expected 'function NAME NUM_ARGS'"));
  EXPECT_THAT(ParseError(h + "function f 0\nfunction f 0\n"), HasSubstr("'f' listed twice"));
  EXPECT_THAT(ParseError(h + "function f 2\narg int n int64\n"),
              HasSubstr("ends inside function 'f' (1 of 2 arguments)"));
  EXPECT_THAT(ParseError(h + "function f 2\narg int n int64\nfunction g 0\n"),
              HasSubstr("line 4: function 'f' has 1 of its 2 arguments"));
  EXPECT_THAT(ParseError(h + "function f 1\narg blob x int8\n"),
              HasSubstr("unknown argument kind 'blob'"));
  EXPECT_THAT(ParseError(h + "function f 1\narg tensor x float33 [1]\n"),
              HasSubstr("unknown dtype 'float33'"));
  EXPECT_THAT(ParseError(h + "function f 1\narg int x float32\n"),
              HasSubstr("dtype float32 is not valid for kind 'int'"));
  EXPECT_THAT(ParseError(h + "function f 1\narg tensor x handle [1]\n"),
              HasSubstr("not valid for kind 'tensor'"));
  EXPECT_THAT(ParseError(h + "function f 1\narg int n int64 [1]\n"),
              HasSubstr("only tensor arguments have a shape"));
  EXPECT_THAT(ParseError(h + "function f 1\narg tensor x int8\n"),
              HasSubstr("expected 'arg tensor NAME DTYPE [SHAPE]'"));
  EXPECT_THAT(ParseError(h + "function f 1\narg tensor x int8 4,5\n"),
              HasSubstr("expected a shape in brackets"));
  EXPECT_THAT(ParseError(h + "function f 1\narg tensor x int8 [4,,5]\n"),
              HasSubstr("empty dimension"));
  EXPECT_THAT(ParseError(h + "function f 1\narg tensor x int8 [-4]\n"),
              HasSubstr("negative dimension -4"));
  EXPECT_THAT(ParseError(h + "function f 1\narg tensor x int8 [4x]\n"),
              HasSubstr("bad dimension '4x'"));
  EXPECT_THAT(ParseError(h + "function f 1\narg tensor x int8 [n%4]\n"),
              HasSubstr("bad symbol 'n%4'"));
  EXPECT_THAT(ParseError(h + "function f 1\narg tensor x int8 [%]\n"), HasSubstr("bad symbol"));
  EXPECT_THAT(ParseError(h + "kernel f 0\n"), HasSubstr("unknown record 'kernel'"));
  EXPECT_THAT(ParseError(h + "junk \x01\x02 " + std::string(200, 'z') + "\n"),
              HasSubstr("'junk ?? zzz"));
}

}  // namespace
}  // namespace tunefarm::runtime
