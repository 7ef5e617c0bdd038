// Remote sessions in processes of their own (the real tunefarm-rpc-server --serve-sessions): a
// kernel that crashes ends its session only, with a reply saying how; a call that hangs is ended
// by closing the session; memory, reply size and session count are limited with errors naming
// the limit; and destroying the runner leaves nothing running.
#include "rpc_server/session_runner.h"

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "proto/tunefarm/v1/session.pb.h"
#include "rpc_server/session_program.h"
#include "tests/testing/files.h"
#include "tests/unit/rpc_server/test_kernels.h"

namespace tunefarm::rpc_server {
namespace {

using ::testing::HasSubstr;
using Clock = std::chrono::steady_clock;

constexpr int kCodeOk = 0, kCancelled = 1, kFailedPrecondition = 9, kResourceExhausted = 8,
              kUnavailable = 14;

// Replies by call id, as the worker's stream would carry them.
class Replies {
 public:
  SessionRunner::ReplyFn Sink() {
    return [this](const v1::SessionReply& reply) {
      std::lock_guard<std::mutex> lock(mu_);
      replies_[reply.call_id()] = reply;
      cv_.notify_all();
    };
  }
  std::optional<v1::SessionReply> Wait(int64_t call_id, double timeout_s) {
    std::unique_lock<std::mutex> lock(mu_);
    if (!cv_.wait_for(lock, std::chrono::duration<double>(timeout_s),
                      [&] { return replies_.count(call_id) > 0; })) {
      return std::nullopt;
    }
    return replies_[call_id];
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<int64_t, v1::SessionReply> replies_;
};

class SessionRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    const std::string path = testing::TestKernelLibrary(&error);
    if (path.empty()) GTEST_SKIP() << error;
    std::optional<std::string> bytes = fixtures::ReadFile(path);
    ASSERT_TRUE(bytes.has_value());
    library_ = *bytes;
    absl::StatusOr<std::string> program = FindSessionProgram();
    ASSERT_TRUE(program.ok()) << program.status();
    options_.program = *program;
    options_.dir = dir_;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  void Start() { runner_ = std::make_unique<SessionRunner>(options_); }

  // Sends a call and waits for its reply.
  v1::SessionReply Do(const std::string& session, v1::SessionCall call, double timeout_s = 30) {
    const int64_t id = Send(session, std::move(call));
    std::optional<v1::SessionReply> reply = replies_.Wait(id, timeout_s);
    EXPECT_TRUE(reply.has_value()) << "no reply to call " << id;
    return reply.value_or(v1::SessionReply{});
  }
  int64_t Send(const std::string& session, v1::SessionCall call) {
    call.set_session_id(session);
    call.set_call_id(++call_id_);
    runner_->Submit(call, replies_.Sink());
    return call_id_;
  }

  std::string Upload(const std::string& session) {
    v1::SessionCall call;
    call.mutable_upload()->set_name("kernels.so");
    call.mutable_upload()->set_library(library_);
    v1::SessionReply reply = Do(session, call);
    EXPECT_EQ(reply.status_code(), kCodeOk) << reply.status_message();
    return reply.upload().module_id();
  }
  v1::SessionReply Alloc(const std::string& session, int64_t n) {
    v1::SessionCall call;
    call.mutable_alloc()->add_shape(n);
    call.mutable_alloc()->set_dtype("float32");
    return Do(session, call);
  }
  v1::SessionCall Kernel(const std::string& module, const std::string& function,
                         const std::string& a, const std::string& b, int64_t n) {
    v1::SessionCall call;
    v1::CallFunctionRequest* f = call.mutable_call_function();
    f->set_module_id(module);
    f->set_function(function);
    f->add_args()->set_array_id(a);
    f->add_args()->set_array_id(b);
    f->add_args()->set_int_value(n);
    return call;
  }
  static v1::SessionCall Close() {
    v1::SessionCall call;
    call.mutable_close();
    return call;
  }
  // A TimeFunction call that waits `repeat` times a minute between its repeats.
  static v1::SessionCall HangingTiming(const std::string& module, const std::string& a,
                                       const std::string& b, int repeat) {
    v1::SessionCall timing;
    v1::TimeFunctionRequest* t = timing.mutable_time_function();
    t->set_module_id(module);
    t->set_function("add_one");
    t->add_args()->set_array_id(a);
    t->add_args()->set_array_id(b);
    t->add_args()->set_int_value(8);
    t->mutable_options()->set_number(1);
    t->mutable_options()->set_repeat(repeat);
    t->mutable_options()->set_cooldown_ms(60000);
    return timing;
  }

