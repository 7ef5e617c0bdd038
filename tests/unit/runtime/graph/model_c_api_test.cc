// The model runtime's C ABI at its edges: failures are codes with one truncated, NUL-terminated
// line; null handles and bad indices are refused, never dereferenced. (Loading, running and
// timing a real module through it: tests/python/test_model_runtime.py.)
#include "runtime/graph/model_c_api.h"

#include <cstring>
#include <gtest/gtest.h>
#include <string>

namespace {

TEST(ModelCApiTest, AFailedLoadSaysWhyInATruncatedLine) {
  TFModel* model = reinterpret_cast<TFModel*>(0x1);
  char error[256] = {};
  EXPECT_NE(TFModelLoad("/no/such/module.so", &model, error, sizeof(error)), 0);
  EXPECT_EQ(model, nullptr);
  EXPECT_NE(std::string(error).find("/no/such/module.so"), std::string::npos) << error;
  char tiny[8];
  std::memset(tiny, 'x', sizeof(tiny));
  EXPECT_NE(TFModelLoad("/no/such/module.so", &model, tiny, sizeof(tiny)), 0);
  EXPECT_EQ(std::strlen(tiny), 7u);
  EXPECT_NE(TFModelLoad("/no/such/module.so", &model, nullptr, 0), 0);
}

TEST(ModelCApiTest, NullHandlesAreRefused) {
  char error[128] = {};
  EXPECT_EQ(TFModelNumInputs(nullptr), 0);
  EXPECT_EQ(TFModelNumOutputs(nullptr), 0);
  EXPECT_NE(TFModelInputInfo(nullptr, 0, nullptr, nullptr, nullptr, nullptr), 0);
  EXPECT_NE(TFModelRun(nullptr, error, sizeof(error)), 0);
  EXPECT_STREQ(error, "no model");
  double seconds[2];
  EXPECT_NE(TFModelTime(nullptr, 2, 1, seconds, error, sizeof(error)), 0);
  float data[4];
  EXPECT_NE(TFModelSetInput(nullptr, 0, data, sizeof(data), error, sizeof(error)), 0);
  EXPECT_NE(TFModelGetOutput(nullptr, 0, data, sizeof(data), error, sizeof(error)), 0);
  TFModelFree(nullptr);
}

TEST(ModelCApiTest, AThreadCountOutOfRangeIsRefused) {
  char error[128] = {};
  EXPECT_NE(TFSetNumThreads(100000, error, sizeof(error)), 0);  // over kMaxThreads
  EXPECT_GT(std::strlen(error), 0u);
  EXPECT_EQ(TFSetNumThreads(1, error, sizeof(error)), 0);
  EXPECT_EQ(TFSetNumThreads(0, error, sizeof(error)), 0);  // back to the default
}

}  // namespace
