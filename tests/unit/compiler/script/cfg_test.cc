// Tunable scripts: `cfg` knobs declared into a config space (define mode), applied from a config
// (apply mode) and read as fallbacks (a plain run); bound variables; every applied point of
// examples/tune_matmul.te lowered and run on the interpreter against a naive matmul.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <random>

#include "compiler/interp/interpreter.h"
#include "compiler/passes/lower.h"
#include "compiler/script/bind_line.h"
#include "compiler/script/script.h"
#include "compiler/script/tuning.h"
#include "compiler/space/split_knob.h"
#include "runtime/ndarray.h"
#include "tests/testing/files.h"
#include "tests/unit/compiler/script/script_test_support.h"

namespace tunefarm::script {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kTiled[] = R"(# bind: n=48
n = var("n")
A = placeholder((n, 32), name="A")
B = compute((n, 32), lambda i, j: A[i, j] * 2.0, name="B")
s = create_schedule(B)
i, j = B.op.axis
cfg.define_split("tile_i", i, num_outputs=3, policy="factors")
cfg.define_split("tile_j", j, policy="power2", max_factor=8)
cfg.define_reorder("order", [i, j])
cfg.define_annotate("ann", [j], policy="try_unroll_vec")
cfg.define_knob("unroll", [0, 1, 2])
cfg.define_knob("layout", ["NCHW", "NHWC"])
io, im, ii = cfg["tile_i"].apply(s, B, i)
jo, ji = cfg["tile_j"].apply(s, B, j)
factors = cfg["tile_i"].val
u = cfg["unroll"].val
lay = cfg["layout"].val
fb = cfg.is_fallback
args = [A, B]
)";

std::string MatmulSource() {
  return fixtures::ReadFile(fixtures::SourcePath("examples/tune_matmul.te")).value_or("");
}

TEST(CfgTest, DefineModeDeclaresEveryKnobInOrder) {
  space::ConfigSpace space;
  ScriptOptions options;
  options.define_into = &space;
  absl::StatusOr<ScriptResult> r = RunScript(kTiled, "t.te", options);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(space.num_knobs(), 6);
  std::vector<std::string> names;
  std::vector<int64_t> sizes;
  for (int k = 0; k < space.num_knobs(); ++k) {
    names.push_back(space.knob(k).name());
    sizes.push_back(space.knob(k).size());
  }
  EXPECT_THAT(names, ElementsAre("tile_i", "tile_j", "order", "ann", "unroll", "layout"));
  // 48 = 2^4 * 3 into 3 ordered parts: C(6,2) * C(3,2) = 45; 32 with innermost in {1,2,4,8}: 4.
  EXPECT_THAT(sizes, ElementsAre(45, 4, 2, 3, 3, 2));
  EXPECT_EQ(space.size(), 45 * 4 * 2 * 3 * 3 * 2);
  EXPECT_EQ(r->knob_names, names);
  // n came from the bind line (the script uses cfg), so the extents are constants.
  EXPECT_THAT(r->bound_vars, ElementsAre(std::make_pair(std::string("n"), int64_t{48})));
  EXPECT_EQ(r->args[0].shape()[0].As<ir::IntImmNode>()->value, 48);
}

TEST(CfgTest, FallbackPicksTheLargestInnermostUpTo16AndFirstOtherwise) {
  space::ConfigSpace space;
  ScriptOptions options;
  options.define_into = &space;
  absl::StatusOr<ScriptResult> r = RunScript(kTiled, "t.te", options);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->knob_indices.size(), 6u);
  absl::StatusOr<space::Config> c = space.FromKnobIndices(r->knob_indices);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_THAT(*c->SplitFactors("tile_i"), ElementsAre(3, 1, 16));
  EXPECT_THAT(*c->SplitFactors("tile_j"), ElementsAre(4, 8));
  EXPECT_THAT(*c->Permutation("order"), ElementsAre(0, 1));
  EXPECT_EQ(*c->AnnotationOf("ann"), space::Annotation::kNone);
  EXPECT_EQ(*c->ChoiceInt("unroll"), 0);
  EXPECT_EQ(FallbackIndex(space.knob(0)), r->knob_indices[0]);
}

