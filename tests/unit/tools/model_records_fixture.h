// What the tests of builds with records share: records written into a real SQLite database for
// device key "box", tuned-looking configs of a workload's templates, and a model of two chained
// convs whose second is a 3x3 stride-1 conv (a direct and a Winograd task of one layer).
#pragma once

#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <vector>

#include "compiler/graph/fusion.h"
#include "compiler/space/config_json.h"
#include "compiler/target/target_cpu.h"
#include "compiler/topi/conv2d_winograd_knobs.h"
#include "driver/model_compiler.h"
#include "tests/testing/files.h"
#include "tests/unit/compiler/frontend/onnx/onnx_model_builder.h"
#include "tuner/model_tasks.h"
#include "tuner/record_store.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tools::testing {

inline void AddRecord(const std::string& db, const std::string& workload, const std::string& config,
                      std::vector<double> repeat_seconds,
                      tuner::CacheFlush cache_flush = tuner::CacheFlush::kNone) {
  auto store = tuner::RecordStore::Open(db);
  ASSERT_TRUE(store.ok()) << store.status();
  tuner::Record r;
  r.workload_key = workload;
  r.target = target::Target::Host().str();
  r.device_key = "box";
  r.config_json = config;
  r.repeat_seconds = std::move(repeat_seconds);
  r.measured_by = "local";
  r.cache_flush = cache_flush;
  ASSERT_TRUE((*store)->Insert(r).ok());
}

// A template's default config as JSON: a record of it is a tuned config all the same.
inline std::string TunedConfigJson(const std::string& workload) {
  absl::StatusOr<std::unique_ptr<tuner::Task>> task =
      tuner::CreateTask(*tuner::ParseWorkloadKey(workload), target::Target::Host());
  EXPECT_TRUE(task.ok()) << task.status();
  if (!task.ok()) return "";
  absl::StatusOr<space::Config> config = (*task)->DefaultConfig();
  EXPECT_TRUE(config.ok()) << config.status();
  return config.ok() ? space::ConfigToJson(*config) : "";
}

// A record of the Winograd task of `direct_key`'s layer with tile `tile`, its default otherwise.
inline std::string WinogradConfigJson(const std::string& direct_key, int64_t tile) {
  tuner::Workload w = *tuner::ParseWorkloadKey(direct_key);
  w.template_name = "conv2d_winograd_nchwc";
  absl::StatusOr<std::unique_ptr<tuner::Task>> task = tuner::CreateTask(w, target::Target::Host());
  EXPECT_TRUE(task.ok()) << task.status();
  if (!task.ok()) return "";
  const topi::CpuInfo cpu = target::CpuInfoOf(target::Target::Host());
  absl::StatusOr<space::Config> point = topi::Conv2dWinogradKnobsFromConfig(
      (*task)->space(), topi::DefaultConv2dWinogradConfig(tile, cpu));
  EXPECT_TRUE(point.ok()) << point.status();
  return point.ok() ? space::ConfigToJson(*point) : "";
}

// The workload key of the Winograd task of a direct conv's layer.
inline std::string WinogradKeyOf(std::string direct_key) {
  direct_key.replace(0, direct_key.find(':'), "conv2d_winograd_nchwc");
  return direct_key;
}

// Two chained convs with constant weights: the layout rewrite blocks both, the second reading its
// input in the block the first writes. With `residual`, the output is c2 + c1: an add of two
// blocked values of 40 channels.
inline std::string ChainedConvsModel(bool residual = false) {
  using B = frontend::onnx::testing::OnnxModelBuilder;
  B b(13);
  b.Input("image", {1, 3, 8, 8});
  b.FloatInit("w1", {40, 3, 3, 3});
  b.FloatInit("w2", {40, 40, 3, 3});
  B::Ints(b.Node("Conv", {"image", "w1"}, {"c1"}), "pads", {1, 1, 1, 1});
  B::Ints(b.Node("Conv", {"c1", "w2"}, {"c2"}), "pads", {1, 1, 1, 1});
  if (!residual) {
    b.Output("c2");
    return fixtures::WriteTempFile("chained.onnx", b.Bytes());
  }
  b.Node("Add", {"c2", "c1"}, {"sum"});
  b.Output("sum");
  return fixtures::WriteTempFile("residual.onnx", b.Bytes());
}

// The workload keys of the model's tasks, as its default build fuses it.
inline std::vector<std::string> TaskKeys(const std::string& model) {
  absl::StatusOr<driver::OptimizedModel> optimized =
      driver::OptimizeModel(model, driver::ModelCompileOptions(), target::Target::Host());
  EXPECT_TRUE(optimized.ok()) << optimized.status();
  if (!optimized.ok()) return {};
  std::vector<std::string> keys;
  for (const tuner::ModelTask& task :
       tuner::ExtractModelTasks(optimized->graph, graph::PlanFusion(optimized->graph))) {
    keys.push_back(task.workload.Key());
  }
  return keys;
}

}  // namespace tunefarm::tools::testing
