// Misuses of `cfg` in a tunable script: each is an InvalidArgument error at FILE:LINE:COL naming
// the knob and what is wrong, in every mode (plain run, define, apply).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/script/script.h"
#include "tests/unit/compiler/script/script_test_support.h"

namespace tunefarm::script {
namespace {

using ::testing::HasSubstr;

// A 2-D elementwise computation at constant sizes, then `tail` (which ends with args).
std::string WithBody(const std::string& tail) {
  return "A = placeholder((16, 8), name=\"A\")\n"
         "B = compute((16, 8), lambda i, j: A[i, j] + 1.0, name=\"B\")\n"
         "s = create_schedule(B)\n"
         "i, j = B.op.axis\n" +
         tail + "args = [A, B]\n";
}

TEST(CfgErrorsTest, UnknownKnobNameListsTheDefinedOnes) {
  EXPECT_THAT(ScriptError(WithBody("cfg.define_knob(\"u\", [1])\nx = cfg[\"tile\"]\n")),
              HasSubstr("t.te:6:9: cfg has no knob 'tile' (defined so far: u)"));
  EXPECT_THAT(ScriptError(WithBody("x = cfg[1]\n")),
              HasSubstr("t.te:5:5: cfg is indexed by one knob name"));
}

TEST(CfgErrorsTest, DefiningAKnobTwice) {
  EXPECT_THAT(ScriptError(WithBody("cfg.define_split(\"t\", i)\ncfg.define_split(\"t\", j)\n")),
              HasSubstr("t.te:6:5: cfg.define_split('t'): knob 't' is defined twice"));
}

TEST(CfgErrorsTest, ApplyOnAnotherAxisCount) {
  EXPECT_THAT(ScriptError(WithBody("cfg.define_reorder(\"o\", [i, j])\n"
                                   "cfg[\"o\"].apply(s, B, [i, j, i])\n")),
              HasSubstr("t.te:6:22: cfg[\"o\"].apply: the knob was defined to order 2 axes, "
                        "got 3"));
  EXPECT_THAT(ScriptError(WithBody("cfg.define_annotate(\"a\", [i, j], policy=\"try_vec\")\n"
                                   "cfg[\"a\"].apply(s, B, [j])\n")),
              HasSubstr("the knob was defined to annotate 2 axes, got 1"));
  EXPECT_THAT(ScriptError(WithBody("cfg.define_split(\"t\", i)\n"
                                   "cfg[\"t\"].apply(s, B, [i, j])\n")),
              HasSubstr("a split knob applies to one axis, got 2"));
}

TEST(CfgErrorsTest, SplitApplyOnAnAxisOfAnotherExtent) {
  EXPECT_THAT(ScriptError(WithBody("cfg.define_split(\"t\", i)\ncfg[\"t\"].apply(s, B, j)\n")),
              HasSubstr("t.te:6:22: cfg[\"t\"].apply: axis j has extent 8 but the knob splits "
                        "an extent of 16"));
}

TEST(CfgErrorsTest, SymbolicExtentNamesTheKnob) {
  const std::string source =
      "n = var(\"n\")\nA = placeholder((n,), name=\"A\")\n"
      "B = compute((n,), lambda i: A[i], name=\"B\")\n"
      "s = create_schedule(B)\n"
      "cfg.define_split(\"tile_x\", B.op.axis[0])\nargs = [A, B]\n";
  EXPECT_THAT(ScriptError(source),
              HasSubstr("t.te:5:28: cfg.define_split('tile_x'): the extent of axis i is n, not a "
                        "constant"));
}

TEST(CfgErrorsTest, BadPoliciesAndOptions) {
  EXPECT_THAT(ScriptError(WithBody("cfg.define_split(\"t\", i, policy=\"odd\")\n")),
              HasSubstr("t.te:5:26: cfg.define_split: unknown policy \"odd\" (expected factors, "
                        "power2 or candidate)"));
  EXPECT_THAT(
      ScriptError(WithBody("cfg.define_split(\"t\", i, candidate=[[3, 5]])\n")),
      HasSubstr("t.te:5:5: cfg.define_split('t'): candidate [3,5] does not multiply to 16"));
  EXPECT_THAT(ScriptError(WithBody("cfg.define_annotate(\"a\", [j], policy=\"try_magic\")\n")),
              HasSubstr("unknown policy \"try_magic\""));
  EXPECT_THAT(ScriptError(WithBody("cfg.define_knob(\"k\", [1, 1.5])\n")),
              HasSubstr("cfg.define_knob: candidate must hold integers or strings, got a float"));
  EXPECT_THAT(ScriptError(WithBody("cfg.define_knob(\"k\", [])\n")),
              HasSubstr("cfg.define_knob('k'): "));
  EXPECT_THAT(ScriptError(WithBody("cfg.define_reorder(\"o\", [i, j], candidate=[[0, 1, 2]])\n")),
              HasSubstr("a candidate orders 3 axes but the knob has 2"));
  EXPECT_THAT(ScriptError(WithBody("x = cfg.define_everything\n")),
              HasSubstr("t.te:5:9: cfg has no attribute 'define_everything'"));
}

TEST(CfgErrorsTest, PlainKnobsHaveNothingToApply) {
  EXPECT_THAT(ScriptError(WithBody("cfg.define_knob(\"u\", [0, 1])\ncfg[\"u\"].apply(s, B, i)\n")),
              HasSubstr("t.te:6:10: cfg[\"u\"].apply: a knob of plain values has nothing to "
                        "apply"));
}

TEST(CfgErrorsTest, ABindingForAnUnknownVariable) {
  ScriptOptions options;
  options.bindings = std::map<std::string, int64_t>{{"m", 3}};
  absl::StatusOr<ScriptResult> r = RunScript(WithBody(""), "t.te", options);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(),
              HasSubstr("t.te:1:1: a binding names unknown variable 'm'; the script's variables "
                        "are: none"));
}

// Apply mode: the config comes from one version of the script and is applied to another.
absl::Status ApplyError(const std::string& defined, const std::string& applied) {
  space::ConfigSpace space;
  ScriptOptions define;
  define.define_into = &space;
  absl::StatusOr<ScriptResult> r = RunScript(WithBody(defined), "t.te", define);
  if (!r.ok()) return r.status();
  absl::StatusOr<space::Config> c = space.Get(0);
  if (!c.ok()) return c.status();
  ScriptOptions apply;
  apply.config = &*c;
  return RunScript(WithBody(applied), "t.te", apply).status();
}

TEST(CfgErrorsTest, ApplyModeRejectsAKnobWithAnotherDomain) {
  absl::Status st = ApplyError("cfg.define_split(\"t\", i)\n", "cfg.define_split(\"t\", j)\n");
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("t.te:5:5: cfg.define_split('t'): knob 't' is defined as a "
                                      "split knob of 4 values"));
  EXPECT_THAT(st.message(), HasSubstr("but the config's space has a split knob of 5 values"));
  st = ApplyError("cfg.define_knob(\"u\", [1, 2])\n", "cfg.define_knob(\"u\", [1, 3])\n");
  EXPECT_THAT(st.message(), HasSubstr("knob 'u' is defined as a choice knob"));
}

