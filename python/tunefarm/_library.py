"""The library's C ABI (libtunefarm.so: driver/c_api/model_build_c_api.h and
client/c_api/model_job_c_api.h) through ctypes: building a model, listing its tuning tasks and a
farm's model job's last step, in this process."""

import ctypes
import json
import os

from tunefarm import _build_paths
from tunefarm.errors import TunefarmError

_ERROR_BYTES = 1024
_LIB = None


def _lib():
    global _LIB
    if _LIB is None:
        path = os.environ.get("TUNEFARM_LIBRARY", _build_paths.LIBRARY)
        lib = ctypes.CDLL(path)
        text, err, size, i32 = ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int32
        lib.TFBuildModel.argtypes = [text, text, text, text, text, text, text, err, size]
        lib.TFBuildModel.restype = i32
        lib.TFModelTuningTasks.argtypes = [text, text, text, i32, i32, i32,
                                           ctypes.POINTER(ctypes.c_void_p), err, size]
        lib.TFModelTuningTasks.restype = i32
        lib.TFFinishModelJob.argtypes = [text, text, text, text, text, text, text, i32,
                                         ctypes.c_double, i32, ctypes.POINTER(ctypes.c_void_p),
                                         err, size]
        lib.TFFinishModelJob.restype = i32
        lib.TFFreeString.argtypes = [ctypes.c_void_p]
        lib.TFFreeString.restype = None
        _LIB = lib
    return _LIB


def _text(value):
    return None if value is None else os.fsencode(value)


def shapes_text(input_shapes):
    """{"input": (1, 3, 224, 224)} as the C ABI's "input=1,3,224,224" list."""
    entries = []
    for name, dims in (input_shapes or {}).items():
        dims = [int(d) for d in dims]
        if not dims or any(d <= 0 for d in dims):
            raise ValueError("input shape of %r must be positive extents, got %r" % (name, dims))
        entries.append("%s=%s" % (name, ",".join(str(d) for d in dims)))
    return ";".join(entries)


def build_model(onnx, output, input_shapes, target, db, device_key, disable):
    error = ctypes.create_string_buffer(_ERROR_BYTES)
    code = _lib().TFBuildModel(_text(onnx), _text(shapes_text(input_shapes)), _text(target),
                               _text(db), _text(device_key), _text(",".join(disable or [])),
                               _text(output), error, _ERROR_BYTES)
    if code != 0:
        raise TunefarmError(error.value.decode("utf-8", "replace"))


def _json_result(call):
    """Runs `call(result, error)` and returns the JSON the library wrote into `result`."""
    error = ctypes.create_string_buffer(_ERROR_BYTES)
    result = ctypes.c_void_p()
    if call(ctypes.byref(result), error) != 0:
        raise TunefarmError(error.value.decode("utf-8", "replace"))
    try:
        return json.loads(ctypes.string_at(result.value).decode("utf-8"))
    finally:
        _lib().TFFreeString(result)


def finish_model_job(tracker, token_file, tls_root_cert, job_id, onnx, input_shapes, output, race,
                     race_seconds, threads):
    """The model job's last step (client/c_api/model_job_c_api.h): a dict of what it did."""
    return _json_result(lambda result, error: _lib().TFFinishModelJob(
        _text(tracker), _text(token_file), _text(tls_root_cert), _text(job_id), _text(onnx),
        _text(shapes_text(input_shapes)), _text(output), 1 if race else 0, float(race_seconds),
        int(threads), result, error, _ERROR_BYTES))


def model_tuning_tasks(onnx, input_shapes, target, trials, batch_size, layouts):
    """{"tasks": [{"workload_key", "weight", "layer"}], "layout_choice": str, "layouts_line": str}"""
    layouts_code = {None: -1, False: 0, True: 1}[layouts]
    return _json_result(lambda result, error: _lib().TFModelTuningTasks(
        _text(onnx), _text(shapes_text(input_shapes)), _text(target), int(trials),
        int(batch_size), layouts_code, result, error, _ERROR_BYTES))
