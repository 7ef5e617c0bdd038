#!/usr/bin/python3
"""Exports torchvision's ResNet-18, MobileNet-v2 and VGG-16 to ONNX (opset 13, batch 1, 3x224x224)
with random weights and non-trivial batch-norm statistics, for the model tests and benchmarks.

Usage: /usr/bin/python3 scripts/export-models.py OUT_DIR   (Debian's python3-torch/-torchvision)
"""
import os
import sys

import torch
import torchvision


def randomize_batch_norm(model):
    # Fresh batch norms have mean 0 and variance 1, which hides mistakes in folding them.
    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 2.0)
            m.weight.data.uniform_(0.5, 1.5)
            m.bias.data.uniform_(-0.2, 0.2)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: export-models.py OUT_DIR")
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for name in ("resnet18", "mobilenet_v2", "vgg16"):
        torch.manual_seed(0)
        model = getattr(torchvision.models, name)()
        randomize_batch_norm(model)
        model.eval()
        x = torch.randn(1, 3, 224, 224)
        path = os.path.join(out_dir, name + ".onnx")
        with torch.no_grad():
            torch.onnx.export(model, x, path, opset_version=13, input_names=["input"],
                              output_names=["output"], do_constant_folding=True)
        print(path)


if __name__ == "__main__":
    main()
