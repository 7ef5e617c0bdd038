// The model runtime as a C ABI: load a model module, fill its inputs from caller memory, run it,
// read its outputs, time it. What Python (ctypes) and other languages call; no C++ type or
// exception crosses it. Every call that can fail returns 0 on success, else nonzero with one
// NUL-terminated line in `error` (truncated to `error_size`; `error` may be NULL).
#pragma once

#include <dlpack/dlpack.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TFModel TFModel;

int32_t TFModelLoad(const char* path, TFModel** model, char* error, size_t error_size);
void TFModelFree(TFModel* model);

int32_t TFModelNumInputs(const TFModel* model);
int32_t TFModelNumOutputs(const TFModel* model);
// Input (output) `index`: its name, element type, rank and shape. `name` and `shape` stay valid
// while the model lives.
int32_t TFModelInputInfo(const TFModel* model, int32_t index, const char** name, DLDataType* dtype,
                         int32_t* ndim, const int64_t** shape);
int32_t TFModelOutputInfo(const TFModel* model, int32_t index, const char** name, DLDataType* dtype,
                          int32_t* ndim, const int64_t** shape);

// Copies `bytes` (the input's size exactly) from `data` into input `index`; an input keeps its
// value across runs.
int32_t TFModelSetInput(TFModel* model, int32_t index, const void* data, uint64_t bytes,
                        char* error, size_t error_size);
int32_t TFModelRun(TFModel* model, char* error, size_t error_size);
// Copies output `index` (its size exactly, `bytes`) into `data`.
int32_t TFModelGetOutput(const TFModel* model, int32_t index, void* data, uint64_t bytes,
                         char* error, size_t error_size);
// Times Run: `repeats` timings, each running the model until at least `min_repeat_ms` passed
// (once at least), after one untimed run; seconds per run of each timing into `seconds`.
int32_t TFModelTime(TFModel* model, int32_t repeats, double min_repeat_ms, double* seconds,
                    char* error, size_t error_size);

// The width of the thread pool every model of the process runs its parallel loops on (0 or less:
// the default, TUNEFARM_NUM_THREADS or the cores the process may use).
int32_t TFSetNumThreads(int32_t threads, char* error, size_t error_size);

#ifdef __cplusplus
}  // extern "C"
#endif
