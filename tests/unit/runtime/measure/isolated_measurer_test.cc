// IsolatedMeasurer on one host: two of them (two workers' worth, each with its own measure
// child) measuring at once never time at the same moment, since each holds the host's timing
// lock for its candidate, and an outcome says how far to trust its repeats.
#include "runtime/measure/isolated_measurer.h"

#include <algorithm>
#include <cstdio>
#include <gtest/gtest.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "runtime/measure/measure_program.h"
#include "tests/unit/runtime/measure/measure_test_kernels.h"

namespace tunefarm::runtime::measure {
namespace {

using testing::ExportAddKernel;
using testing::ScratchLibrary;

TEST(IsolatedMeasurerTest, TwoMeasurersOfOneHostNeverTimeAtOnce) {
  const std::string reference = ScratchLibrary("window_reference");
  const std::string candidate = ScratchLibrary("window_candidate");
  ASSERT_EQ(ExportAddKernel(reference, "reference", 1.0f), "");
  ASSERT_EQ(ExportAddKernel(candidate, "candidate", 1.0f), "");
  absl::StatusOr<std::string> program = FindMeasureProgram();
  ASSERT_TRUE(program.ok()) << program.status();
  const std::string lock = absl::StrCat(::testing::TempDir(), "/windows_", getpid(), ".lock");

  constexpr int kPerWorker = 8;
  std::vector<std::vector<MeasureOutcome>> outcomes(2);
  std::vector<std::thread> workers;
  for (int w = 0; w < 2; ++w) {
    workers.emplace_back([&, w] {
      IsolatedMeasurer measurer(*program, {}, 60, lock);
      for (int i = 0; i < kPerWorker; ++i) {
        MeasureRequest q;
        q.library_path = candidate;
        q.function_name = "candidate";
        q.reference_library_path = reference;
        q.reference_key = "add-one";
        q.options.repeat = 3;
        q.options.min_repeat_ms = 5;
        q.options.threads = 1;
        outcomes[w].push_back(measurer.Measure(q, 30));
      }
    });
  }
  for (std::thread& t : workers) t.join();

  std::vector<std::pair<double, double>> windows;
  for (const auto& list : outcomes) {
    for (const MeasureOutcome& o : list) {
      ASSERT_EQ(o.kind, ErrorKind::kOk) << o.message;
      EXPECT_TRUE(o.timed_alone) << o.timing_note;
      EXPECT_EQ(o.repeat_seconds.size(), 3u);
      EXPECT_GE(o.attempts, 1);
      EXPECT_GT(o.canary_ratio, 0);
      ASSERT_LT(o.window_start_s, o.window_end_s);
      windows.emplace_back(o.window_start_s, o.window_end_s);
    }
  }
  std::sort(windows.begin(), windows.end());
  for (size_t i = 1; i < windows.size(); ++i) {
    EXPECT_LE(windows[i - 1].second, windows[i].first)
        << "timing windows " << i - 1 << " and " << i << " overlap";
  }
  std::remove(reference.c_str());
  std::remove(candidate.c_str());
}

}  // namespace
}  // namespace tunefarm::runtime::measure
