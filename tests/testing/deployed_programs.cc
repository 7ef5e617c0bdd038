#include "tests/testing/deployed_programs.h"

#include <cstdlib>
#include <sstream>
#include <unistd.h>

namespace tunefarm::fixtures {

std::string FindOnPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (!dir.empty() && access((dir + "/" + name).c_str(), X_OK) == 0) return dir + "/" + name;
  }
  return "";
}

std::string QemuAarch64Command(std::string* missing) {
  const std::string qemu = FindOnPath("qemu-aarch64");
  const std::string sysroot = "/usr/aarch64-linux-gnu";
  if (qemu.empty()) {
    *missing = "qemu-aarch64 is not on PATH";
    return "";
  }
  if (access((sysroot + "/lib/libc.so.6").c_str(), R_OK) != 0) {
    *missing = sysroot + "/lib/libc.so.6 (the AArch64 cross libc) is missing";
    return "";
  }
  return qemu + " -L " + sysroot + " -E LD_LIBRARY_PATH=" + sysroot + "/lib";
}

std::vector<int> PrintedTop5(const std::string& run_model_output, const std::string& output) {
  std::vector<int> classes;
  const std::string header = "top-5 of '" + output + "':\n";
  const size_t at = run_model_output.find(header);
  if (at == std::string::npos) return classes;
  std::stringstream lines(run_model_output.substr(at + header.size()));
  int index;
  double score;
  while (classes.size() < 5 && lines >> index >> score) classes.push_back(index);
  return classes;
}

}  // namespace tunefarm::fixtures
