// The built `tunefarm` binary run as a user runs it, for the tests under tests/cli: its exit
// code and everything it printed; a scratch folder per test binary.
#pragma once

#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "tests/testing/child_process.h"

namespace tunefarm {

struct Outcome {
  int code = -1;
  std::string output;  // stdout and stderr together
};

inline Outcome Tunefarm(std::vector<std::string> args) {
  static int runs = 0;
  args.insert(args.begin(), TUNEFARM_BINARY);
  const std::string log =
      (std::filesystem::path(::testing::TempDir()) / ("cli_" + std::to_string(++runs) + ".log"))
          .string();
  fixtures::ChildProcess child(args, log);
  Outcome o;
  o.code = child.Wait(120);
  o.output = child.Log();
  return o;
}

inline std::string Scratch(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "cli_scratch";
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

}  // namespace tunefarm
