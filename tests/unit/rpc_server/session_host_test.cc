// Remote-session calls on the worker side: upload a real library and list its functions with
// signatures, alloc and copy arrays (sizes must match exactly), call a kernel (results checked
// against a naive loop), a bad argument is INVALID_ARGUMENT with the runtime's message, time it,
// and close frees the session.
#include "rpc_server/session_host.h"

#include <cstring>
#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>
#include <vector>

#include "absl/strings/str_cat.h"
#include "proto/tunefarm/v1/session.pb.h"
#include "tests/testing/files.h"
#include "tests/unit/rpc_server/test_kernels.h"

namespace tunefarm::rpc_server {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;

constexpr int kOk = 0, kInvalidArgument = 3, kNotFound = 5;

class SessionHostTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    const std::string path = testing::TestKernelLibrary(&error);
    if (path.empty()) GTEST_SKIP() << error;
    std::optional<std::string> bytes = fixtures::ReadFile(path);
    ASSERT_TRUE(bytes.has_value());
    library_ = *bytes;
  }

  void TearDown() override { std::filesystem::remove_all(dir_); }

  v1::SessionReply Do(v1::SessionCall call) {
    call.set_session_id("s1");
    call.set_call_id(++call_id_);
    v1::SessionReply reply;
    host_.Handle(call, &reply);
    EXPECT_EQ(reply.call_id(), call_id_);
    return reply;
  }
  std::string Alloc(int64_t n) {
    v1::SessionCall call;
    call.mutable_alloc()->add_shape(n);
    call.mutable_alloc()->set_dtype("float32");
    v1::SessionReply reply = Do(call);
    EXPECT_EQ(reply.status_code(), kOk) << reply.status_message();
    return reply.alloc().array_id();
  }
  v1::SessionCall CallAddOne(const std::string& module, const std::string& a, const std::string& b,
                             int64_t n) {
    v1::SessionCall call;
    v1::CallFunctionRequest* f = call.mutable_call_function();
    f->set_module_id(module);
    f->set_function("add_one");
    f->add_args()->set_array_id(a);
    f->add_args()->set_array_id(b);
    f->add_args()->set_int_value(n);
    return call;
  }

  std::string library_;
  std::string dir_ = absl::StrCat(::testing::TempDir(), "/session_host_", getpid());
  SessionHost host_{dir_};
  int64_t call_id_ = 0;
};

TEST_F(SessionHostTest, UploadCallCopyTimeClose) {
  v1::SessionCall upload;
  upload.mutable_upload()->set_library(library_);
  upload.mutable_upload()->set_name("kernels.so");
  v1::SessionReply uploaded = Do(upload);
  ASSERT_EQ(uploaded.status_code(), kOk) << uploaded.status_message();
  const std::string module = uploaded.upload().module_id();
  EXPECT_THAT(uploaded.upload().functions(),
              Contains("add_one(A: float32[n], B: float32[n], n: int64)"));

  const std::string a = Alloc(4), b = Alloc(4);
  const std::vector<float> input = {0.5f, -1.25f, 3.0f, 7.75f};
  v1::SessionCall copy_to;
  copy_to.mutable_copy_to()->set_array_id(a);
  copy_to.mutable_copy_to()->set_data(std::string(reinterpret_cast<const char*>(input.data()), 15));
  v1::SessionReply short_copy = Do(copy_to);
  EXPECT_EQ(short_copy.status_code(), kInvalidArgument);
  EXPECT_THAT(short_copy.status_message(), HasSubstr("holds 16 bytes; got 15"));
  copy_to.mutable_copy_to()->set_data(std::string(reinterpret_cast<const char*>(input.data()), 16));
  ASSERT_EQ(Do(copy_to).status_code(), kOk);

  v1::SessionReply called = Do(CallAddOne(module, a, b, 4));
  ASSERT_EQ(called.status_code(), kOk) << called.status_message();
  EXPECT_GE(called.call_function().seconds(), 0);
  v1::SessionCall copy_from;
  copy_from.mutable_copy_from()->set_array_id(b);
  v1::SessionReply out = Do(copy_from);
  ASSERT_EQ(out.status_code(), kOk);
  ASSERT_EQ(out.copy_from().data().size(), 16u);
  float got[4];
  std::memcpy(got, out.copy_from().data().data(), sizeof(got));
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(got[i], input[i] + 1.0f, 1e-6) << i;

  // n disagrees with the arrays' extent: the runtime's check, not a crash.
  v1::SessionReply bad = Do(CallAddOne(module, a, b, 5));
  EXPECT_EQ(bad.status_code(), kInvalidArgument);
  EXPECT_THAT(bad.status_message(), HasSubstr("add_one"));
  EXPECT_EQ(Do(CallAddOne(module, a, "a999", 4)).status_code(), kNotFound);
  EXPECT_EQ(Do(CallAddOne("m999", a, b, 4)).status_code(), kNotFound);

  v1::SessionCall time;
  v1::TimeFunctionRequest* t = time.mutable_time_function();
  *t->mutable_args() = CallAddOne(module, a, b, 4).call_function().args();
  t->set_module_id(module);
  t->set_function("add_one");
  t->mutable_options()->set_number(3);
  t->mutable_options()->set_repeat(2);
  v1::SessionReply timed = Do(time);
  ASSERT_EQ(timed.status_code(), kOk) << timed.status_message();
  EXPECT_EQ(timed.time_function().repeat_seconds_size(), 2);
  EXPECT_GT(timed.time_function().median_seconds(), 0);
  // Timed as a layer in a model: one call per repeat, the weights evicted before each.
  t->mutable_options()->set_number(1);
  t->mutable_options()->set_cache_flush(v1::CACHE_FLUSH_WEIGHTS);
  t->mutable_options()->set_warmup_ms(1);
  v1::SessionReply evicted = Do(time);
  ASSERT_EQ(evicted.status_code(), kOk) << evicted.status_message();
  EXPECT_EQ(evicted.time_function().repeat_seconds_size(), 2);

  EXPECT_EQ(host_.open_sessions(), 1u);
  v1::SessionCall close;
  close.mutable_close();
  EXPECT_EQ(Do(close).status_code(), kOk);
  EXPECT_EQ(host_.open_sessions(), 0u);
}

TEST_F(SessionHostTest, BadUploadAndAllocAreInvalidArguments) {
  v1::SessionCall upload;
  upload.mutable_upload()->set_library("not an ELF file");
  upload.mutable_upload()->set_name("junk.so");
  v1::SessionReply reply = Do(upload);
  EXPECT_EQ(reply.status_code(), kInvalidArgument);
  EXPECT_THAT(reply.status_message(), HasSubstr("junk.so"));

  v1::SessionCall alloc;
  alloc.mutable_alloc()->add_shape(-1);
  alloc.mutable_alloc()->set_dtype("float32");
  EXPECT_EQ(Do(alloc).status_code(), kInvalidArgument);
  alloc.mutable_alloc()->set_shape(0, 2);
  alloc.mutable_alloc()->set_dtype("complex7");
  EXPECT_EQ(Do(alloc).status_code(), kInvalidArgument);
}

}  // namespace
}  // namespace tunefarm::rpc_server
