#include "tests/testing/pytorch_models.h"

#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <map>
#include <mutex>
#include <optional>
#include <sys/file.h>
#include <system_error>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "tests/testing/files.h"

namespace tunefarm::fixtures {
namespace {

namespace fs = std::filesystem;

// ctest runs every test in a process of its own: exporting per process cost each VGG-16 test
// half a minute and 550 MB. The cache sits in the build folder, beside the binary.
fs::path CacheFolder() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return fs::path(::testing::TempDir()) / "test-models";
  return exe.parent_path() / "test-models";
}

// Holds an exclusive flock on `path` while alive: one process exports, the others wait for it.
class FileLock {
 public:
  explicit FileLock(const fs::path& path) : fd_(::open(path.c_str(), O_CREAT | O_RDWR, 0644)) {
    if (fd_ >= 0) ::flock(fd_, LOCK_EX);
  }
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
  }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
};

std::string Export(const std::string& name) {
  const std::string script = SourcePath("scripts/export-models.py");
  std::optional<std::string> script_text = ReadFile(script);
  if (!script_text) return "";
  // A changed script (new variants, other inputs) invalidates what it exported before.
  const std::string stamp = absl::StrCat(std::hash<std::string>{}(*script_text));
  const fs::path cache = CacheFolder();
  std::error_code ec;
  fs::create_directories(cache, ec);
  if (ec) return "";
  FileLock lock(cache / (name + ".lock"));
  const fs::path dir = cache / name;
  const fs::path marker = dir / ".exported";
  if (ReadFile(marker.string()) == stamp) return dir.string();
  fs::remove_all(dir, ec);
  const std::string python = "/usr/bin/python3";
  const std::string command =
      absl::StrCat(python, " -c 'import torch, torchvision' 2>/dev/null && ", python, " ", script,
                   " ", dir.string(), " ", name, " >/dev/null");
  if (std::system(command.c_str()) != 0) return "";
  std::ofstream(marker) << stamp;
  return dir.string();
}

}  // namespace

std::string ExportedPytorchModel(const std::string& name) {
  static std::mutex mu;
  static std::map<std::string, std::string> exported;
  std::lock_guard<std::mutex> lock(mu);
  auto it = exported.find(name);
  if (it == exported.end()) it = exported.emplace(name, Export(name)).first;
  return it->second;
}

}  // namespace tunefarm::fixtures
