// Gives every test process a private temporary folder, removed when that process exits, so that
// ::testing::TempDir() (TEST_TMPDIR) and std::filesystem::temp_directory_path() (TMPDIR) never
// collect the suite's files: ctest runs each test in a process of its own, and the suite used to
// leave its databases, modules and exported models behind in /tmp (gigabytes after a few runs).
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <unistd.h>

namespace {

// A process started by a test (a death test's re-executed child, a helper) shares its parent's
// folder: the parent made it and removes it.
constexpr char kOwnedFolder[] = "TUNEFARM_TEST_TMPDIR";

class PrivateTempDir {
 public:
  PrivateTempDir() {
    if (const char* inherited = std::getenv(kOwnedFolder); inherited && *inherited) {
      Use(inherited);
      return;
    }
    std::string base = "/tmp";
    for (const char* name : {"TEST_TMPDIR", "TMPDIR"}) {
      if (const char* v = std::getenv(name); v && *v) {
        base = v;
        break;
      }
    }
    std::string folder = base + "/tunefarm-tests-XXXXXX";
    if (::mkdtemp(folder.data()) == nullptr) return;  // the tests then share `base`, as before
    Use(folder.c_str());
    ::setenv(kOwnedFolder, folder.c_str(), 1);
    folder_ = folder;
    owner_ = ::getpid();
  }
  // Runs after main returns, and after exit hooks registered later (the builder's wait for its
  // late builds): nothing of the test writes here any more. A forked child that calls exit() is
  // not the owner and leaves the folder to its parent.
  ~PrivateTempDir() {
    if (folder_.empty() || ::getpid() != owner_) return;
    std::error_code ignored;
    std::filesystem::remove_all(folder_, ignored);
  }
  PrivateTempDir(const PrivateTempDir&) = delete;
  PrivateTempDir& operator=(const PrivateTempDir&) = delete;

 private:
  // Processes the test starts (a tracker, a builder's work folders) write there too.
  static void Use(const char* folder) {
    ::setenv("TEST_TMPDIR", folder, 1);
    ::setenv("TMPDIR", folder, 1);
  }

  std::string folder_;
  pid_t owner_ = 0;
};

const PrivateTempDir private_temp_dir;

}  // namespace
