// Runs generated CUDA C on the CPU, for numerical checks where no GPU exists: the source is
// compiled by the host C++ compiler against a shim that defines the CUDA builtins, and each
// block runs its threads as std::threads meeting at a std::barrier for __syncthreads() (shared
// arrays become function statics: one per block, as blocks run one after another).
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <dlfcn.h>
#include <fstream>
#include <functional>
#include <string>
#include <unistd.h>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace tunefarm::codegen::cuda {

constexpr const char* kEmulationShim = R"(
#include <barrier>
#include <cmath>
#include <cstring>
#include <thread>
#include <vector>
struct tf_uint3 { unsigned x, y, z; };
thread_local tf_uint3 threadIdx, blockIdx;
static std::barrier<>* tf_block_barrier;
#define __global__
#define __device__
#define __forceinline__ inline
#define __restrict__ __restrict
#define __shared__ static
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
inline void __syncthreads() { tf_block_barrier->arrive_and_wait(); }
inline float __int_as_float(unsigned v) { float f; std::memcpy(&f, &v, 4); return f; }
inline double __longlong_as_double(unsigned long long v) { double d; std::memcpy(&d, &v, 8); return d; }
struct alignas(8) float2 { float x, y; };
struct alignas(16) float4 { float x, y, z, w; };
struct alignas(8) int2 { int x, y; };
struct alignas(16) int4 { int x, y, z, w; };
inline float2 make_float2(float x, float y) { return {x, y}; }
inline float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
inline int2 make_int2(int x, int y) { return {x, y}; }
inline int4 make_int4(int x, int y, int z, int w) { return {x, y, z, w}; }
)";

constexpr const char* kEmulationLauncher = R"(
extern "C" void tf_emu_launch(const unsigned* grid, const unsigned* block, void (*body)(void*),
                              void* ctx) {
  const unsigned threads = block[0] * block[1] * block[2];
  for (unsigned bz = 0; bz < grid[2]; ++bz)
    for (unsigned by = 0; by < grid[1]; ++by)
      for (unsigned bx = 0; bx < grid[0]; ++bx) {
        std::barrier<> barrier(threads);
        tf_block_barrier = &barrier;
        std::vector<std::thread> pool;
        for (unsigned t = 0; t < threads; ++t) {
          pool.emplace_back([=] {
            blockIdx = {bx, by, bz};
            threadIdx = {t % block[0], (t / block[0]) % block[1], t / (block[0] * block[1])};
            body(ctx);
          });
        }
        for (std::thread& th : pool) th.join();
      }
}
)";

// A compiled emulation of one generated translation unit; the library stays loaded.
class EmulatedModule {
 public:
  // `extra` is appended after the kernels (typed call trampolines).
  static absl::StatusOr<EmulatedModule> Compile(const std::string& cuda_source,
                                                const std::string& extra = "") {
    char dir[] = "/tmp/tunefarm-cuda-emu-XXXXXX";
    if (mkdtemp(dir) == nullptr) return absl::InternalError("mkdtemp");
    const std::string src = std::string(dir) + "/kernels.cc";
    const std::string lib = std::string(dir) + "/kernels.so";
    {
      std::ofstream out(src);
      out << kEmulationShim << cuda_source << kEmulationLauncher << extra;
    }
    const std::string cmd = absl::StrCat("c++ -std=c++20 -O1 -w -shared -fPIC -pthread ", src,
                                         " -o ", lib, " > ", dir, "/log 2>&1");
    if (std::system(cmd.c_str()) != 0) {
      std::ifstream log(std::string(dir) + "/log");
      std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
      return absl::InternalError("host compile of the generated CUDA failed:\n" + text);
    }
    void* handle = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
    std::remove(src.c_str());
    std::remove(lib.c_str());
    std::remove((std::string(dir) + "/log").c_str());
    rmdir(dir);
    if (handle == nullptr) return absl::InternalError(dlerror());
    return EmulatedModule(handle);
  }

  template <typename Fn>
  Fn* Kernel(const std::string& name) const {
    return reinterpret_cast<Fn*>(dlsym(handle_, name.c_str()));
  }

  // Runs `call` (which calls a kernel) once per thread of the launch.
  void Launch(std::array<unsigned, 3> grid, std::array<unsigned, 3> block,
              const std::function<void()>& call) const {
    using LaunchFn = void(const unsigned*, const unsigned*, void (*)(void*), void*);
    auto* launch = reinterpret_cast<LaunchFn*>(dlsym(handle_, "tf_emu_launch"));
    std::function<void()> body = call;
    launch(
        grid.data(), block.data(), [](void* ctx) { (*static_cast<std::function<void()>*>(ctx))(); },
        &body);
  }

 private:
  explicit EmulatedModule(void* handle) : handle_(handle) {}
  void* handle_;
};

}  // namespace tunefarm::codegen::cuda
