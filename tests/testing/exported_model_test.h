// A test parameterized over models that scripts/export-models.py exports: SetUp finds (or
// exports) the model its parameter names and skips where PyTorch is missing; File(".onnx") and
// File(".b4.input.npy") are paths in the model's folder.
#pragma once

#include <gtest/gtest.h>
#include <string>

#include "tests/testing/pytorch_models.h"

namespace tunefarm::fixtures {

inline std::string ModelName(const std::string& name) { return name; }
inline std::string ModelName(const char* name) { return name; }
// A parameter struct with a `name` field.
template <typename Param>
std::string ModelName(const Param& param) {
  return param.name;
}

template <typename Param>
class ExportedModelTest : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    dir_ = ExportedPytorchModel(ModelName(this->GetParam()));
    if (dir_.empty()) GTEST_SKIP() << "python3-torch/torchvision missing";
  }
  std::string File(const std::string& suffix) const {
    return dir_ + "/" + ModelName(this->GetParam()) + suffix;
  }

  std::string dir_;
};

}  // namespace tunefarm::fixtures
