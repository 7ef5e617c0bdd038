// TEMPORARY: prints space sizes (deleted before hand-off).
#include <gtest/gtest.h>
#include <cstdio>
#include "compiler/space/config_json.h"
#include "tests/unit/tuner/templates/template_harness.h"

namespace tunefarm::tuner {
TEST(DISABLED_SpaceReport, Print) {
  for (const char* key : {"matmul:1024,1024,1024", "dense:128,3072,768", "batch_matmul:12,128,64,128", "matmul:1,1000,2048",
                          "conv2d:1,64,56,56,64,3,3,1,1", "conv2d_nchwc:1,64,56,56,64,3,3,1,1", "conv2d_nchwc:1,128,28,28,128,3,3,1,1",
                          "conv2d_nchwc:1,256,14,14,256,3,3,1,1", "conv2d_nchwc:1,512,7,7,512,3,3,1,1", "conv2d_nchwc:1,64,56,56,128,1,1,2,0",
                          "depthwise_conv2d:1,32,112,112,3,3,1,1", "depthwise_conv2d:1,512,14,14,3,3,1,1"}) {
    for (const char* target : {"llvm", "llvm -mtriple=x86_64-linux-gnu -mcpu=haswell"}) {
      absl::StatusOr<std::unique_ptr<Task>> t = CreateTask(*ParseWorkloadKey(key), target);
      ASSERT_TRUE(t.ok()) << t.status();
      absl::StatusOr<int64_t> valid = (*t)->space().CountValid(int64_t{1} << 26);
      absl::StatusOr<space::Config> def = (*t)->DefaultConfig();
      std::printf("%s [%s]: size %ld valid %ld default %s\n", key, target, (long)(*t)->space().size(),
                  valid.ok() ? (long)*valid : -1L, def.ok() ? space::ConfigToJson(*def).c_str() : def.status().ToString().c_str());
    }
  }
}
}  // namespace tunefarm::tuner
