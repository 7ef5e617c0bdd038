// Bad input given to the built `tunefarm` binary, as a user types it: each case checks the exit
// code (docs: 0 done, 1 failed, 2 usage), the one-line reason, and that a refused command created
// nothing. Each is a defect a new user met: a flag silently taken, a message that hid the cause.
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "tests/testing/child_process.h"
#include "tests/testing/files.h"
#include "tests/unit/compiler/frontend/onnx/onnx_model_builder.h"

namespace tunefarm {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

struct Outcome {
  int code = -1;
  std::string output;  // stdout and stderr together
};

Outcome Tunefarm(std::vector<std::string> args) {
  static int runs = 0;
  args.insert(args.begin(), TUNEFARM_BINARY);
  const std::string log =
      (std::filesystem::path(::testing::TempDir()) / ("cli_" + std::to_string(++runs) + ".log"))
          .string();
  fixtures::ChildProcess child(args, log);
  Outcome o;
  o.code = child.Wait(120);
  o.output = child.Log();
  return o;
}

std::string Scratch(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "cli_scratch";
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

// One 1x1 conv over an input whose batch dimension is named, as scripts/export-models.py exports.
std::string NamedBatchModel() {
  using B = frontend::onnx::testing::OnnxModelBuilder;
  B b(13);
  auto* shape = b.Input("image", {})->mutable_type()->mutable_tensor_type()->mutable_shape();
  shape->add_dim()->set_dim_param("batch");
  for (int64_t d : {3, 8, 8}) shape->add_dim()->set_dim_value(d);
  b.FloatInit("w", {4, 3, 1, 1});
  b.Node("Conv", {"image", "w"}, {"out"});
  b.Output("out");
  return fixtures::WriteTempFile("named_batch.onnx", b.Bytes());
}

std::string FixedModel() {
  using B = frontend::onnx::testing::OnnxModelBuilder;
  B b(13);
  b.Input("image", {1, 3, 8, 8});
  b.FloatInit("w", {4, 3, 1, 1});
  b.Node("Conv", {"image", "w"}, {"out"});
  b.Output("out");
  return fixtures::WriteTempFile("fixed.onnx", b.Bytes());
}

TEST(CliBadInputTest, AnUnknownCommandIsNamedWithTheCommandsThereAre) {
  Outcome o = Tunefarm({"frob"});
  EXPECT_EQ(o.code, 2) << o.output;
  EXPECT_THAT(o.output, HasSubstr("unknown command 'frob'"));
  EXPECT_THAT(o.output, HasSubstr("tune"));
}

TEST(CliBadInputTest, VersionNamesTheCommitAndLlvm) {
  Outcome o = Tunefarm({"--version"});
  EXPECT_EQ(o.code, 0) << o.output;
  EXPECT_THAT(o.output, ::testing::ContainsRegex("^tunefarm [0-9]+\\.[0-9]+\\.[0-9]+ \\(commit "));
  EXPECT_THAT(o.output, HasSubstr(", LLVM 19."));
}

// Item 9: 0 was taken as 1 (101 was refused), and negative tolerances were accepted.
TEST(CliBadInputTest, OutOfRangeNumbersAreRefusedInWords) {
  Outcome priority = Tunefarm({"tune", "--workload", "matmul:8,8,8", "--priority", "0"});
  EXPECT_EQ(priority.code, 2) << priority.output;
  EXPECT_THAT(priority.output, HasSubstr("--priority: must be in 1..100, got 0"));
  const std::string te = fixtures::SourcePath("examples/matmul_tiled.te");
  Outcome rtol = Tunefarm({"run", te, "--rtol", "-1"});
  EXPECT_EQ(rtol.code, 2) << rtol.output;
  EXPECT_THAT(rtol.output, HasSubstr("--rtol: must be at least 0, got -1"));
  Outcome model_rtol = Tunefarm({"model", "run", FixedModel(), "--rtol", "-1"});
  EXPECT_EQ(model_rtol.code, 2) << model_rtol.output;
  EXPECT_THAT(model_rtol.output, HasSubstr("--rtol: must be at least 0"));
  Outcome threads = Tunefarm({"model", "run", FixedModel(), "--threads", "0"});
  EXPECT_EQ(threads.code, 2) << threads.output;
  EXPECT_THAT(threads.output, HasSubstr("--threads: must be at least 1, got 0"));
  EXPECT_THAT(threads.output, Not(HasSubstr("1797693")));
}

// Item 5: a missing --db made an empty database and built untuned, rc 0.
TEST(CliBadInputTest, ModelBuildWithAMissingDatabaseFailsAndCreatesNothing) {
  const std::string db = Scratch("missing.db");
  std::filesystem::remove(db);
  Outcome o = Tunefarm(
      {"model", "build", FixedModel(), "-o", Scratch("m.tfm"), "--db", db, "--device-key", "k"});
  EXPECT_EQ(o.code, 1) << o.output;
  EXPECT_THAT(o.output, HasSubstr("no record database at " + db));
  EXPECT_FALSE(std::filesystem::exists(db));
}

// "Databases created before a bad flag is refused": a mistyped --tuner left an empty database.
TEST(CliBadInputTest, AnUnknownTunerIsRefusedBeforeTheDatabaseIsCreated) {
  const std::string db = Scratch("tuner.db");
  std::filesystem::remove(db);
  Outcome o = Tunefarm({"tune", "--workload", "matmul:8,8,8", "--tuner", "xgboost", "--db", db});
  EXPECT_EQ(o.code, 2) << o.output;
  EXPECT_THAT(o.output, HasSubstr("unknown tuner 'xgboost' (known: xgb, random, grid, ga)"));
  EXPECT_FALSE(std::filesystem::exists(db));
  Outcome model = Tunefarm({"model", "tune", FixedModel(), "--tuner", "xgboost", "--db", db});
  EXPECT_EQ(model.code, 2) << model.output;
  EXPECT_FALSE(std::filesystem::exists(db));
}

// Item 4: `model passes` had no --input-shape, and "--disable a,b" was one unknown name, reported
// after the graph had been printed.
TEST(CliBadInputTest, ModelPassesTakesShapesAndACommaSeparatedDisableList) {
  const std::string model = NamedBatchModel();
  Outcome ok = Tunefarm({"model", "passes", model, "--input-shape", "image=2,3,8,8", "--disable",
                         "fold_scales,dead_code"});
  EXPECT_EQ(ok.code, 0) << ok.output;
  EXPECT_THAT(ok.output, HasSubstr("== imported"));
  EXPECT_THAT(ok.output, Not(HasSubstr("== after dead_code")));
  Outcome bad = Tunefarm({"model", "passes", model, "--input-shape", "image=2,3,8,8", "--disable",
                          "fold_scales,nosuch"});
  EXPECT_EQ(bad.code, 2) << bad.output;
  EXPECT_THAT(bad.output, HasSubstr("unknown graph pass 'nosuch'"));
  EXPECT_THAT(bad.output, Not(HasSubstr("== imported"))) << "refused before the import";
}

// Item 7: a worker registered with target "bogus".
TEST(CliBadInputTest, AWorkerRefusesATargetItCannotParseBeforeRegistering) {
  Outcome o = Tunefarm({"worker", "--tracker", "127.0.0.1:1", "--key", "k", "--target", "bogus"});
  EXPECT_EQ(o.code, 2) << o.output;
  EXPECT_THAT(o.output, HasSubstr("--target: "));
  EXPECT_THAT(o.output, HasSubstr("bogus"));
}

// Item 8: records import stored a non-canonical key (invisible to `best` afterwards) and a bogus
// target.
TEST(CliBadInputTest, RecordsImportCanonicalisesKeysAndRefusesBogusTargets) {
  const std::string db = Scratch("import.db");
  std::filesystem::remove(db);
  const std::string line =
      R"({"workload":"matmul:16,16,16","target":"TARGET","device_key":"k","config":{},)"
      R"("repeat_seconds":[0.001,0.0011],"error_kind":"ok","error_message":"",)"
      R"("build_seconds":0.1,"timestamp_ms":1,"measured_by":"w","tunefarm_version":"0.4.0",)"
      R"("job_id":""})";
  auto with_target = [&](const std::string& target) {
    std::string l = line;
    l.replace(l.find("TARGET"), 6, target);
    return fixtures::WriteTempFile("import_" + std::to_string(target.size()) + ".jsonl", l + "\n");
  };
  Outcome bogus = Tunefarm({"records", "import", with_target("bogus"), "--db", db});
  EXPECT_NE(bogus.code, 0) << bogus.output;
  EXPECT_THAT(bogus.output, HasSubstr("field 'target'"));
  EXPECT_THAT(bogus.output, HasSubstr("nothing was imported"));

  Outcome imported = Tunefarm({"records", "import", with_target("llvm"), "--db", db});
  ASSERT_EQ(imported.code, 0) << imported.output;
  Outcome best =
      Tunefarm({"best", "--db", db, "--workload", "matmul:16,16,16:float32", "--device", "k"});
  EXPECT_EQ(best.code, 0) << best.output;
  EXPECT_THAT(best.output, HasSubstr("matmul:16,16,16:float32"));
}

// Item 10: an unknown input name was read as a file path, and an unknown --input-shape name was
// ignored.
TEST(CliBadInputTest, UnknownInputNamesAreRefusedNamingTheModelsInputs) {
  const std::string module = Scratch("fixed.tfm");
  Outcome built = Tunefarm({"model", "build", FixedModel(), "-o", module});
  ASSERT_EQ(built.code, 0) << built.output;
  Outcome run = Tunefarm({"model", "run", module, "--input", "nosuch=x.npy"});
  EXPECT_EQ(run.code, 1) << run.output;
  EXPECT_THAT(run.output, HasSubstr("the model has no input 'nosuch' (its inputs: image)"));
  Outcome info = Tunefarm({"model", "info", FixedModel(), "--input-shape", "nosuch=1,3,8,8"});
  EXPECT_NE(info.code, 0) << info.output;
  EXPECT_THAT(info.output, HasSubstr("'nosuch', which is not an input of the model"));
}

// Item 10: a module built for another architecture was "No such file or directory" for a file
// that exists.
TEST(CliBadInputTest, AModuleOfAnotherArchitectureSaysWhichOne) {
#if !defined(__x86_64__)
  GTEST_SKIP() << "builds an AArch64 module and runs it on an x86_64 host";
#endif
  const std::string module = Scratch("aarch64.tfm");
  Outcome built = Tunefarm({"model", "build", FixedModel(), "-o", module, "--target",
                            "llvm -mtriple=aarch64-linux-gnu"});
  ASSERT_EQ(built.code, 0) << built.output;
  Outcome run = Tunefarm({"model", "run", module});
  EXPECT_EQ(run.code, 1) << run.output;
  EXPECT_THAT(run.output, HasSubstr("built for aarch64 and this machine is x86_64"));
}

}  // namespace
}  // namespace tunefarm
