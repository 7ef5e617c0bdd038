#!/usr/bin/python3
"""Build a small PyTorch CNN into a module and run it from Python on numpy arrays.

    PYTHONPATH=build/python /usr/bin/python3 examples/model_session.py [WORK_DIR]
"""

import os
import sys

import numpy as np
import torch

import tunefarm


class SmallCnn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 16, 3, padding=1)
        self.pool = torch.nn.AdaptiveAvgPool2d(1)
        self.fc = torch.nn.Linear(16, 10)

    def forward(self, x):
        return self.fc(self.pool(torch.relu(self.conv(x))).flatten(1))


def main(work_dir):
    torch.manual_seed(0)
    model = SmallCnn().eval()
    image = torch.randn(1, 3, 32, 32)
    onnx = os.path.join(work_dir, "small_cnn.onnx")
    torch.onnx.export(model, image, onnx, opset_version=13, input_names=["image"],
                      output_names=["logits"], dynamic_axes={"image": {0: "batch"}})
    # The batch dimension is named in the file: the build is given the one to compile for.
    module_path = tunefarm.build_model(onnx, os.path.join(work_dir, "small_cnn.so"),
                                       input_shapes={"image": (1, 3, 32, 32)})
    with tunefarm.runtime.load_module(module_path) as module:
        print("inputs %s, outputs %s" % (module.inputs, module.outputs))
        (logits,) = module.run(image=image.numpy())
        with torch.no_grad():
            expected = model(image).numpy()
        print("max abs difference from PyTorch: %.2e" % np.abs(logits - expected).max())
        seconds = module.time(repeats=5, min_repeat_ms=20)
        print("median %.3f ms per run" % (sorted(seconds)[len(seconds) // 2] * 1e3))
    return 0 if np.allclose(logits, expected, rtol=1e-4, atol=1e-5) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