TEST(CfgTest, ApplyModeReadsTheConfigsValues) {
  space::ConfigSpace space;
  ScriptOptions define;
  define.define_into = &space;
  ASSERT_TRUE(RunScript(kTiled, "t.te", define).ok());
  absl::StatusOr<space::Config> c = space.FromKnobIndices({7, 2, 1, 2, 2, 1});
  ASSERT_TRUE(c.ok()) << c.status();
  ScriptOptions apply;
  apply.config = &*c;
  absl::StatusOr<ScriptResult> r = RunScript(kTiled, "t.te", apply);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(r->knob_indices, ElementsAre(7, 2, 1, 2, 2, 1));
  absl::StatusOr<ir::PrimFunc> f = passes::Lower(r->schedule, r->args, "f", {});
  ASSERT_TRUE(f.ok()) << f.status();
  // The values the script saw (bindings from the bind line, as RunScript does).
  const std::map<std::string, int64_t> bindings = {{"n", 48}};
  Tuning tuning = Tuning::Apply(&*c);
  Evaluator ev("t.te", &tuning, &bindings);
  absl::StatusOr<ast::Module> module = Parse(kTiled, "t.te");
  ASSERT_TRUE(module.ok());
  ASSERT_TRUE(ev.Run(*module).ok());
  std::vector<int64_t> factors;
  for (const Value& v : Global(ev, "factors").items()) factors.push_back(v.as<int64_t>());
  EXPECT_EQ(space::KnobValue(factors), space.knob(0).ValueAt(7));
  EXPECT_EQ(Global(ev, "u").as<int64_t>(), 2);
  EXPECT_EQ(Global(ev, "lay").as<std::string>(), "NHWC");
  EXPECT_FALSE(Global(ev, "fb").as<bool>());
}

TEST(CfgTest, ValuesAndIsFallbackReachTheScript) {
  // `val` of each kind and `is_fallback`, checked through the shapes they build.
  const std::string source = R"(# bind:
cfg.define_knob("w", [5, 7])
cfg.define_knob("name", ["x", "y"])
cfg.define_split("sp", 12, num_outputs=2, policy="candidate", candidate=[[3, 4], [6, 2]])
A = placeholder((cfg["w"].val, cfg["sp"].val[1], cfg["sp"].size[0]), name="A")
B = compute((1,), lambda i: A[0, 0, 0], name=cfg["name"].val)
s = create_schedule(B)
args = [A, B]
)";
  space::ConfigSpace space;
  ScriptOptions define;
  define.define_into = &space;
  absl::StatusOr<ScriptResult> r = RunScript(source, "t.te", define);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->args[0].shape()[0].As<ir::IntImmNode>()->value, 5);
  EXPECT_EQ(r->args[0].shape()[1].As<ir::IntImmNode>()->value, 4);  // fallback [3, 4]
  EXPECT_EQ(r->args[0].shape()[2].As<ir::IntImmNode>()->value, 3);
  EXPECT_EQ(r->args[1].name(), "x");
  absl::StatusOr<space::Config> c = space.FromKnobIndices({1, 1, 1});
  ASSERT_TRUE(c.ok());
  ScriptOptions apply;
  apply.config = &*c;
  r = RunScript(source, "t.te", apply);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->args[0].shape()[0].As<ir::IntImmNode>()->value, 7);
  EXPECT_EQ(r->args[0].shape()[1].As<ir::IntImmNode>()->value, 2);
  EXPECT_EQ(r->args[0].shape()[2].As<ir::IntImmNode>()->value, 6);
  EXPECT_EQ(r->args[1].name(), "y");
}

// The globals of `source` run under `tuning`.
std::unique_ptr<Evaluator> RunWith(const std::string& source, Tuning& tuning) {
  auto evaluator = std::make_unique<Evaluator>("t.te", &tuning);
  absl::StatusOr<ast::Module> module = Parse(source, "t.te");
  EXPECT_TRUE(module.ok()) << module.status();
  if (module.ok()) {
    absl::Status st = evaluator->Run(*module);
    EXPECT_TRUE(st.ok()) << st;
  }
  return evaluator;
}

TEST(CfgTest, IsFallbackIsFalseOnlyWhenApplying) {
  const std::string source =
      "cfg.define_knob(\"k\", [1, 2])\nfb = cfg.is_fallback\n"
      "v = cfg[\"k\"].val\n";
  EXPECT_TRUE(Global(*RunOk(source), "fb").as<bool>());
  space::ConfigSpace space;
  Tuning define = Tuning::Define(&space);
  std::unique_ptr<Evaluator> ev = RunWith(source, define);
  EXPECT_TRUE(Global(*ev, "fb").as<bool>());
  EXPECT_EQ(Global(*ev, "v").as<int64_t>(), 1);
  absl::StatusOr<space::Config> c = space.Get(1);
  ASSERT_TRUE(c.ok());
  Tuning apply = Tuning::Apply(&*c);
  ev = RunWith(source, apply);
  EXPECT_FALSE(Global(*ev, "fb").as<bool>());
  EXPECT_EQ(Global(*ev, "v").as<int64_t>(), 2);
}

