// The worker against a small real tracker: what it registers, leases measured in a real measure
// child (ok, wrong answer, a crashing kernel, a missing artifact), heartbeats, a refused token
// and giving up on an unreachable tracker.
#include "rpc_server/worker.h"

#include <cstdio>
#include <cstdlib>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "runtime/measure/sha256.h"
#include "tests/testing/files.h"
#include "tests/unit/rpc_server/fake_tracker.h"
#include "tests/unit/rpc_server/test_kernels.h"
#include "tests/unit/rpc_server/worker_fixture.h"

namespace tunefarm::rpc_server {
namespace {

// Sets TUNEFARM_TIMING_LOCK=off for a scope (inherited by processes started meanwhile).
class ScopedTimingLockOff {
 public:
  ScopedTimingLockOff() {
    const char* old = std::getenv("TUNEFARM_TIMING_LOCK");
    if (old != nullptr) saved_ = old;
    setenv("TUNEFARM_TIMING_LOCK", "off", 1);
  }
  ~ScopedTimingLockOff() {
    if (saved_) {
      setenv("TUNEFARM_TIMING_LOCK", saved_->c_str(), 1);
    } else {
      unsetenv("TUNEFARM_TIMING_LOCK");
    }
  }

 private:
  std::optional<std::string> saved_;
};

using testing::FakeTracker;
using ::testing::HasSubstr;
using testing::MakeLease;
using testing::RunningWorker;

using WorkerTest = testing::WorkerFixture;

v1::MeasureOutcome OutcomeOf(const std::optional<v1::WorkerMessage>& message) {
  return message.has_value() ? message->result().outcome() : v1::MeasureOutcome();
}

TEST_F(WorkerTest, RegistersAndMeasuresLeases) {
  FakeTracker tracker("secret");
  ASSERT_TRUE(tracker.ok());
  WorkerOptions options = Options(tracker);
  options.token = "secret";
  absl::StatusOr<std::unique_ptr<Worker>> worker = Worker::Create(options);
  ASSERT_TRUE(worker.ok()) << worker.status();
  RunningWorker running(worker->get());

  std::vector<v1::Register> hello = tracker.WaitForRegistrations(1);
  ASSERT_EQ(hello.size(), 1u);
  EXPECT_EQ(hello[0].device_key(), "test-cpu");
  EXPECT_EQ(hello[0].target(), "llvm -mcpu=test");
  EXPECT_GT(hello[0].cores(), 0);
  EXPECT_GT(hello[0].memory_bytes(), 0);
  EXPECT_FALSE(hello[0].can_build());
  EXPECT_TRUE(hello[0].gpu_model().empty());
  EXPECT_FALSE(hello[0].hostname().empty());
  EXPECT_FALSE(hello[0].tunefarm_version().empty());
  EXPECT_TRUE(hello[0].previous_worker_id().empty());

  // First sight of the library: sent with its bytes.
  ASSERT_TRUE(tracker.Send(MakeLease(1, library_, sha_, "add_one")));
  v1::MeasureOutcome ok = OutcomeOf(tracker.WaitForResult(1));
  EXPECT_EQ(ok.error_kind(), "ok") << ok.error_message();
  EXPECT_EQ(ok.repeat_seconds_size(), 1);

  // Afterwards by hash only, from the cache; a wrong kernel is caught against the reference.
  ASSERT_TRUE(tracker.Send(MakeLease(2, library_, sha_, "add_two", /*hash_only=*/true)));
  v1::MeasureOutcome wrong = OutcomeOf(tracker.WaitForResult(2));
  EXPECT_EQ(wrong.error_kind(), "wrong_answer") << wrong.error_message();
  EXPECT_TRUE(wrong.repeat_seconds().empty());

  // A hash this worker never received.
  const std::string unknown = runtime::measure::Sha256Hex("not a library");
  ASSERT_TRUE(tracker.Send(MakeLease(3, "", unknown, "add_one", /*hash_only=*/true)));
  std::optional<v1::WorkerMessage> missing_result = tracker.WaitForResult(3);
  v1::MeasureOutcome missing = OutcomeOf(missing_result);
  EXPECT_EQ(missing.error_kind(), "runtime_error");  // what a tracker before the field records
  EXPECT_EQ(missing.error_message(), "artifact " + unknown + " missing on worker");
  ASSERT_TRUE(missing_result.has_value());
  EXPECT_THAT(missing_result->result().missing_artifacts(), ::testing::ElementsAre(unknown));

  // Bytes that do not match their hash are refused, not measured.
  ASSERT_TRUE(tracker.Send(MakeLease(4, "tampered", sha_, "add_one")));
  v1::MeasureOutcome tampered = OutcomeOf(tracker.WaitForResult(4));
  EXPECT_EQ(tampered.error_kind(), "runtime_error");
  EXPECT_THAT(tampered.error_message(), HasSubstr("hash to"));

  EXPECT_TRUE(tracker.WaitForHeartbeats(2));  // every 100 ms, as Registered asked
  WorkerStats stats = (*worker)->stats();
  EXPECT_EQ(stats.worker_id, "w1");
  EXPECT_EQ(stats.connections, 1);
  EXPECT_EQ(stats.leases_done, 3);  // not the lease that waits for its library's bytes
  EXPECT_EQ(stats.leases_failed, 2);

  (*worker)->Stop();
  std::optional<absl::Status> status = running.Wait();
  ASSERT_TRUE(status.has_value());
  EXPECT_TRUE(status->ok()) << *status;
}

TEST_F(WorkerTest, CrashingKernelIsARuntimeErrorAndTheWorkerGoesOn) {
  FakeTracker tracker;
  ASSERT_TRUE(tracker.ok());
  absl::StatusOr<std::unique_ptr<Worker>> worker = Worker::Create(Options(tracker));
  ASSERT_TRUE(worker.ok()) << worker.status();
  RunningWorker running(worker->get());
  ASSERT_EQ(tracker.WaitForRegistrations(1).size(), 1u);

  ASSERT_TRUE(tracker.Send(MakeLease(7, library_, sha_, "crash")));
  v1::MeasureOutcome crashed = OutcomeOf(tracker.WaitForResult(7));
  EXPECT_EQ(crashed.error_kind(), "runtime_error");
  EXPECT_THAT(crashed.error_message(), HasSubstr("SIGSEGV"));

  ASSERT_TRUE(tracker.Send(MakeLease(8, library_, sha_, "add_one", /*hash_only=*/true)));
  v1::MeasureOutcome ok = OutcomeOf(tracker.WaitForResult(8));
  EXPECT_EQ(ok.error_kind(), "ok") << ok.error_message();
  (*worker)->Stop();
  ASSERT_TRUE(running.Wait().has_value());
}

TEST_F(WorkerTest, AnswersRelayedSessionCalls) {
  FakeTracker tracker;
  ASSERT_TRUE(tracker.ok());
  absl::StatusOr<std::unique_ptr<Worker>> worker = Worker::Create(Options(tracker));
  ASSERT_TRUE(worker.ok()) << worker.status();
  RunningWorker running(worker->get());
  ASSERT_EQ(tracker.WaitForRegistrations(1).size(), 1u);

  v1::TrackerMessage call;
  call.mutable_session_call()->set_session_id("s1");
  call.mutable_session_call()->set_call_id(41);
  call.mutable_session_call()->mutable_alloc()->add_shape(8);
  call.mutable_session_call()->mutable_alloc()->set_dtype("int32");
  ASSERT_TRUE(tracker.Send(call));
  std::optional<v1::WorkerMessage> reply =
      tracker.WaitFor([](const v1::WorkerMessage& m) { return m.has_session_reply(); });
  ASSERT_TRUE(reply.has_value());
  EXPECT_EQ(reply->session_reply().call_id(), 41);
  EXPECT_EQ(reply->session_reply().status_code(), 0) << reply->session_reply().status_message();
  EXPECT_FALSE(reply->session_reply().alloc().array_id().empty());
  (*worker)->Stop();
  ASSERT_TRUE(running.Wait().has_value());
}

// A session call that blocks (here: timing with a long cooldown between repeats) used to run on
// the stream's read loop: leases then went unread until they expired, and Stop went unheard.
TEST_F(WorkerTest, BlockingSessionCallLeavesLeasesAndStopWorking) {
  // What is tested is the worker's own structure: a lease is taken while a session call blocks.
  // With the host timing lock on, the lease's timing would rightly wait for the session's (no two
  // timings at once on one host), so this test turns it off for itself and its session process.
  ScopedTimingLockOff lock_off;
  FakeTracker tracker;
  ASSERT_TRUE(tracker.ok());
  absl::StatusOr<std::unique_ptr<Worker>> worker = Worker::Create(Options(tracker));
  ASSERT_TRUE(worker.ok()) << worker.status();
  RunningWorker running(worker->get());
  ASSERT_EQ(tracker.WaitForRegistrations(1).size(), 1u);

  auto call = [&](int64_t id, auto fill) {
    v1::TrackerMessage message;
    message.mutable_session_call()->set_session_id("s1");
    message.mutable_session_call()->set_call_id(id);
    fill(message.mutable_session_call());
    EXPECT_TRUE(tracker.Send(message));
  };
  auto reply_of = [&](int64_t id, double timeout_s) {
    return tracker.WaitFor(
        [id](const v1::WorkerMessage& m) {
          return m.has_session_reply() && m.session_reply().call_id() == id;
        },
        timeout_s);
  };
  call(1, [&](v1::SessionCall* c) {
    c->mutable_upload()->set_name("kernels.so");
    c->mutable_upload()->set_library(library_);
  });
  std::optional<v1::WorkerMessage> uploaded = reply_of(1, 20);
  ASSERT_TRUE(uploaded.has_value());
  const std::string module_id = uploaded->session_reply().upload().module_id();
  ASSERT_FALSE(module_id.empty()) << uploaded->session_reply().status_message();
  std::vector<std::string> arrays;
  for (int64_t id : {2, 3}) {
    call(id, [](v1::SessionCall* c) {
      c->mutable_alloc()->add_shape(8);
      c->mutable_alloc()->set_dtype("float32");
    });
    std::optional<v1::WorkerMessage> allocated = reply_of(id, 20);
    ASSERT_TRUE(allocated.has_value());
    arrays.push_back(allocated->session_reply().alloc().array_id());
  }
  call(4, [&](v1::SessionCall* c) {
    v1::TimeFunctionRequest* t = c->mutable_time_function();
    t->set_module_id(module_id);
    t->set_function("add_one");
    for (const std::string& a : arrays) t->add_args()->set_array_id(a);
    t->add_args()->set_int_value(8);
    t->mutable_options()->set_number(1);
    t->mutable_options()->set_repeat(3);
    t->mutable_options()->set_cooldown_ms(5000);  // at least 10 s in all
  });

  // A lease sent behind the blocking call is measured while the call still runs.
  ASSERT_TRUE(tracker.Send(MakeLease(9, library_, sha_, "add_one")));
  v1::MeasureOutcome ok = OutcomeOf(tracker.WaitForResult(9, 8));
  EXPECT_EQ(ok.error_kind(), "ok") << ok.error_message();
  EXPECT_FALSE(reply_of(4, 0).has_value()) << "the timing call was expected to be running";

  // Stop is heard at once; the worker is destroyed without waiting for the call to end.
  (*worker)->Stop();
  std::optional<absl::Status> status = running.Wait(5);
  ASSERT_TRUE(status.has_value()) << "Run did not return after Stop";
  EXPECT_TRUE(status->ok()) << *status;
}

// A session kernel that segfaults used to take the worker down with it; now its session's
// process ends, the call says how, and the worker measures on.
TEST_F(WorkerTest, ACrashingSessionKernelLeavesTheWorkerRunning) {
  FakeTracker tracker;
  ASSERT_TRUE(tracker.ok());
  absl::StatusOr<std::unique_ptr<Worker>> worker = Worker::Create(Options(tracker));
  ASSERT_TRUE(worker.ok()) << worker.status();
  RunningWorker running(worker->get());
  ASSERT_EQ(tracker.WaitForRegistrations(1).size(), 1u);
  auto call = [&](int64_t id, auto fill) -> std::optional<v1::SessionReply> {
    v1::TrackerMessage message;
    message.mutable_session_call()->set_session_id("s1");
    message.mutable_session_call()->set_call_id(id);
    fill(message.mutable_session_call());
    EXPECT_TRUE(tracker.Send(message));
    std::optional<v1::WorkerMessage> reply = tracker.WaitFor(
        [id](const v1::WorkerMessage& m) {
          return m.has_session_reply() && m.session_reply().call_id() == id;
        },
        20);
    if (!reply.has_value()) return std::nullopt;
    return reply->session_reply();
  };
  std::optional<v1::SessionReply> uploaded = call(1, [&](v1::SessionCall* c) {
    c->mutable_upload()->set_name("kernels.so");
    c->mutable_upload()->set_library(library_);
  });
  ASSERT_TRUE(uploaded.has_value());
  std::vector<std::string> arrays;
  for (int64_t id : {2, 3}) {
    std::optional<v1::SessionReply> allocated = call(id, [](v1::SessionCall* c) {
      c->mutable_alloc()->add_shape(8);
      c->mutable_alloc()->set_dtype("float32");
    });
    ASSERT_TRUE(allocated.has_value());
    arrays.push_back(allocated->alloc().array_id());
  }
  std::optional<v1::SessionReply> crashed = call(4, [&](v1::SessionCall* c) {
    v1::CallFunctionRequest* f = c->mutable_call_function();
    f->set_module_id(uploaded->upload().module_id());
    f->set_function("crash");
    for (const std::string& a : arrays) f->add_args()->set_array_id(a);
    f->add_args()->set_int_value(8);
  });
  ASSERT_TRUE(crashed.has_value());
  EXPECT_EQ(crashed->status_code(), static_cast<int>(grpc::StatusCode::UNAVAILABLE));
  EXPECT_THAT(crashed->status_message(), HasSubstr("process ended"));

  ASSERT_TRUE(tracker.Send(MakeLease(9, library_, sha_, "add_one")));
  v1::MeasureOutcome ok = OutcomeOf(tracker.WaitForResult(9, 20));
  EXPECT_EQ(ok.error_kind(), "ok") << ok.error_message();
  (*worker)->Stop();
  ASSERT_TRUE(running.Wait(5).has_value());
}

TEST_F(WorkerTest, TlsVerifiesTheTrackerAgainstTheRootCert) {
  // A throwaway CA-less self-signed certificate for 127.0.0.1, made with the openssl CLI.
  const std::string stem = absl::StrCat(::testing::TempDir(), "/worker_tls_", getpid());
  const std::string command = absl::StrCat(
      "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 "
      "-subj /CN=localhost -addext subjectAltName=IP:127.0.0.1,DNS:localhost -keyout ",
      stem, ".key -out ", stem, ".crt 2>", stem, ".log");
  if (std::system(command.c_str()) != 0) GTEST_SKIP() << "openssl cannot make a certificate";
  std::optional<std::string> cert = fixtures::ReadFile(stem + ".crt");
  std::optional<std::string> key = fixtures::ReadFile(stem + ".key");
  ASSERT_TRUE(cert.has_value() && key.has_value());
  grpc::SslServerCredentialsOptions ssl;
  ssl.pem_key_cert_pairs.push_back({*key, *cert});
  FakeTracker tracker("", 0, grpc::SslServerCredentials(ssl));
  ASSERT_TRUE(tracker.ok());

  WorkerOptions options = Options(tracker);
  options.tls_root_cert_file = stem + ".crt";
  absl::StatusOr<std::unique_ptr<Worker>> worker = Worker::Create(options);
  ASSERT_TRUE(worker.ok()) << worker.status();
  RunningWorker running(worker->get());
  ASSERT_EQ(tracker.WaitForRegistrations(1).size(), 1u);
  ASSERT_TRUE(tracker.Send(MakeLease(1, library_, sha_, "add_one")));
  EXPECT_EQ(OutcomeOf(tracker.WaitForResult(1)).error_kind(), "ok");
  (*worker)->Stop();
  ASSERT_TRUE(running.Wait().has_value());

  // Plaintext against a TLS tracker never registers; give_up ends the attempts.
  options.tls_root_cert_file.clear();
  options.give_up_after_s = 0.3;
  absl::StatusOr<std::unique_ptr<Worker>> plain = Worker::Create(options);
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_TRUE(absl::IsUnavailable((*plain)->Run()));
  EXPECT_EQ(tracker.WaitForRegistrations(1, 0).size(), 1u);
  for (const char* suffix : {".crt", ".key", ".log"}) std::remove((stem + suffix).c_str());
}

TEST_F(WorkerTest, WrongTokenEndsRun) {
  FakeTracker tracker("secret");
  ASSERT_TRUE(tracker.ok());
  WorkerOptions options = Options(tracker);
  options.token = "guess";
  absl::StatusOr<std::unique_ptr<Worker>> worker = Worker::Create(options);
  ASSERT_TRUE(worker.ok()) << worker.status();
  absl::Status status = (*worker)->Run();  // no retry: a token does not fix itself
  EXPECT_TRUE(absl::IsUnauthenticated(status)) << status;
  EXPECT_THAT(status.message(), HasSubstr("bad token"));
}

TEST_F(WorkerTest, GivesUpOnAnUnreachableTracker) {
  int port = 0;
  {
    FakeTracker gone;  // a port that was just free
    port = gone.port();
  }
  WorkerOptions options;
  options.tracker = "127.0.0.1:" + std::to_string(port);
  options.device_key = "test-cpu";
  options.reconnect_initial_s = 0.05;
  options.reconnect_max_s = 0.1;
  options.give_up_after_s = 0.5;
  absl::StatusOr<std::unique_ptr<Worker>> worker = Worker::Create(options);
  ASSERT_TRUE(worker.ok()) << worker.status();
  absl::Status status = (*worker)->Run();
  EXPECT_TRUE(absl::IsUnavailable(status)) << status;
  EXPECT_THAT(status.message(), HasSubstr("gave up"));
}

TEST(WorkerCreateTest, RejectsMissingDeviceKey) {
  WorkerOptions options;
  EXPECT_TRUE(absl::IsInvalidArgument(Worker::Create(options).status()));
}

}  // namespace
}  // namespace tunefarm::rpc_server
