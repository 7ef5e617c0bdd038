// A farm's model job's last step as a C ABI (in libtunefarm.so beside the driver's): what
// `tunefarm model tune --tracker ... -o` does once the job has succeeded, for a job submitted and
// followed elsewhere (Python's farm.tune_model). Errors as in driver/c_api/model_build_c_api.h.
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// For the succeeded model job `job_id` of the tracker at `tracker` (`token_file` and
// `tls_root_cert`: NULL or "" when the farm has none), tuned from `onnx` read with
// `input_shapes` ("name=1,3,224,224;..."): the farm's best records fetched, each conv's close
// rival algorithms raced in the model on a worker of the job's key (`race` nonzero, for at most
// `race_seconds`), the module built into `output`, the tuned and the untuned build timed in turns
// on a worker (at `threads`, 0: its default) and that latency stored with the model job.
// `*json` gets {"state", "output", "race_challenges", "race_changed", "tuned_seconds",
// "untuned_seconds", "ratio", "low", "high", "rounds", "speedup", "measured_by", "notes"} (the
// timing fields only where a worker timed it), to be released with TFFreeString.
int32_t TFFinishModelJob(const char* tracker, const char* token_file, const char* tls_root_cert,
                         const char* job_id, const char* onnx, const char* input_shapes,
                         const char* output, int32_t race, double race_seconds, int32_t threads,
                         char** json, char* error, size_t error_size);

#ifdef __cplusplus
}  // extern "C"
#endif
