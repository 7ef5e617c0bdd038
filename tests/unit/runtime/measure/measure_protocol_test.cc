// The measure protocol: requests and responses survive a round trip, parse errors name the
// field, unknown fields are ignored and missing optional ones keep their defaults.
#include "runtime/measure/measure_protocol.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"

namespace tunefarm::runtime::measure {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(MeasureProtocolTest, RequestRoundTrip) {
  MeasureRequest q;
  q.id = 42;
  q.library_path = "/tmp/x/candidate7.so";
  q.function_name = "candidate";
  q.reference_library_path = "/tmp/x/reference0.so";
  q.reference_function = "reference";
  q.reference_key = "matmul:64,64,64:float32|llvm|";
  q.bindings = {{"n", 67}, {"m", -3}};
  q.options.number = 5;
  q.options.repeat = 7;
  q.options.min_repeat_ms = 2.5;
  q.options.cooldown_ms = 1;
  q.options.cache_flush = CacheFlush::kWeights;
  q.options.warmup_ms = 50;
  q.options.check_correctness = false;
  q.options.rtol = 1e-5;
  q.options.atol = 0.125;
  q.options.slow_cutoff_ratio = 0;
  q.options.threads = 2;
  q.options.seed = 0xfedcba9876543210ULL;
  q.best_seconds = 1.25e-4;
  const std::string line = SerializeRequest(q);
  EXPECT_THAT(line, Not(HasSubstr("\n")));
  absl::StatusOr<MeasureRequest> back = ParseRequest(line);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, q);
}

TEST(MeasureProtocolTest, ResponseRoundTrip) {
  MeasureResponse p;
  p.id = 9;
  p.status = ErrorKind::kWrongAnswer;
  p.message = "C[3, 4] = 1.5, expected 2.25 \"quoted\"\nsecond line";
  p.repeat_seconds = {1e-3, 0.1 + 0.2, 3.0e-9};
  const std::string line = SerializeResponse(p);
  EXPECT_THAT(line, Not(HasSubstr("\n")));
  absl::StatusOr<MeasureResponse> back = ParseResponse(line);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, p);  // doubles round-trip exactly
}

TEST(MeasureProtocolTest, AResponseCarriesOnlyTheKindsAChildCanReport) {
  for (const char* kind : {"ok", "runtime_error", "wrong_answer"}) {
    absl::StatusOr<MeasureResponse> p =
        ParseResponse(absl::StrCat(R"({"id":1,"status":")", kind, R"("})"));
    ASSERT_TRUE(p.ok()) << kind << ": " << p.status();
    EXPECT_EQ(ErrorKindName(p->status), kind);
  }
  // Timeouts and lost children are the parent's verdicts; build kinds never reach a child.
  for (const char* kind : {"run_timeout", "worker_lost", "build_error", "fine"}) {
    EXPECT_THAT(
        ParseResponse(absl::StrCat(R"({"id":1,"status":")", kind, R"("})")).status().message(),
        HasSubstr("unknown status"))
        << kind;
  }
}

TEST(MeasureProtocolTest, DefaultsAndUnknownFields) {
  absl::StatusOr<MeasureRequest> q =
      ParseRequest(R"({"library":"a.so","function":"f","future_field":[1,2]})");
  ASSERT_TRUE(q.ok()) << q.status();
  EXPECT_EQ(q->options, MeasureOptions());
  EXPECT_EQ(q->id, 0);
  absl::StatusOr<MeasureResponse> p = ParseResponse(R"({"id":3,"status":"ok"})");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE(p->repeat_seconds.empty());
}

TEST(MeasureProtocolTest, ErrorsNameTheField) {
  EXPECT_THAT(ParseRequest("not json").status().message(), HasSubstr("not a JSON object"));
  EXPECT_THAT(ParseRequest("[1]").status().message(), HasSubstr("not a JSON object"));
  EXPECT_THAT(ParseRequest(R"({"function":"f"})").status().message(), HasSubstr("'library'"));
  EXPECT_THAT(ParseRequest(R"({"library":"a","function":"f","id":"x"})").status().message(),
              HasSubstr("'id'"));
  EXPECT_THAT(
      ParseRequest(R"({"library":"a","function":"f","options":{"repeat":1.5}})").status().message(),
      HasSubstr("'options.repeat'"));
  EXPECT_THAT(
      ParseRequest(R"({"library":"a","function":"f","bindings":{"n":"x"}})").status().message(),
      HasSubstr("'bindings.n'"));
  EXPECT_THAT(ParseResponse(R"({"status":"exploded"})").status().message(), HasSubstr("exploded"));
  EXPECT_THAT(ParseResponse(R"({"repeat_seconds":[1,"x"]})").status().message(),
              HasSubstr("'repeat_seconds'"));
}

TEST(MeasureProtocolTest, APreparationRequestNamesOnlyAReference) {
  absl::StatusOr<MeasureRequest> prepare =
      ParseRequest(R"({"id":3,"reference_library":"/tmp/r.so","reference_key":"k"})");
  ASSERT_TRUE(prepare.ok()) << prepare.status();
  EXPECT_TRUE(prepare->library_path.empty());
  EXPECT_EQ(prepare->reference_library_path, "/tmp/r.so");
  EXPECT_THAT(ParseRequest(R"({"id":3})").status().message(), HasSubstr("'reference_library'"));
  EXPECT_THAT(ParseRequest(R"({"library":"a.so","reference_library":"r.so"})").status().message(),
              HasSubstr("go together"));
}

}  // namespace
}  // namespace tunefarm::runtime::measure
