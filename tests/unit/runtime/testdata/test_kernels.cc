// Hand-written kernels in a library shaped like the code generator's output (c_abi.h), so that the
// loader and modules are tested on a real dlopen(). CMake builds one library per variant macro:
// GOOD, or broken on purpose as MISSING_KERNEL, BAD_MANIFEST or NO_LAUNCH.
#include <cstdint>

#include "runtime/core/c_abi.h"

extern "C" {

#ifndef TF_TEST_KERNELS_NO_LAUNCH
TFParallelLaunchFunc __tf_parallel_launch = nullptr;
#endif

// `extern`: a const array at namespace scope would otherwise have internal linkage, even in an
// extern "C" block, and dlsym() would not find it.
#if defined(TF_TEST_KERNELS_BAD_MANIFEST)
extern const char __tf_manifest[] = "tunefarm-manifest 2\n";
#else
extern const char __tf_manifest[] =
    "tunefarm-manifest 1\n"
    "function tf_test_add_one 3\n"
    "arg tensor A float32 [n]\n"
    "arg tensor B float32 [n]\n"
    "arg int n int64\n"
    "function tf_test_fail 1\n"
    "arg int code int32\n"
#if defined(TF_TEST_KERNELS_MISSING_KERNEL)
    "function tf_test_absent 0\n"
#endif
    ;
#endif

}  // extern "C"

#ifndef TF_TEST_KERNELS_NO_LAUNCH
namespace {

struct AddOneClosure {
  const float* a;
  float* b;
  int64_t n;
};

// Each task takes its own contiguous chunk, as outlined parallel loops do.
int32_t AddOneTask(int32_t task, int32_t num_tasks, void* closure) {
  auto* c = static_cast<AddOneClosure*>(closure);
  int64_t chunk = (c->n + num_tasks - 1) / num_tasks;
  int64_t end = (task + 1) * chunk < c->n ? (task + 1) * chunk : c->n;
  for (int64_t i = task * chunk; i < end; ++i) c->b[i] = c->a[i] + 1.0f;
  return 0;
}

}  // namespace
#endif

extern "C" {

// B[i] = A[i] + 1 over the thread pool; returns 99 when the loader never set the launch pointer.
int32_t tf_test_add_one(const TFValue* args, const int32_t* /*type_codes*/, int32_t /*num_args*/) {
#ifdef TF_TEST_KERNELS_NO_LAUNCH
  (void)args;
  return 99;
#else
  if (__tf_parallel_launch == nullptr) return 99;
  const auto* a = static_cast<const DLTensor*>(args[0].v_handle);
  auto* b = static_cast<DLTensor*>(args[1].v_handle);
  AddOneClosure closure{static_cast<const float*>(a->data), static_cast<float*>(b->data),
                        args[2].v_int64};
  return __tf_parallel_launch(&AddOneTask, &closure, 0);
#endif
}

// Returns its argument: a kernel that fails on request.
int32_t tf_test_fail(const TFValue* args, const int32_t* /*type_codes*/, int32_t /*num_args*/) {
  return static_cast<int32_t>(args[0].v_int64);
}

}  // extern "C"
