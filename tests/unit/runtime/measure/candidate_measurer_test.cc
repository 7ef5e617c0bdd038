// CandidateMeasurer on real exported kernels: a correct candidate is timed, a wrong one is a
// wrong_answer naming the element, a slow one is cut short, and load, bind and reference
// failures are runtime errors that name the cause.
#include "runtime/measure/candidate_measurer.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <vector>

#include "tests/unit/runtime/measure/measure_test_kernels.h"

namespace tunefarm::runtime::measure {
namespace {

using testing::ExportAddKernel;
using ::testing::HasSubstr;
using testing::ScratchLibrary;

class CandidateMeasurerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    reference_ = new std::string(ScratchLibrary("reference"));
    good_ = new std::string(ScratchLibrary("good"));
    bad_ = new std::string(ScratchLibrary("bad"));
    symbolic_ = new std::string(ScratchLibrary("symbolic"));
    ASSERT_EQ(ExportAddKernel(*reference_, "reference", 1.0f), "");
    ASSERT_EQ(ExportAddKernel(*good_, "candidate", 1.0f), "");
    ASSERT_EQ(ExportAddKernel(*bad_, "candidate", 1.25f), "");
    ASSERT_EQ(ExportAddKernel(*symbolic_, "candidate", 1.0f, /*symbolic=*/true), "");
  }
  static void TearDownTestSuite() {
    for (std::string* p : {reference_, good_, bad_, symbolic_}) {
      std::remove(p->c_str());
      delete p;
    }
  }

  static MeasureRequest Request(const std::string& library) {
    MeasureRequest q;
    q.id = 5;
    q.library_path = library;
    q.function_name = "candidate";
    q.reference_library_path = *reference_;
    q.reference_key = "add-one";
    q.options.repeat = 3;
    q.options.min_repeat_ms = 1;
    q.options.threads = 1;
    return q;
  }

  static std::string* reference_;
  static std::string* good_;
  static std::string* bad_;
  static std::string* symbolic_;
};

std::string* CandidateMeasurerTest::reference_ = nullptr;
std::string* CandidateMeasurerTest::good_ = nullptr;
std::string* CandidateMeasurerTest::bad_ = nullptr;
std::string* CandidateMeasurerTest::symbolic_ = nullptr;

TEST_F(CandidateMeasurerTest, ACorrectCandidateIsTimed) {
  CandidateMeasurer measurer;
  MeasureResponse r = measurer.Measure(Request(*good_));
  EXPECT_EQ(r.status, ErrorKind::kOk) << r.message;
  EXPECT_EQ(r.id, 5);
  ASSERT_EQ(r.repeat_seconds.size(), 3u);
  for (double t : r.repeat_seconds) EXPECT_GT(t, 0);
  // A fixed number of runs per repeat works too.
  MeasureRequest q = Request(*good_);
  q.options.number = 4;
  q.options.repeat = 2;
  r = measurer.Measure(q);
  EXPECT_EQ(r.status, ErrorKind::kOk) << r.message;
  EXPECT_EQ(r.repeat_seconds.size(), 2u);
  // One call per repeat with the weights evicted (or every cache flushed) before each, after a
  // warm-up: as a model's layers are timed.
  for (CacheFlush flush : {CacheFlush::kWeights, CacheFlush::kAll}) {
    MeasureRequest cold = Request(*good_);
    cold.options.number = 1;
    cold.options.repeat = 4;
    cold.options.cache_flush = flush;
    cold.options.warmup_ms = 5;
    r = measurer.Measure(cold);
    EXPECT_EQ(r.status, ErrorKind::kOk) << r.message;
    EXPECT_EQ(r.repeat_seconds.size(), 4u);
  }
}

TEST_F(CandidateMeasurerTest, AWrongCandidateNamesTheFirstMismatch) {
  CandidateMeasurer measurer;
  MeasureResponse r = measurer.Measure(Request(*bad_));
  EXPECT_EQ(r.status, ErrorKind::kWrongAnswer);
  EXPECT_THAT(r.message, HasSubstr("C[0] = "));
  EXPECT_THAT(r.message, HasSubstr("expected"));
  EXPECT_TRUE(r.repeat_seconds.empty());
  // Tolerances are honoured: 0.25 off is within atol 0.3.
  MeasureRequest loose = Request(*bad_);
  loose.options.atol = 0.3;
  EXPECT_EQ(measurer.Measure(loose).status, ErrorKind::kOk);
  // Without a check the wrong candidate is simply timed.
  MeasureRequest unchecked = Request(*bad_);
  unchecked.options.check_correctness = false;
  unchecked.reference_library_path.clear();
  EXPECT_EQ(measurer.Measure(unchecked).status, ErrorKind::kOk);
}

TEST_F(CandidateMeasurerTest, ASlowCandidateIsCutShort) {
  CandidateMeasurer measurer;
  MeasureRequest q = Request(*good_);
  q.best_seconds = 1e-15;  // anything is over 100x slower than this
  MeasureResponse r = measurer.Measure(q);
  EXPECT_EQ(r.status, ErrorKind::kOk) << r.message;
  EXPECT_EQ(r.repeat_seconds.size(), 1u);
  EXPECT_THAT(r.message, HasSubstr("cut short"));
  q.options.slow_cutoff_ratio = 0;  // off
  EXPECT_EQ(measurer.Measure(q).repeat_seconds.size(), 3u);
}

