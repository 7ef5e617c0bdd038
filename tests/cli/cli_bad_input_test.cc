// Bad input given to the built `tunefarm` binary, as a user types it: each case checks the exit
// code (docs: 0 done, 1 failed, 2 usage), the one-line reason, and that a refused command created
// nothing. Each is a defect a new user met: a flag silently taken, a message that hid the cause.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "tests/cli/tunefarm_binary.h"
#include "tests/testing/child_process.h"
#include "tests/testing/files.h"
#include "tests/unit/compiler/frontend/onnx/onnx_model_builder.h"

namespace tunefarm {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

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

// "tunefarm" alone and a group without its command answered CLI11's "A subcommand is required".
TEST(CliBadInputTest, AMissingCommandIsNamedWithTheCommandsThereAre) {
  Outcome bare = Tunefarm({});
  EXPECT_EQ(bare.code, 2) << bare.output;
  EXPECT_THAT(bare.output, HasSubstr("a command is required (commands: lower, run"));
  Outcome group = Tunefarm({"model"});
  EXPECT_EQ(group.code, 2) << group.output;
  EXPECT_THAT(group.output, HasSubstr("'model' needs one of its commands (commands: info"));
  Outcome unknown = Tunefarm({"model", "frob"});
  EXPECT_EQ(unknown.code, 2) << unknown.output;
  EXPECT_THAT(unknown.output, HasSubstr("unknown command 'model frob'"));
}

// Every command runs something: its help prints and exits 0, and the binary's own check that no
// command was registered without its function passes (a command without one fails every run).
TEST(CliBadInputTest, EveryCommandIsDispatched) {
  for (std::vector<std::string> words : std::vector<std::vector<std::string>>{{"lower"},
                                                                              {"run"},
                                                                              {"time"},
                                                                              {"build"},
                                                                              {"tune"},
                                                                              {"best"},
                                                                              {"records"},
                                                                              {"demo"},
                                                                              {"tracker"},
                                                                              {"worker"},
                                                                              {"jobs"},
                                                                              {"session"},
                                                                              {"workers"},
                                                                              {"model", "info"},
                                                                              {"model", "passes"},
                                                                              {"model", "build"},
                                                                              {"model", "run"},
                                                                              {"model", "tune"},
                                                                              {"model", "test"}}) {
    words.push_back("--help");
    Outcome o = Tunefarm(words);
    EXPECT_EQ(o.code, 0) << words[0] << ": " << o.output;
    EXPECT_THAT(o.output, HasSubstr("Usage:")) << words[0];
  }
  // Item 1: `session` fell through to `run` ("cannot open "); now it reaches for the tracker.
  const std::string lib = fixtures::WriteTempFile("session_lib.so", "not read before the tracker");
  Outcome session = Tunefarm({"session", lib, "--key", "k", "--tracker", "127.0.0.1:1"});
  EXPECT_EQ(session.code, 1) << session.output;
  EXPECT_THAT(session.output, HasSubstr("tracker 127.0.0.1:1"));
  EXPECT_THAT(session.output, Not(HasSubstr("cannot open")));
}

// "The same bad workload key exiting 2 from one command and 1 from another".
TEST(CliBadInputTest, ABadWorkloadKeyIsAUsageErrorInEveryCommand) {
  const std::string db = Scratch("keys.db");
  std::filesystem::remove(db);
  for (const std::string key : {"matmul:abc", "matmul:1,2", "nosuch:1,2,3"}) {
    const std::vector<std::vector<std::string>> commands = {
        {"tune", "--workload", key, "--trials", "1", "--db", db},
        {"tune", "--workload", key, "--tracker", "127.0.0.1:1", "--key", "k"},
        {"build", "--workload", key, "-o", Scratch("k.so")},
        {"best", "--workload", key, "--tracker", "127.0.0.1:1"}};
    for (const std::vector<std::string>& args : commands) {
      Outcome o = Tunefarm(args);
      EXPECT_EQ(o.code, 2) << args[0] << " " << key << ": " << o.output;
      EXPECT_THAT(o.output, Not(HasSubstr("unreachable"))) << args[0] << " " << key;
    }
  }
  EXPECT_FALSE(std::filesystem::exists(db));
  EXPECT_FALSE(std::filesystem::exists(Scratch("k.so")));
}

// A missing input file is refused before anything runs, with exit 2, in every command.
TEST(CliBadInputTest, AMissingInputFileIsAUsageErrorInEveryCommand) {
  const std::string missing = Scratch("no-such-input");
  const std::vector<std::vector<std::string>> commands = {
      {"lower", missing},
      {"run", missing},
      {"time", missing},
      {"build", missing, "-o", Scratch("m.so")},
      {"tune", "--template", missing},
      {"model", "info", missing},
      {"model", "build", missing, "-o", Scratch("m.tfm")},
      {"session", missing, "--key", "k"},
      {"worker", "--key", "k", "--token-file", missing},
      {"records", "import", "--db", Scratch("import.db"), missing}};
  for (const std::vector<std::string>& args : commands) {
    Outcome o = Tunefarm(args);
    EXPECT_EQ(o.code, 2) << args[0] << ": " << o.output;
    EXPECT_THAT(o.output, HasSubstr("no-such-input")) << args[0];
  }
  EXPECT_FALSE(std::filesystem::exists(Scratch("import.db")));
}

// TUNEFARM_LOG="passes=debug" (the documented example) printed nothing; unknown loggers, levels
// and a non-numeric TUNEFARM_NUM_THREADS were ignored.
TEST(CliBadInputTest, EnvironmentKnobsAreCheckedAndTheLogExampleLogs) {
  const std::string te = fixtures::SourcePath("examples/matmul_tiled.te");
  ::setenv("TUNEFARM_LOG", "passes=debug", 1);
  Outcome logged = Tunefarm({"lower", te});
  EXPECT_EQ(logged.code, 0) << logged.output;
  EXPECT_THAT(logged.output, HasSubstr("[passes] [debug] storage_flatten:"));
  ::setenv("TUNEFARM_LOG", "ir=warn", 1);
  Outcome logger = Tunefarm({"lower", te});
  EXPECT_EQ(logger.code, 2) << logger.output;
  EXPECT_THAT(logger.output, HasSubstr("unknown logger 'ir' (loggers: codegen, passes, worker)"));
  ::unsetenv("TUNEFARM_LOG");
  ::setenv("TUNEFARM_NUM_THREADS", "abc", 1);
  Outcome threads = Tunefarm({"lower", te});
  ::unsetenv("TUNEFARM_NUM_THREADS");
  EXPECT_EQ(threads.code, 2) << threads.output;
  EXPECT_THAT(threads.output, HasSubstr("TUNEFARM_NUM_THREADS must be a whole number"));
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
  EXPECT_EQ(o.code, 2) << o.output;
  EXPECT_THAT(o.output, HasSubstr("--db: cannot read '" + db + "'"));
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