TEST(CfgTest, ExplicitBindingsWinAndScriptsWithoutCfgStaySymbolic) {
  const std::string plain =
      "# bind: n=8\nn = var(\"n\")\nA = placeholder((n,), name=\"A\")\n"
      "B = compute((n,), lambda i: A[i], name=\"B\")\nargs = [A, B]\n"
      "s = create_schedule(B)\n";
  absl::StatusOr<ScriptResult> r = RunScript(plain, "t.te");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->args[0].shape()[0].As<ir::VarNode>() != nullptr);
  EXPECT_TRUE(r->bound_vars.empty());
  ScriptOptions options;
  options.bindings = std::map<std::string, int64_t>{{"n", 5}};
  r = RunScript(plain, "t.te", options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->args[0].shape()[0].As<ir::IntImmNode>()->value, 5);
  ASSERT_EQ(r->symbolic_vars.size(), 1u);  // still listed, for --bind to match
}

TEST(CfgTest, ParseBindLine) {
  auto v = ParseBindLine("# bind: n=67, m=45\nx = 1\n", "t.te");
  ASSERT_TRUE(v.ok() && v->has_value());
  EXPECT_EQ((**v).at("n"), 67);
  EXPECT_EQ((**v).at("m"), 45);
  v = ParseBindLine("# bind:\n", "t.te");
  ASSERT_TRUE(v.ok() && v->has_value());
  EXPECT_TRUE((**v).empty());
  v = ParseBindLine("x = 1\n", "t.te");
  ASSERT_TRUE(v.ok());
  EXPECT_FALSE(v->has_value());
  v = ParseBindLine("# bind: n=6x\n", "t.te");
  ASSERT_FALSE(v.ok());
  EXPECT_THAT(v.status().message(), HasSubstr("t.te:1:8: malformed bind item 'n=6x'"));
  v = ParseBindLine("# bind: n=1,n=2\n", "t.te");
  ASSERT_FALSE(v.ok());
  EXPECT_THAT(v.status().message(), HasSubstr("gives n twice"));
}

// C = A x B, naive, in double.
std::vector<double> NaiveMatmul(const float* a, const float* b, int64_t n) {
  std::vector<double> c(n * n, 0.0);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = 0; k < n; ++k) {
      for (int64_t j = 0; j < n; ++j) c[i * n + j] += double(a[i * n + k]) * b[k * n + j];
    }
  }
  return c;
}

// Several points of examples/tune_matmul.te (at n=24): each lowers, runs on the interpreter and
// matches the naive product.
TEST(CfgTest, TuneMatmulConfigsMatchANaiveMatmulOnTheInterpreter) {
  const std::string source = MatmulSource();
  ASSERT_FALSE(source.empty());
  constexpr int64_t n = 24;
  space::ConfigSpace space;
  ScriptOptions define;
  define.define_into = &space;
  define.bindings = std::map<std::string, int64_t>{{"n", n}};
  absl::StatusOr<ScriptResult> defined = RunScript(source, "tune_matmul.te", define);
  ASSERT_TRUE(defined.ok()) << defined.status();
  ASSERT_EQ(space.num_knobs(), 7);

  std::mt19937_64 rng(7);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<runtime::NDArray> arrays;
  for (int k = 0; k < 3; ++k) {
    arrays.push_back(*runtime::NDArray::Empty({n, n}, DLDataType{kDLFloat, 32, 1}));
    for (int64_t e = 0; e < n * n; ++e) static_cast<float*>(arrays[k].data())[e] = dist(rng);
  }
  const std::vector<double> want = NaiveMatmul(static_cast<const float*>(arrays[0].data()),
                                               static_cast<const float*>(arrays[1].data()), n);
  std::vector<int64_t> indices = {0, space.size() - 1, space.size() / 2, space.size() / 3};
  for (int extra = 0; extra < 4; ++extra) {
    indices.push_back(std::uniform_int_distribution<int64_t>(0, space.size() - 1)(rng));
  }
  for (int64_t index : indices) {
    absl::StatusOr<space::Config> c = space.Get(index);
    ASSERT_TRUE(c.ok());
    ScriptOptions apply = define;
    apply.define_into = nullptr;
    apply.config = &*c;
    absl::StatusOr<ScriptResult> r = RunScript(source, "tune_matmul.te", apply);
    ASSERT_TRUE(r.ok()) << "config " << index << ": " << r.status();
    absl::StatusOr<ir::PrimFunc> f = passes::Lower(r->schedule, r->args, "mm", {});
    ASSERT_TRUE(f.ok()) << "config " << index << ": " << f.status();
    std::fill_n(static_cast<float*>(arrays[2].data()), n * n, 0.0f);
    ASSERT_TRUE(interp::Run(*f, {&arrays[0], &arrays[1], &arrays[2]}).ok());
    const float* got = static_cast<const float*>(arrays[2].data());
    for (int64_t e = 0; e < n * n; ++e) {
      ASSERT_NEAR(got[e], want[e], 1e-4) << "config " << index << " element " << e;
    }
  }
}

}  // namespace
}  // namespace tunefarm::script
