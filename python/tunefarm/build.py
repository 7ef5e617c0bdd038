"""Building a model module from Python, in this process through the driver's C ABI (what
`tunefarm model build` does); its one-line reason raised as TunefarmError."""

import os

from tunefarm import _library


def build_model(onnx, output, input_shapes=None, target="llvm", db=None, device_key=None,
                disable=None):
    """Builds `onnx` into the module file `output` for `target`, with each tuned task's best
    record of `device_key` in `db` when given. `input_shapes`: {"input": (1, 3, 224, 224)};
    `disable`: graph pass names to skip."""
    if not os.path.exists(onnx):
        raise FileNotFoundError(onnx)
    if (db is None) != (device_key is None):
        raise ValueError("db= and device_key= go together")
    if db is not None and not os.path.exists(db):
        raise FileNotFoundError(db)
    _library.build_model(onnx, output, input_shapes, target, db, device_key, disable)
    return output