  std::string library_;
  std::string dir_ = absl::StrCat(::testing::TempDir(), "/session_runner_", getpid());
  SessionRunnerOptions options_;
  std::unique_ptr<SessionRunner> runner_;
  Replies replies_;
  int64_t call_id_ = 0;
};

TEST_F(SessionRunnerTest, ACrashingKernelEndsItsSessionOnlyAndSaysHow) {
  Start();
  const std::string crashing = Upload("a");
  const std::string healthy = Upload("b");
  ASSERT_FALSE(crashing.empty());
  const std::string a1 = Alloc("a", 16).alloc().array_id();
  const std::string a2 = Alloc("a", 16).alloc().array_id();

  v1::SessionReply crashed = Do("a", Kernel(crashing, "crash", a1, a2, 16));
  EXPECT_EQ(crashed.status_code(), kUnavailable);
  EXPECT_THAT(crashed.status_message(), HasSubstr("process ended"));
  EXPECT_THAT(crashed.status_message(), HasSubstr("during CallFunction"));
  EXPECT_THAT(crashed.status_message(), HasSubstr("open a new session"));
  // Later calls of that session say it is gone, without starting anything.
  v1::SessionReply after = Alloc("a", 4);
  EXPECT_EQ(after.status_code(), kFailedPrecondition);
  EXPECT_THAT(after.status_message(), HasSubstr("ended earlier"));

  // The other session still has its module and computes.
  const std::string b1 = Alloc("b", 16).alloc().array_id();
  const std::string b2 = Alloc("b", 16).alloc().array_id();
  v1::SessionReply ok = Do("b", Kernel(healthy, "add_one", b1, b2, 16));
  EXPECT_EQ(ok.status_code(), kCodeOk) << ok.status_message();
  EXPECT_EQ(runner_->open_sessions(), 2u);

  // Closing the crashed session removes what it wrote.
  EXPECT_EQ(Do("a", Close()).status_code(), kCodeOk);
  EXPECT_EQ(runner_->open_sessions(), 1u);
  runner_.reset();
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/s1"));
}

TEST_F(SessionRunnerTest, ClosingASessionEndsACallThatHangs) {
  Start();
  const std::string module = Upload("s");
  const std::string a = Alloc("s", 8).alloc().array_id();
  const std::string b = Alloc("s", 8).alloc().array_id();
  const int64_t hanging = Send("s", HangingTiming(module, a, b, 3));  // two minutes in all
  EXPECT_FALSE(replies_.Wait(hanging, 0.5).has_value()) << "the timing call was to be running";

  const auto start = Clock::now();
  v1::SessionReply closed = Do("s", Close(), 10);
  EXPECT_EQ(closed.status_code(), kCodeOk) << closed.status_message();
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 5);
  std::optional<v1::SessionReply> ended = replies_.Wait(hanging, 5);
  ASSERT_TRUE(ended.has_value());
  EXPECT_EQ(ended->status_code(), kCancelled);
  EXPECT_THAT(ended->status_message(), HasSubstr("closed while TimeFunction ran"));
}

TEST_F(SessionRunnerTest, MemoryReplySizeAndSessionCountAreLimited) {
  options_.limits.memory_bytes = 1 << 20;
  options_.max_sessions = 2;
  Start();
  runner_->SetMaxReplyBytes((1 << 20) + (64 << 10));  // 64 KiB left for an array's bytes

  v1::SessionReply first = Alloc("s", 200000);  // 800 KB
  ASSERT_EQ(first.status_code(), kCodeOk) << first.status_message();
  v1::SessionReply second = Alloc("s", 200000);
  EXPECT_EQ(second.status_code(), kResourceExhausted);
  EXPECT_THAT(second.status_message(), HasSubstr("memory limit"));
  // A claim of 4 TiB is refused from its shape, before anything is allocated.
  const auto start = Clock::now();
  v1::SessionReply huge = Alloc("s", int64_t{1} << 40);
  EXPECT_EQ(huge.status_code(), kResourceExhausted);
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 5);

  v1::SessionCall copy;
  copy.mutable_copy_from()->set_array_id(first.alloc().array_id());
  v1::SessionReply copied = Do("s", copy);
  EXPECT_EQ(copied.status_code(), kResourceExhausted);
  EXPECT_THAT(copied.status_message(), HasSubstr("max_message_bytes"));

  EXPECT_EQ(Alloc("t", 4).status_code(), kCodeOk);
  v1::SessionReply third = Alloc("u", 4);
  EXPECT_EQ(third.status_code(), kResourceExhausted);
  EXPECT_THAT(third.status_message(), HasSubstr("already runs 2 sessions"));
}

TEST_F(SessionRunnerTest, DestroyingTheRunnerKillsSessionsThatHang) {
  Start();
  const std::string module = Upload("s");
  const std::string a = Alloc("s", 8).alloc().array_id();
  const std::string b = Alloc("s", 8).alloc().array_id();
  Send("s", HangingTiming(module, a, b, 2));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto start = Clock::now();
  runner_.reset();
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 5);
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/s1"));
}

}  // namespace
}  // namespace tunefarm::rpc_server
