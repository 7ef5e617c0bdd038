// The proto's measure options as the runtime's: 0 means the documented default.
#include "rpc_server/measure_options.h"

#include <gtest/gtest.h>

#include "proto/tunefarm/v1/common.pb.h"

namespace tunefarm::rpc_server {
namespace {

TEST(MeasureOptionsTest, ZeroMeansTheDocumentedDefault) {
  v1::MeasureOptions proto;
  runtime::measure::CandidateOptions o = CandidateOptionsFromProto(proto);
  EXPECT_EQ(o.number, 0);
  EXPECT_EQ(o.repeat, 3);
  EXPECT_DOUBLE_EQ(o.rtol, 1e-3);
  EXPECT_DOUBLE_EQ(o.atol, 1e-4);
  EXPECT_DOUBLE_EQ(o.slow_cutoff_ratio, 100);
  EXPECT_EQ(o.seed, 1u);
  EXPECT_TRUE(o.check_correctness);
  EXPECT_DOUBLE_EQ(RunTimeoutFromProto(proto), 10);
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
  runtime::measure::CandidateOptions o = CandidateOptionsFromProto(proto);
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
  EXPECT_DOUBLE_EQ(RunTimeoutFromProto(proto), 3);
}

}  // namespace
}  // namespace tunefarm::rpc_server
