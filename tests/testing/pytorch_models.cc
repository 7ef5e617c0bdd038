#include "tests/testing/pytorch_models.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <map>
#include <mutex>
#include <unistd.h>

#include "tests/testing/files.h"

namespace tunefarm::fixtures {

std::string ExportedPytorchModel(const std::string& name) {
  static std::mutex mu;
  static std::map<std::string, bool> exported;
  const std::string python = "/usr/bin/python3";
  const std::string dir = ::testing::TempDir() + "/tf_models_" + std::to_string(getpid());
  std::lock_guard<std::mutex> lock(mu);
  auto it = exported.find(name);
  if (it == exported.end()) {
    const std::string command = python + " -c 'import torch, torchvision' 2>/dev/null && " +
                                python + " " + SourcePath("scripts/export-models.py") + " " + dir +
                                " " + name + " >/dev/null";
    it = exported.emplace(name, std::system(command.c_str()) == 0).first;
  }
  return it->second ? dir : std::string();
}

}  // namespace tunefarm::fixtures
