// The API's measure options as the runtime's and back: 0 means the documented default, every
// number is checked, and what the tracker sends measures on the worker as the job asked.
#include "proto/mapping/measure_options_proto.h"

#include <cmath>
#include <functional>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>
#include <string>
#include <vector>

#include "proto/tunefarm/v1/common.pb.h"

namespace tunefarm::proto_mapping {
namespace {

using runtime::measure::CacheFlush;
using runtime::measure::MeasureOptions;
using ::testing::HasSubstr;

TEST(MeasureOptionsProtoTest, ZeroMeansTheDocumentedDefault) {
  absl::StatusOr<MeasureOptions> o = MeasureOptionsFromProto(v1::MeasureOptions());
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(*o, MeasureOptions());  // every default is the struct's own
  EXPECT_EQ(o->number, 0);
  EXPECT_EQ(o->repeat, 3);
  EXPECT_DOUBLE_EQ(o->min_repeat_ms, 20);
  EXPECT_DOUBLE_EQ(o->rtol, 1e-3);
  EXPECT_DOUBLE_EQ(o->atol, 1e-4);
  EXPECT_DOUBLE_EQ(o->slow_cutoff_ratio, 100);
  EXPECT_DOUBLE_EQ(o->build_timeout_s, 20);
  EXPECT_DOUBLE_EQ(o->run_timeout_s, 10);
  EXPECT_EQ(o->seed, 1u);
  EXPECT_TRUE(o->check_correctness);
}

TEST(MeasureOptionsProtoTest, SetValuesPassThrough) {
  v1::MeasureOptions proto;
  proto.set_number(4);
  proto.set_repeat(5);
  proto.set_min_repeat_ms(7.5);
  proto.set_cooldown_ms(2);
  proto.set_cache_flush(v1::CACHE_FLUSH_WEIGHTS);
  proto.set_warmup_ms(50);
  proto.set_skip_correctness(true);
  proto.set_rtol(0.5);
  proto.set_atol(0.25);
  proto.set_slow_cutoff_ratio(-1);
  proto.set_threads(2);
  proto.set_build_timeout_s(30);
  proto.set_run_timeout_s(3);
  proto.set_seed(9);
  absl::StatusOr<MeasureOptions> o = MeasureOptionsFromProto(proto);
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->number, 4);
  EXPECT_EQ(o->repeat, 5);
  EXPECT_DOUBLE_EQ(o->min_repeat_ms, 7.5);
  EXPECT_DOUBLE_EQ(o->cooldown_ms, 2);
  EXPECT_EQ(o->cache_flush, CacheFlush::kWeights);
  EXPECT_DOUBLE_EQ(o->warmup_ms, 50);
  EXPECT_FALSE(o->check_correctness);
  EXPECT_DOUBLE_EQ(o->rtol, 0.5);
  EXPECT_DOUBLE_EQ(o->atol, 0.25);
  EXPECT_DOUBLE_EQ(o->slow_cutoff_ratio, 0);  // < 0: off
  EXPECT_EQ(o->threads, 2);
  EXPECT_DOUBLE_EQ(o->build_timeout_s, 30);
  EXPECT_DOUBLE_EQ(o->run_timeout_s, 3);
  EXPECT_EQ(o->seed, 9u);
}

// A client from before cache_flush sends flush_cache = true for every cache flushed; a value this
// build does not know (a newer client) is refused, naming the field.
TEST(MeasureOptionsProtoTest, CacheFlushOfOlderAndNewerClients) {
  v1::MeasureOptions older;
  older.set_flush_cache(true);
  absl::StatusOr<MeasureOptions> o = MeasureOptionsFromProto(older);
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->cache_flush, CacheFlush::kAll);
  // What this build sends still reads right on an older worker, which knows flush_cache only.
  MeasureOptions all;
  all.cache_flush = CacheFlush::kAll;
  EXPECT_TRUE(MeasureOptionsToProto(all).flush_cache());

