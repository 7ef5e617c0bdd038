// The proto's measure options as the runtime's: 0 means the documented default.
#include "rpc_server/measure_options.h"

#include <cmath>
#include <functional>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>
#include <string>
#include <vector>

#include "proto/tunefarm/v1/common.pb.h"

namespace tunefarm::rpc_server {
namespace {

using ::testing::HasSubstr;

TEST(MeasureOptionsTest, ZeroMeansTheDocumentedDefault) {
  v1::MeasureOptions proto;
  absl::StatusOr<runtime::measure::CandidateOptions> parsed = CandidateOptionsFromProto(proto);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  const runtime::measure::CandidateOptions& o = *parsed;
  EXPECT_EQ(o.number, 0);
  EXPECT_EQ(o.repeat, 3);
  EXPECT_DOUBLE_EQ(o.rtol, 1e-3);
  EXPECT_DOUBLE_EQ(o.atol, 1e-4);
  EXPECT_DOUBLE_EQ(o.slow_cutoff_ratio, 100);
  EXPECT_EQ(o.seed, 1u);
  EXPECT_TRUE(o.check_correctness);
  EXPECT_EQ(RunTimeoutFromProto(proto).value_or(0), 10);
}

TEST(MeasureOptionsTest, SetValuesPassThrough) {
  v1::MeasureOptions proto;
  proto.set_number(4);
  proto.set_repeat(5);
  proto.set_min_repeat_ms(7);
  proto.set_cooldown_ms(2);
  proto.set_flush_cache(true);
  proto.set_skip_correctness(true);
  proto.set_rtol(0.5);
  proto.set_atol(0.25);
  proto.set_slow_cutoff_ratio(-1);
  proto.set_threads(2);
  proto.set_run_timeout_s(3);
  proto.set_seed(9);
  absl::StatusOr<runtime::measure::CandidateOptions> parsed = CandidateOptionsFromProto(proto);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  const runtime::measure::CandidateOptions& o = *parsed;
  EXPECT_EQ(o.number, 4);
  EXPECT_EQ(o.repeat, 5);
  EXPECT_DOUBLE_EQ(o.min_repeat_ms, 7);
  EXPECT_DOUBLE_EQ(o.cooldown_ms, 2);
  EXPECT_TRUE(o.flush_cache);
  EXPECT_FALSE(o.check_correctness);
  EXPECT_DOUBLE_EQ(o.rtol, 0.5);
  EXPECT_DOUBLE_EQ(o.atol, 0.25);
  EXPECT_DOUBLE_EQ(o.slow_cutoff_ratio, 0);  // < 0: off
  EXPECT_EQ(o.threads, 2);
  EXPECT_EQ(o.seed, 9u);
  EXPECT_EQ(RunTimeoutFromProto(proto).value_or(0), 3);
}

// A worker trusts the wire no more than the tracker does: a lease's numbers are checked too.
TEST(MeasureOptionsTest, NonFiniteAndHugeNumbersAreRefusedByName) {
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    std::function<void(v1::MeasureOptions&)> change;
    std::string message;
  };
  for (const Case& c : std::vector<Case>{
           {[](v1::MeasureOptions& m) { m.set_cooldown_ms(1e300); },
            "measure.cooldown_ms must be a finite number in [0, 60000] ms, got 1e+300"},
           {[&](v1::MeasureOptions& m) { m.set_min_repeat_ms(inf); },
            "measure.min_repeat_ms must be a finite number in [0, 60000] ms, got inf"},
           {[](v1::MeasureOptions& m) { m.set_rtol(std::nan("")); }, "measure.rtol"},
           {[](v1::MeasureOptions& m) { m.set_repeat(1 << 30); }, "measure.repeat"},
           {[](v1::MeasureOptions& m) { m.set_threads(-3); }, "measure.threads"},
           {[&](v1::MeasureOptions& m) { m.set_slow_cutoff_ratio(inf); },
            "measure.slow_cutoff_ratio"}}) {
    v1::MeasureOptions proto;
    c.change(proto);
    absl::Status s = CandidateOptionsFromProto(proto).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << c.message;
    EXPECT_THAT(std::string(s.message()), HasSubstr(c.message));
  }
  v1::MeasureOptions proto;
  proto.set_run_timeout_s(inf);
  EXPECT_EQ(RunTimeoutFromProto(proto).status().message(),
            "measure.run_timeout_s must be a finite number in [0, 86400] s, got inf");
  proto.set_run_timeout_s(1e300);
  EXPECT_EQ(RunTimeoutFromProto(proto).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tunefarm::rpc_server
