// RunScript's bindings: each a size within [1, kMaxBindingValue] that fits its variable's type,
// refused (naming the binding) before anything expensive runs.
#include "compiler/script/script.h"

#include <chrono>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>
#include <string>

namespace tunefarm::script {
namespace {

using ::testing::HasSubstr;

constexpr char kTunable[] = R"(n = var("n")
A = placeholder((n,), name="A")
B = compute((n,), lambda i: A[i] * 2.0, name="B")
s = create_schedule(B)
cfg.define_split("tile", B.op.axis[0], num_outputs=2)
args = [A, B]
)";

absl::Status RunWith(const std::string& source, std::map<std::string, int64_t> bindings) {
  ScriptOptions options;
  options.bindings = std::move(bindings);
  return RunScript(source, "t.te", options).status();
}

// n = 2^61-1 (a prime) cost 35 s of the tracker's CPU (the split knob's divisors) before the job
// was accepted.
TEST(ScriptTest, HugeBindingIsRefusedBeforeTheScriptRuns) {
  const auto start = std::chrono::steady_clock::now();
  absl::Status s = RunWith(kTunable, {{"n", (int64_t{1} << 61) - 1}});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("t.te:1:1: binding n=2305843009213693951 is outside [1, 2147483647]"));
}

TEST(ScriptTest, BindingsMustBePositiveSizes) {
  EXPECT_THAT(std::string(RunWith(kTunable, {{"n", 0}}).message()),
              HasSubstr("binding n=0 is outside [1, 2147483647]"));
  EXPECT_THAT(std::string(RunWith(kTunable, {{"n", -4}}).message()),
              HasSubstr("binding n=-4 is outside"));
  EXPECT_TRUE(RunWith(kTunable, {{"n", 64}}).ok());
}

TEST(ScriptTest, TheBindLineIsCheckedToo) {
  absl::Status s = RunScript(std::string("# bind: n=99999999999\n") + kTunable, "t.te").status();
  EXPECT_THAT(std::string(s.message()), HasSubstr("binding n=99999999999 is outside"));
}

TEST(ScriptTest, LargestBindingRunsQuickly) {
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(RunWith(kTunable, {{"n", kMaxBindingValue}}).ok());  // 2^31-1, a prime
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(ScriptTest, BindingMustFitItsVariablesType) {
  absl::Status s = RunWith(R"(n = var("n", dtype="int8")
A = placeholder((n,), name="A")
B = compute((n,), lambda i: A[i] * 2.0, name="B")
s = create_schedule(B)
args = [A, B]
)",
                           {{"n", 300}});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("var: n is bound to 300, which does not fit its type int8"));
}

TEST(ScriptTest, UnknownBindingNameIsQuotedShort) {
  absl::Status s = RunWith(kTunable, {{"n", 4}, {std::string(5000, 'q'), 4}});
  EXPECT_THAT(std::string(s.message()), HasSubstr("... (5000 bytes)"));
  EXPECT_LT(s.message().size(), 400u);
}

}  // namespace
}  // namespace tunefarm::script