TEST_F(CandidateMeasurerTest, FailuresAreRuntimeErrorsNamingTheCause) {
  CandidateMeasurer measurer;
  MeasureResponse r = measurer.Measure(Request("/nonexistent/candidate.so"));
  EXPECT_EQ(r.status, ErrorKind::kRuntimeError);
  EXPECT_THAT(r.message, HasSubstr("/nonexistent/candidate.so"));

  MeasureRequest no_function = Request(*good_);
  no_function.function_name = "other";
  EXPECT_THAT(measurer.Measure(no_function).message, HasSubstr("no kernel 'other'"));

  MeasureRequest no_reference = Request(*good_);
  no_reference.reference_library_path = "/nonexistent/reference.so";
  no_reference.reference_key = "missing";
  r = measurer.Measure(no_reference);
  EXPECT_EQ(r.status, ErrorKind::kRuntimeError);
  EXPECT_THAT(r.message, HasSubstr("reference /nonexistent/reference.so"));
}

TEST_F(CandidateMeasurerTest, SymbolicExtentsComeFromBindings) {
  CandidateMeasurer measurer;
  MeasureRequest q = Request(*symbolic_);
  q.options.check_correctness = false;
  MeasureResponse r = measurer.Measure(q);
  EXPECT_EQ(r.status, ErrorKind::kRuntimeError);
  EXPECT_THAT(r.message, HasSubstr("no value for 'n'"));
  q.bindings = {{"n", 64}};
  r = measurer.Measure(q);
  EXPECT_EQ(r.status, ErrorKind::kOk) << r.message;
  // Checked against the constant-shape reference: same data, same answer.
  q.options.check_correctness = true;
  r = measurer.Measure(q);
  EXPECT_EQ(r.status, ErrorKind::kOk) << r.message;
}

TEST(ReferenceOutputsTest, OneRunPerKeyAndSeed) {
  const std::string path = ScratchLibrary("cache_reference");
  ASSERT_EQ(ExportAddKernel(path, "reference", 1.0f), "");
  ReferenceOutputs cache(/*capacity=*/2);
  MeasureRequest q;
  q.reference_library_path = path;
  q.reference_key = "k1";
  absl::StatusOr<const ReferenceRun*> first = cache.Get(q);
  ASSERT_TRUE(first.ok()) << first.status();
  absl::StatusOr<const ReferenceRun*> again = cache.Get(q);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*first, *again);
  EXPECT_EQ(cache.size(), 1u);
  // Expected = inputs + 1 on C; A is untouched.
  const NDArray& a = (*first)->inputs.tensors()[0];
  const NDArray& c = (*first)->expected.tensors()[1];
  EXPECT_FLOAT_EQ(static_cast<const float*>(c.data())[7],
                  static_cast<const float*>(a.data())[7] + 1.0f);
  q.options.seed = 2;  // other inputs: another run
  ASSERT_TRUE(cache.Get(q).ok());
  q.reference_key = "k2";
  ASSERT_TRUE(cache.Get(q).ok());
  EXPECT_EQ(cache.size(), 2u);  // the capacity holds
  std::remove(path.c_str());
}

TEST(ReferenceOutputsTest, ExpectedOutputsAreCachedBesideTheLibrary) {
  const std::string path = ScratchLibrary("disk_reference");
  ASSERT_EQ(ExportAddKernel(path, "reference", 1.0f), "");
  MeasureRequest q;
  q.reference_library_path = path;
  q.reference_key = "disk";
  std::string sidecar;
  size_t bytes = 0;
  {
    ReferenceOutputs cache;
    absl::StatusOr<const ReferenceRun*> run = cache.Get(q);
    ASSERT_TRUE(run.ok()) << run.status();
    for (const NDArray& t : (*run)->expected.tensors()) bytes += t.NumBytes();
  }
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(path).parent_path())) {
    std::string name = entry.path().filename().string();
    std::string prefix = std::filesystem::path(path).filename().string() + ".expected-";
    if (name.rfind(prefix, 0) == 0) sidecar = entry.path().string();
  }
  ASSERT_FALSE(sidecar.empty()) << "no cache file beside " << path;
  EXPECT_EQ(std::filesystem::file_size(sidecar), bytes);

  // A new process (a fresh cache object) reads the file instead of running the reference: make
  // the file say something the reference would not compute and see it come back.
  std::vector<float> marked(bytes / sizeof(float), 42.0f);
  {
    std::ofstream out(sidecar, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(marked.data()), static_cast<std::streamsize>(bytes));
  }
  {
    ReferenceOutputs cache;
    absl::StatusOr<const ReferenceRun*> run = cache.Get(q);
    ASSERT_TRUE(run.ok()) << run.status();
    EXPECT_EQ(static_cast<const float*>((*run)->expected.tensors()[1].data())[3], 42.0f);
  }
  // A truncated file is not trusted: the reference runs again (C = A + 1).
  std::filesystem::resize_file(sidecar, bytes / 2);
  {
    ReferenceOutputs cache;
    absl::StatusOr<const ReferenceRun*> run = cache.Get(q);
    ASSERT_TRUE(run.ok()) << run.status();
    const float* a = static_cast<const float*>((*run)->inputs.tensors()[0].data());
    const float* c = static_cast<const float*>((*run)->expected.tensors()[1].data());
    EXPECT_FLOAT_EQ(c[3], a[3] + 1.0f);
  }
  std::filesystem::remove(sidecar);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace tunefarm::runtime::measure
