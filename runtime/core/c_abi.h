// The binary interface between generated kernels and the runtime: how a kernel is called, how
// its parallel loops reach the thread pool, and which symbols every generated module defines.
// Plain C so that kernels built by any code generator (and any language) can follow it.
#pragma once

#include <dlpack/dlpack.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// One argument of a kernel call. Which member is live is given by the matching type code.
typedef union TFValue {
  int64_t v_int64;
  double v_float64;
  void* v_handle;
} TFValue;

// Type codes of kernel arguments; the scalar codes equal DLPack's DLDataTypeCode values.
typedef enum TFArgTypeCode {
  kTFArgInt = 0,     // v_int64
  kTFArgUInt = 1,    // v_int64, reinterpreted
  kTFArgFloat = 2,   // v_float64
  kTFArgHandle = 3,  // v_handle: an opaque pointer
  kTFArgTensor = 7,  // v_handle: a DLTensor*
} TFArgTypeCode;

// Every generated kernel has this type. The runtime has already checked the arguments against the
// kernel's signature (function_signature.h), so kernels trust them. Returns 0 on success.
typedef int32_t (*TFKernelFunc)(const TFValue* args, const int32_t* type_codes, int32_t num_args);

// A parallel loop body outlined by a code generator. Task `task_id` of `num_tasks` runs its own
// static chunk of the iteration space; `closure` carries the captured variables.
typedef int32_t (*TFParallelLambda)(int32_t task_id, int32_t num_tasks, void* closure);

// Runs `lambda` once for every task id in [0, num_tasks) and waits for all of them. `num_tasks` 0
// means the pool's width. A launch from inside a task runs its tasks serially on that thread.
// Returns 0, or the first nonzero value a task returned.
typedef int32_t (*TFParallelLaunchFunc)(TFParallelLambda lambda, void* closure, int32_t num_tasks);

// The runtime's implementation of TFParallelLaunchFunc (thread_pool.h).
int32_t TFBackendParallelLaunch(TFParallelLambda lambda, void* closure, int32_t num_tasks);

// A kernel's scratch buffers too large for its stack (a Winograd conv's transformed tiles): the
// same contract as aligned_alloc and free, so that a module whose pointers were never set falls
// back on them. The runtime's pool keeps freed buffers for the thread's next call instead of
// returning their pages to the OS (workspace_pool.h).
typedef void* (*TFWorkspaceAllocFunc)(uint64_t alignment, uint64_t bytes);
typedef void (*TFWorkspaceFreeFunc)(void* p);
void* TFBackendWorkspaceAlloc(uint64_t alignment, uint64_t bytes);
void TFBackendWorkspaceFree(void* p);

// Symbols every generated module defines, so the runtime can use it without the module having to
// resolve runtime symbols itself (works the same in the JIT, in a dlopen()ed library, and on a
// device whose runtime was linked statically):
//   TF_PARALLEL_LAUNCH_SYMBOL: a global `TFParallelLaunchFunc` variable the loader sets to
//                              TFBackendParallelLaunch before any kernel runs.
//   TF_WORKSPACE_ALLOC_SYMBOL, TF_WORKSPACE_FREE_SYMBOL: global `TFWorkspaceAllocFunc` and
//                              `TFWorkspaceFreeFunc` variables the loader sets to the runtime's
//                              pool (null, as in modules built before them: aligned_alloc, free).
//   TF_MANIFEST_SYMBOL:        a NUL-terminated `const char[]` holding the module's manifest
//                              (function_signature.h: SerializeManifest) naming its kernels.
// A kernel itself is an exported function of type TFKernelFunc named as in the manifest.
#define TF_PARALLEL_LAUNCH_SYMBOL "__tf_parallel_launch"
#define TF_WORKSPACE_ALLOC_SYMBOL "__tf_workspace_alloc"
#define TF_WORKSPACE_FREE_SYMBOL "__tf_workspace_free"
#define TF_MANIFEST_SYMBOL "__tf_manifest"

// Symbols a model module (a whole model built into one library, run by runtime/graph) defines
// besides its kernels:
//   TF_GRAPH_SYMBOL:       a NUL-terminated `const char[]`: the executable graph in the text form
//                          of runtime/graph/graph_format.h (tensors, then kernel calls in order).
//   TF_PARAMS_SYMBOL:      the weights as one byte blob (`const unsigned char[]`, aligned to 64
//                          bytes so the executor binds them in place); graph tensors name ranges.
//   TF_PARAMS_SIZE_SYMBOL: a `const uint64_t` holding the blob's size in bytes.
#define TF_GRAPH_SYMBOL "__tf_graph"
#define TF_PARAMS_SYMBOL "__tf_params"
#define TF_PARAMS_SIZE_SYMBOL "__tf_params_size"
// A model module built for a GPU holds no host kernels; its kernels are one GPU module:
//   TF_GPU_MODULE_SYMBOL: a NUL-terminated `const char[]`, runtime/gpu's SerializeGpuModule text
//                         (the PTX or OpenCL C, and per graph kernel its signature and launches).
// The symbol keeps the name it had when CUDA was the only GPU, so older files still load.
#define TF_GPU_MODULE_SYMBOL "__tf_cuda_module"

#ifdef __cplusplus
}  // extern "C"
#endif