TEST(CfgErrorsTest, ApplyModeRejectsAKnobTheSpaceLacksOrMissesOne) {
  absl::Status st = ApplyError("cfg.define_knob(\"u\", [1, 2])\n",
                               "cfg.define_knob(\"u\", [1, 2])\ncfg.define_knob(\"v\", [1])\n");
  EXPECT_THAT(st.message(),
              HasSubstr("t.te:6:5: cfg.define_knob('v'): knob 'v' is not in the config's space "
                        "(its knobs: u)"));
  st = ApplyError("cfg.define_knob(\"u\", [1, 2])\ncfg.define_knob(\"v\", [1])\n",
                  "cfg.define_knob(\"u\", [1, 2])\n");
  EXPECT_THAT(st.message(), HasSubstr("the config's knob 'v' is not defined by the script"));
}

TEST(CfgErrorsTest, ScriptsWithoutCfgRunAsBefore) {
  std::unique_ptr<Evaluator> ev = RunOk("cfg2 = 3\nx = cfg2 + 1\n");
  EXPECT_EQ(Global(*ev, "x").as<int64_t>(), 4);
  // A script may still name its own `cfg`; the global wins over the builtin object.
  ev = RunOk("cfg = 5\ny = cfg * 2\n");
  EXPECT_EQ(Global(*ev, "y").as<int64_t>(), 10);
}

}  // namespace
}  // namespace tunefarm::script
