"""Building a model module from Python: `tunefarm model build` run as a process (the compiler is
not behind a C ABI yet), its one-line reason raised as TunefarmError."""

import os
import subprocess

from tunefarm import _build_paths
from tunefarm.errors import TunefarmError


def build_model(onnx, output, input_shapes=None, target="llvm", db=None, device_key=None,
                disable=None):
    """Builds `onnx` into the module file `output` for `target`, with each tuned task's best
    record of `device_key` in `db` when given. `input_shapes`: {"input": (1, 3, 224, 224)}."""
    if not os.path.exists(onnx):
        raise FileNotFoundError(onnx)
    if (db is None) != (device_key is None):
        raise ValueError("db= and device_key= go together")
    args = [os.environ.get("TUNEFARM_BINARY", _build_paths.TUNEFARM_BINARY), "model", "build",
            onnx, "-o", output, "--target", target]
    for name, dims in (input_shapes or {}).items():
        args += ["--input-shape", "%s=%s" % (name, ",".join(str(int(d)) for d in dims))]
    if db is not None:
        args += ["--db", db, "--device-key", device_key]
    if disable:
        args += ["--disable", ",".join(disable)]
    done = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        lines = [l for l in done.stderr.splitlines() if l.startswith("tunefarm: ")]
        raise TunefarmError(lines[-1][len("tunefarm: "):] if lines else done.stderr.strip())
    return output
