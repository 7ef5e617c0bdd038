#!/usr/bin/python3
"""Exports torchvision's ResNet-18, MobileNet-v2 and VGG-16 to ONNX (opset 13) with random weights
and non-trivial batch-norm statistics, for the model tests and benchmarks. The batch (and, but for
VGG-16, height and width) are named dimensions: set them with `--input-shape input=N,3,H,W`. Beside each NAME.onnx it writes references for
`tunefarm model run --expect`: NAME.input.npy / NAME.output.npy (batch 1, 224x224), NAME.b4.*.npy
(batch 4) and NAME.wide.*.npy (batch 1, 160x224; not for VGG-16, whose adaptive pool exports for
224x224 only), PyTorch's outputs for random inputs.

Usage: /usr/bin/python3 scripts/export-models.py OUT_DIR [NAME...]
       (Debian's python3-torch/-torchvision; NAME: resnet18, mobilenet_v2, vgg16; default all)
"""
import os
import sys

import numpy
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
    if len(sys.argv) < 2:
        sys.exit("usage: export-models.py OUT_DIR [NAME...]")
    out_dir = sys.argv[1]
    names = sys.argv[2:] or ["resnet18", "mobilenet_v2", "vgg16"]
    os.makedirs(out_dir, exist_ok=True)
    for name in names:
        torch.manual_seed(0)
        model = getattr(torchvision.models, name)()
        randomize_batch_norm(model)
        model.eval()
        x = torch.randn(1, 3, 224, 224)
        variants = [("", (1, 3, 224, 224)), (".b4", (4, 3, 224, 224))]
        input_axes = {0: "batch"}
        # VGG's adaptive average pool exports only for a fixed image size.
        if name != "vgg16":
            variants.append((".wide", (1, 3, 160, 224)))
            input_axes.update({2: "height", 3: "width"})
        path = os.path.join(out_dir, name + ".onnx")
        with torch.no_grad():
            torch.onnx.export(model, x, path, opset_version=13, input_names=["input"],
                              output_names=["output"], do_constant_folding=True,
                              dynamic_axes={"input": input_axes, "output": {0: "batch"}})
            for suffix, shape in variants:
                x = torch.randn(*shape)
                y = model(x)
                numpy.save(os.path.join(out_dir, name + suffix + ".input.npy"), x.numpy())
                numpy.save(os.path.join(out_dir, name + suffix + ".output.npy"), y.numpy())
        print(path)


if __name__ == "__main__":
    main()
