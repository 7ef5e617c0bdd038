// A real kernel library for the worker's tests, in the code generator's format (c_abi.h: a
// manifest, a parallel-launch pointer, TFKernelFunc entry points), written as C and compiled
// with the system C compiler at test time: rpc_server_tests must not link the compiler layer.
//
// Kernels, each (A: float32[n], B: float32[n], n: int64):
//   add_one       B = A + 1
//   add_two       B = A + 2 (a wrong answer against add_one)
//   crash         writes through a null pointer (SIGSEGV)
//   slow_add_one  creates the file named by $TF_RPC_TEST_MARKER (if set), sleeps 300 ms, then
//                 B = A + 1: a lease that is visibly in progress for a while
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "absl/strings/str_cat.h"

namespace tunefarm::rpc_server::testing {

inline constexpr char kMarkerEnv[] = "TF_RPC_TEST_MARKER";

inline constexpr char kTestKernelSource[] = R"C(
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

typedef union { int64_t v_int64; double v_float64; void* v_handle; } TFValue;
typedef int32_t (*TFParallelLambda)(int32_t, int32_t, void*);
typedef int32_t (*TFParallelLaunchFunc)(TFParallelLambda, void*, int32_t);

TFParallelLaunchFunc __tf_parallel_launch = 0;

#define SIG(name) "function " name " 3\narg tensor A float32 [n]\narg tensor B float32 [n]\n" \
                  "arg int n int64\n"
const char __tf_manifest[] = "tunefarm-manifest 1\n" SIG("add_one") SIG("add_two") SIG("crash")
                             SIG("slow_add_one");

/* A DLTensor starts with its data pointer. */
static float* Data(const TFValue* args, int i) { return *(float**)args[i].v_handle; }

static int32_t Add(const TFValue* args, float addend) {
  const float* a = Data(args, 0);
  float* b = Data(args, 1);
  for (int64_t i = 0; i < args[2].v_int64; ++i) b[i] = a[i] + addend;
  return 0;
}

int32_t add_one(const TFValue* args, const int32_t* codes, int32_t n) {
  (void)codes; (void)n;
  return Add(args, 1.0f);
}

int32_t add_two(const TFValue* args, const int32_t* codes, int32_t n) {
  (void)codes; (void)n;
  return Add(args, 2.0f);
}

int32_t crash(const TFValue* args, const int32_t* codes, int32_t n) {
  (void)args; (void)codes; (void)n;
  *(volatile int*)0 = 1;
  return 0;
}

int32_t slow_add_one(const TFValue* args, const int32_t* codes, int32_t n) {
  (void)codes; (void)n;
  const char* marker = getenv("TF_RPC_TEST_MARKER");
  if (marker != 0) {
    int fd = open(marker, O_WRONLY | O_CREAT, 0644);
    if (fd >= 0) close(fd);
  }
  usleep(300000);
  return Add(args, 1.0f);
}
)C";

// Compiles the library once per process (removed at exit); returns its path, or "" with
// `*error` set.
inline std::string TestKernelLibrary(std::string* error) {
  static std::string path;
  static std::string failure;
  static std::string stem;
  if (path.empty() && failure.empty()) {
    stem = absl::StrCat(::testing::TempDir(), "/rpc_server_kernels_", getpid());
    std::atexit([] {
      // The library and what the measure child cached beside it (<library>.expected-*).
      const std::filesystem::path self(stem);
      std::error_code ec;
      for (const auto& e : std::filesystem::directory_iterator(self.parent_path(), ec)) {
        if (e.path().filename().string().starts_with(self.filename().string() + ".")) {
          std::filesystem::remove(e.path(), ec);
        }
      }
    });
    {
      std::ofstream source(stem + ".c");
      source << kTestKernelSource;
    }
    const std::string command =
        absl::StrCat("cc -shared -fPIC -O1 -o ", stem, ".so ", stem, ".c 2>", stem, ".log");
    if (std::system(command.c_str()) == 0) {
      path = stem + ".so";
    } else {
      failure = absl::StrCat("'", command, "' failed (is a C compiler installed?)");
    }
  }
  *error = failure;
  return path;
}

}  // namespace tunefarm::rpc_server::testing
