// The worker tests' shared set-up: a real kernel library (built by the system C compiler) with its
// hash, and worker options pointed at a FakeTracker with short reconnect backoff.
#pragma once

#include <gtest/gtest.h>
#include <optional>
#include <string>

#include "rpc_server/worker.h"
#include "runtime/measure/sha256.h"
#include "tests/testing/files.h"
#include "tests/unit/rpc_server/fake_tracker.h"
#include "tests/unit/rpc_server/test_kernels.h"

namespace tunefarm::rpc_server::testing {

class WorkerFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    library_path_ = TestKernelLibrary(&error);
    if (library_path_.empty()) GTEST_SKIP() << error;
    std::optional<std::string> bytes = fixtures::ReadFile(library_path_);
    ASSERT_TRUE(bytes.has_value());
    library_ = *bytes;
    sha_ = runtime::measure::Sha256Hex(library_);
  }

  WorkerOptions Options(const FakeTracker& tracker) {
    WorkerOptions options;
    options.tracker = tracker.address();
    options.device_key = "test-cpu";
    options.target = "llvm -mcpu=test";
    options.reconnect_initial_s = 0.05;
    options.reconnect_max_s = 0.2;
    return options;
  }

  std::string library_path_;
  std::string library_;
  std::string sha_;
};

}  // namespace tunefarm::rpc_server::testing
