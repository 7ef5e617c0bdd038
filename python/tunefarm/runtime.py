"""Model modules from Python: load one (`tunefarm model build`'s output), run it on numpy arrays,
time it. Through the model runtime's C ABI (runtime/graph/model_c_api.h) with ctypes; the arrays
are copied in and out once, nothing else crosses."""

import ctypes
import os

import numpy as np

from tunefarm import _build_paths
from tunefarm.errors import TunefarmError

_ERROR_BYTES = 1024
_DL_CODES = {0: "int", 1: "uint", 2: "float"}


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


def _library():
    path = os.environ.get("TUNEFARM_GRAPH_RUNTIME", _build_paths.GRAPH_RUNTIME_LIBRARY)
    lib = ctypes.CDLL(path)
    handle, err, size = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t
    i32, shape_p = ctypes.c_int32, ctypes.POINTER(ctypes.c_int64)
    info = [handle, i32, ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(_DLDataType),
            ctypes.POINTER(i32), ctypes.POINTER(shape_p)]
    for name, args in {
            "TFModelLoad": [ctypes.c_char_p, ctypes.POINTER(handle), err, size],
            "TFModelNumInputs": [handle], "TFModelNumOutputs": [handle],
            "TFModelInputInfo": info, "TFModelOutputInfo": info,
            "TFModelSetInput": [handle, i32, ctypes.c_void_p, ctypes.c_uint64, err, size],
            "TFModelRun": [handle, err, size],
            "TFModelGetOutput": [handle, i32, ctypes.c_void_p, ctypes.c_uint64, err, size],
            "TFModelTime": [handle, i32, ctypes.c_double, ctypes.POINTER(ctypes.c_double), err,
                            size],
            "TFSetNumThreads": [i32, err, size]}.items():
        getattr(lib, name).argtypes = args
        getattr(lib, name).restype = i32
    lib.TFModelFree.argtypes = [handle]
    lib.TFModelFree.restype = None
    return lib


_LIB = None


def _lib():
    global _LIB
    if _LIB is None:
        _LIB = _library()
    return _LIB


def _check(code, error):
    if code != 0:
        raise TunefarmError(error.value.decode("utf-8", "replace"))


class TensorInfo:
    def __init__(self, name, dtype, shape):
        self.name, self.dtype, self.shape = name, dtype, shape

    def __repr__(self):
        return "%s: %s%s" % (self.name, self.dtype, list(self.shape))


def _tensors(model, count, describe):
    tensors = []
    for i in range(count):
        name, dtype = ctypes.c_char_p(), _DLDataType()
        ndim, shape = ctypes.c_int32(), ctypes.POINTER(ctypes.c_int64)()
        describe(model, i, ctypes.byref(name), ctypes.byref(dtype), ctypes.byref(ndim),
                 ctypes.byref(shape))
        kind = _DL_CODES.get(dtype.code)
        if kind is None or dtype.lanes != 1:
            raise TunefarmError("tensor %s has an element type numpy cannot hold" % name.value)
        tensors.append(TensorInfo(name.value.decode(), np.dtype("%s%d" % (kind, dtype.bits)),
                                  tuple(shape[d] for d in range(ndim.value))))
    return tensors


class Module:
    """A loaded model module: `inputs` and `outputs` describe its tensors, `run` runs it."""

    def __init__(self, path):
        self._handle = ctypes.c_void_p()  # first: close() runs even when loading fails
        if not os.path.exists(path):
            raise FileNotFoundError(path)
        self.path = path
        error = ctypes.create_string_buffer(_ERROR_BYTES)
        _check(_lib().TFModelLoad(os.fsencode(path), ctypes.byref(self._handle), error,
                                  _ERROR_BYTES), error)
        self.inputs = _tensors(self._handle, _lib().TFModelNumInputs(self._handle),
                               _lib().TFModelInputInfo)
        self.outputs = _tensors(self._handle, _lib().TFModelNumOutputs(self._handle),
                                _lib().TFModelOutputInfo)

    def close(self):
        if self._handle:
            _lib().TFModelFree(self._handle)
            self._handle = ctypes.c_void_p()

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def set_input(self, name, array):
        """Sets input `name` from an array of exactly its dtype and shape."""
        index = next((i for i, t in enumerate(self.inputs) if t.name == name), None)
        if index is None:
            raise KeyError("the model has no input %r (inputs: %s)" %
                           (name, ", ".join(t.name for t in self.inputs)))
        info = self.inputs[index]
        array = np.asarray(array)
        if array.dtype != info.dtype or tuple(array.shape) != info.shape:
            raise ValueError("input %r must be %s%s, got %s%s" % (
                name, info.dtype, list(info.shape), array.dtype, list(array.shape)))
        array = np.ascontiguousarray(array)
        error = ctypes.create_string_buffer(_ERROR_BYTES)
        _check(_lib().TFModelSetInput(self._handle, index, array.ctypes.data, array.nbytes,
                                      error, _ERROR_BYTES), error)

    def run(self, **inputs):
        """Sets the given inputs (by name), runs the model, returns its outputs in order."""
        for name, array in inputs.items():
            self.set_input(name, array)
        error = ctypes.create_string_buffer(_ERROR_BYTES)
        _check(_lib().TFModelRun(self._handle, error, _ERROR_BYTES), error)
        return [self.get_output(i) for i in range(len(self.outputs))]

    def get_output(self, index):
        info = self.outputs[index]
        out = np.empty(info.shape, dtype=info.dtype)
        error = ctypes.create_string_buffer(_ERROR_BYTES)
        _check(_lib().TFModelGetOutput(self._handle, index, out.ctypes.data, out.nbytes, error,
                                       _ERROR_BYTES), error)
        return out

    def time(self, repeats=10, min_repeat_ms=50.0):
        """Seconds per run of each of `repeats` timings (each at least min_repeat_ms long) of the
        inputs set last; take the median."""
        seconds = (ctypes.c_double * repeats)()
        error = ctypes.create_string_buffer(_ERROR_BYTES)
        _check(_lib().TFModelTime(self._handle, repeats, min_repeat_ms, seconds, error,
                                  _ERROR_BYTES), error)
        return list(seconds)


def load_module(path):
    return Module(path)


def set_num_threads(threads):
    """The width of the pool every module of this process runs its parallel loops on."""
    error = ctypes.create_string_buffer(_ERROR_BYTES)
    _check(_lib().TFSetNumThreads(int(threads), error, _ERROR_BYTES), error)