  v1::MeasureOptions newer;
  newer.set_cache_flush(static_cast<v1::CacheFlush>(7));
  o = MeasureOptionsFromProto(newer, "lease.measure.");
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(o.status().message().find("lease.measure.cache_flush is 7"), std::string::npos)
      << o.status().message();
}

// The tracker and the worker used to read these differently (a lease's min_repeat_ms of 0 was 0
// on the worker and 20 on the tracker): now both sides go through this one pair.
TEST(MeasureOptionsProtoTest, WhatIsSentIsWhatIsMeasured) {
  MeasureOptions sent;
  sent.number = 0;
  sent.repeat = 7;
  sent.min_repeat_ms = 12.5;
  sent.cooldown_ms = 3;
  sent.cache_flush = CacheFlush::kWeights;
  sent.warmup_ms = 25;
  sent.check_correctness = false;
  sent.rtol = 0.01;
  sent.atol = 0.02;
  sent.slow_cutoff_ratio = 0;  // off
  sent.threads = 3;
  sent.build_timeout_s = 40;
  sent.run_timeout_s = 5;
  sent.seed = 77;
  absl::StatusOr<MeasureOptions> back = MeasureOptionsFromProto(MeasureOptionsToProto(sent));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, sent);

  // A 0 ms calibration target is one run per repeat, which the wire says as number = 1.
  MeasureOptions once;
  once.min_repeat_ms = 0;
  back = MeasureOptionsFromProto(MeasureOptionsToProto(once));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->number, 1);
}

// A side trusts the wire no more than the other: every number is checked before it is used (inf
// or 1e300 as run_timeout_s made every lease expire at once).
TEST(MeasureOptionsProtoTest, NonFiniteAndHugeNumbersAreRefusedByName) {
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    std::function<void(v1::MeasureOptions&)> change;
    std::string message;
  };
  for (const Case& c : std::vector<Case>{
           {[&](v1::MeasureOptions& m) { m.set_run_timeout_s(inf); },
            "measure.run_timeout_s must be a finite number in (0, 86400] s, got inf"},
           {[](v1::MeasureOptions& m) { m.set_run_timeout_s(1e300); },
            "measure.run_timeout_s must be a finite number in (0, 86400] s, got 1e+300"},
           {[](v1::MeasureOptions& m) { m.set_build_timeout_s(-1); }, "measure.build_timeout_s"},
           {[](v1::MeasureOptions& m) { m.set_cooldown_ms(1e300); },
            "measure.cooldown_ms must be a finite number in [0, 60000] ms, got 1e+300"},
           {[&](v1::MeasureOptions& m) { m.set_min_repeat_ms(inf); },
            "measure.min_repeat_ms must be a finite number in [0, 60000] ms, got inf"},
           {[](v1::MeasureOptions& m) { m.set_cooldown_ms(std::nan("")); }, "got nan"},
           {[](v1::MeasureOptions& m) { m.set_rtol(std::nan("")); }, "measure.rtol"},
           {[](v1::MeasureOptions& m) { m.set_repeat(2000000000); },
            "measure.repeat must be a finite number in [1, 1000], got 2000000000"},
           {[](v1::MeasureOptions& m) { m.set_number(-1); }, "measure.number"},
           {[](v1::MeasureOptions& m) { m.set_threads(-3); }, "measure.threads"},
           {[&](v1::MeasureOptions& m) { m.set_slow_cutoff_ratio(-inf); },
            "measure.slow_cutoff_ratio must be a finite number"}}) {
    v1::MeasureOptions proto;
    c.change(proto);
    absl::Status s = MeasureOptionsFromProto(proto).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << c.message;
    EXPECT_THAT(std::string(s.message()), HasSubstr(c.message));
  }
  v1::MeasureOptions proto;
  proto.set_cooldown_ms(-5);
  EXPECT_THAT(std::string(MeasureOptionsFromProto(proto, "options.").status().message()),
              HasSubstr("options.cooldown_ms"));
}

}  // namespace
}  // namespace tunefarm::proto_mapping
