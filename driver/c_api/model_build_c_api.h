// Building a model as a C ABI (libtunefarm_driver.so): an ONNX file into a module file, with or
// without a records database, and a model's tuning tasks as JSON (what a farm's model job is
// submitted with). What Python (ctypes) and other languages call; the module then runs through
// runtime/graph/model_c_api.h. Every call that can fail returns 0 on success, else nonzero with
// one NUL-terminated line in `error` (truncated to `error_size`; `error` may be NULL); no C++ type
// or exception crosses it.
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// `input_shapes`: "name=1,3,224,224" entries separated by ';' (NULL or "": the file's shapes);
// `target`: NULL or "" for "llvm" (this CPU); `db` and `device_key`: the records to build with
// (both NULL or "": untuned); `disabled_passes`: graph pass names separated by ',' (NULL or "":
// none). Writes the module to `output`.
int32_t TFBuildModel(const char* onnx, const char* input_shapes, const char* target, const char* db,
                     const char* device_key, const char* disabled_passes, const char* output,
                     char* error, size_t error_size);

// The model's tuning tasks for `target` under a budget of `trials` in batches of `batch_size`;
// `layouts` -1 (tune the channel blocks when the budget gives each of their tasks a batch), 0
// (never) or 1 (always). `*json` gets {"tasks": [{"workload_key", "weight", "layer"}, ...],
// "layout_choice": "...", "layouts_line": "..."}, to be released with TFFreeString.
int32_t TFModelTuningTasks(const char* onnx, const char* input_shapes, const char* target,
                           int32_t trials, int32_t batch_size, int32_t layouts, char** json,
                           char* error, size_t error_size);

void TFFreeString(char* text);

#ifdef __cplusplus
}  // extern "C"
#endif
