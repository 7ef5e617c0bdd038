#!/usr/bin/python3
"""Exports torchvision models and a transformer encoder to ONNX with random weights and
non-trivial batch-norm statistics, for the model tests and benchmarks. The batch (and, for the
CNNs that allow it, height and width) are named dimensions: set them with
`--input-shape input=N,3,H,W`. Beside each NAME.onnx it writes references for
`tunefarm model run --expect`: NAME.input.npy / NAME.output.npy (batch 1, 224x224; the encoder:
batch 1, 128 tokens of 256), NAME.b4.*.npy (batch 4) and, for the fully convolutional CNNs,
NAME.wide.*.npy (batch 1, 160x224), PyTorch's outputs for random inputs.

Models (NAME): resnet18, mobilenet_v2, vgg16 (opset 13, the round-2 set, the default), and
vit_b_16, convnext_tiny, efficientnet_b0, shufflenet_v2_x1_0, regnet_y_400mf, resnet50,
lraspp_mobilenet_v3_large (segmentation, upsampling head: its "out" map) and
transformer_encoder (4 layers of torch.nn.TransformerEncoderLayer, d=256, 4 heads, GELU, batch
first) and conv_transpose_decoder (two strided convolutions, then three ConvTranspose2d layers:
grouped with output_padding, a 4x4 kernel, dilated with padding) at opset 17; resnet18_qdq and mobilenet_v2_qdq, torchvision's quantizable models fused
and fake-quantized (uint8 activations per tensor, int8 weights per output channel) with
torch.ao.quantization's eager QAT modules, calibrated on random images, exported as QDQ
(QuantizeLinear/DequantizeLinear) at opset 13, their per-tensor scales and zero points written
as scalars (PyTorch writes one-element vectors through Identity nodes, which ONNX Runtime's QDQ
fusions refuse); their references are the fake-quant outputs.
mlp_qdq is the same scheme on three Linear layers (1024 -> 1024 -> 1024 -> 16, ReLU between;
input `N,1024`), each reading a quantized activation.

Usage: /usr/bin/python3 scripts/export-models.py OUT_DIR [NAME...]
       (Debian's python3-torch/-torchvision)
"""
import os
import sys

import numpy
import torch
import torchvision

ROUND2 = ["resnet18", "mobilenet_v2", "vgg16"]


class SegmentationOutput(torch.nn.Module):
    """torchvision's segmentation models return a dict; ONNX wants the "out" tensor."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)["out"]


def transformer_encoder():
    # A callable activation (not the string "gelu") keeps PyTorch off its fused inference kernel,
    # which has no ONNX export; the computation is the same.
    layer = torch.nn.TransformerEncoderLayer(256, 4, 1024, dropout=0.0, batch_first=True,
                                             activation=lambda x: torch.nn.functional.gelu(x))
    return torch.nn.TransformerEncoder(layer, 4, enable_nested_tensor=False)


class ConvTransposeDecoder(torch.nn.Module):
    """Down by 4 with two strided convolutions, back up with transposed ones of every kind of
    window: grouped with output_padding, an even kernel, dilated and padded."""

    def __init__(self):
        super().__init__()
        self.down = torch.nn.Sequential(
            torch.nn.Conv2d(3, 16, 3, stride=2, padding=1), torch.nn.ReLU(),
            torch.nn.Conv2d(16, 32, 3, stride=2, padding=1), torch.nn.ReLU())
        self.up = torch.nn.Sequential(
            torch.nn.ConvTranspose2d(32, 16, 3, stride=2, padding=1, output_padding=1, groups=2),
            torch.nn.ReLU(),
            torch.nn.ConvTranspose2d(16, 8, 4, stride=2, padding=1), torch.nn.ReLU(),
            torch.nn.ConvTranspose2d(8, 4, 3, stride=1, padding=2, dilation=2, bias=False))

    def forward(self, x):
        return self.up(self.down(x))


class QuantizableMlp(torch.nn.Module):
    """Three Linear layers between a QuantStub and a DeQuantStub, so every layer's input is a
    quantized activation."""

    def __init__(self):
        super().__init__()
        self.quant = torch.ao.quantization.QuantStub()
        self.layers = torch.nn.Sequential(
            torch.nn.Linear(1024, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 1024),
            torch.nn.ReLU(), torch.nn.Linear(1024, 16))
        self.dequant = torch.ao.quantization.DeQuantStub()

    def forward(self, x):
        return self.dequant(self.layers(self.quant(x)))

    def fuse_model(self):
        torch.ao.quantization.fuse_modules(self.layers, [["0", "1"], ["2", "3"]], inplace=True)


def fake_quantized(name):
    """A quantizable model (torchvision's, or the MLP) with batch norms folded and every
    conv/linear weight and activation fake-quantized as PyTorch's fbgemm scheme would quantize
    them."""
    from torch.ao import quantization as q
    if name == "mlp":
        model = QuantizableMlp()
    else:
        model = getattr(torchvision.models.quantization, name)(weights=None, quantize=False)
    randomize_batch_norm(model)
    model.eval()
    model.fuse_model()
    activation = q.FakeQuantize.with_args(observer=q.MovingAverageMinMaxObserver, quant_min=0,
                                          quant_max=255, dtype=torch.quint8,
                                          qscheme=torch.per_tensor_affine)
    weight = q.FakeQuantize.with_args(observer=q.MovingAveragePerChannelMinMaxObserver,
                                      quant_min=-128, quant_max=127, dtype=torch.qint8,
                                      qscheme=torch.per_channel_symmetric, ch_axis=0)
    model.qconfig = q.QConfig(activation=activation, weight=weight)
    q.prepare_qat(model.train(), inplace=True)
    model.eval()
    with torch.no_grad():
        for _ in range(4):
            model(torch.randn(2, 1024) if name == "mlp" else torch.randn(2, 3, 224, 224))
    model.apply(q.disable_observer)
    return model


def build(name):
    if name.endswith("_qdq"):
        return fake_quantized(name[:-len("_qdq")])
    if name == "transformer_encoder":
        return transformer_encoder()
    if name == "conv_transpose_decoder":
        return ConvTransposeDecoder()
    if name == "lraspp_mobilenet_v3_large":
        return SegmentationOutput(torchvision.models.segmentation.lraspp_mobilenet_v3_large(
            weights=None, weights_backbone=None, num_classes=21))
    return getattr(torchvision.models, name)()


def randomize_batch_norm(model):
    # Fresh batch norms have mean 0 and variance 1, which hides mistakes in folding them.
    for m in model.modules():
        if isinstance(m, (torch.nn.BatchNorm2d, torch.nn.BatchNorm1d)):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 2.0)
            m.weight.data.uniform_(0.5, 1.5)
            m.bias.data.uniform_(-0.2, 0.2)


def randomize_zero_layers(model):
    # ViT initializes its classification head to zeros: an all-zero output would match anything.
    for m in model.modules():
        if isinstance(m, torch.nn.Linear) and not m.weight.data.any():
            torch.nn.init.normal_(m.weight, std=0.02)
            torch.nn.init.uniform_(m.bias, -0.1, 0.1)


def unfuse_attention(model):
    # In inference, nn.MultiheadAttention takes a fused kernel that ONNX cannot export unless its
    # dropout is non-zero; a dropout probability is unused in eval mode, so this changes nothing
    # that is computed.
    for m in model.modules():
        if isinstance(m, torch.nn.MultiheadAttention):
            m.dropout = 1e-12


def variants_of(name):
    """(suffix, input shape) pairs, the named input dimensions and the opset."""
    if name == "transformer_encoder":
        return [("", (1, 128, 256)), (".b4", (4, 128, 256))], {0: "batch"}, 17
    variants = [("", (1, 3, 224, 224)), (".b4", (4, 3, 224, 224))]
    # ViT's position embedding, VGG's adaptive pool and the segmentation head's pool export for
    # one image size only.
    if name in ("vit_b_16", "vgg16", "lraspp_mobilenet_v3_large"):
        return variants, {0: "batch"}, 13 if name in ROUND2 else 17
    if name == "mlp_qdq":
        return [("", (1, 1024)), (".b4", (4, 1024))], {0: "batch"}, 13
    if name.endswith("_qdq"):
        return variants, {0: "batch"}, 13
    variants.append((".wide", (1, 3, 160, 224)))
    return variants, {0: "batch", 2: "height", 3: "width"}, 13 if name in ROUND2 else 17


def scalar_quant_parameters(path):
    """Per-tensor scales and zero points of QuantizeLinear/DequantizeLinear as scalars, read
    straight from their initializers (not through Identity nodes)."""
    import onnx
    model = onnx.load(path)
    graph = model.graph
    inits = {i.name: i for i in graph.initializer}
    alias = {}
    kept = []
    for node in graph.node:
        if node.op_type == "Identity" and node.input[0] in inits:
            alias[node.output[0]] = node.input[0]
        else:
            kept.append(node)
    for node in kept:
        for k, name in enumerate(node.input):
            if name in alias:
                node.input[k] = alias[name]
        if node.op_type in ("QuantizeLinear", "DequantizeLinear"):
            for name in node.input[1:3]:
                if name in inits and list(inits[name].dims) == [1]:
                    del inits[name].dims[:]
    del graph.node[:]
    graph.node.extend(kept)
    onnx.save(model, path)


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: export-models.py OUT_DIR [NAME...]")
    out_dir = sys.argv[1]
    names = sys.argv[2:] or ROUND2
    os.makedirs(out_dir, exist_ok=True)
    for name in names:
        torch.manual_seed(0)
        model = build(name)
        randomize_batch_norm(model)
        randomize_zero_layers(model)
        unfuse_attention(model)
        model.eval()
        variants, input_axes, opset = variants_of(name)
        path = os.path.join(out_dir, name + ".onnx")
        with torch.no_grad():
            x = torch.randn(*variants[0][1])
            torch.onnx.export(model, x, path, opset_version=opset, input_names=["input"],
                              output_names=["output"], do_constant_folding=True,
                              dynamic_axes={"input": input_axes, "output": {0: "batch"}})
            if name.endswith("_qdq"):
                scalar_quant_parameters(path)
            for suffix, shape in variants:
                x = torch.randn(*shape)
                y = model(x)
                numpy.save(os.path.join(out_dir, name + suffix + ".input.npy"), x.numpy())
                numpy.save(os.path.join(out_dir, name + suffix + ".output.npy"), y.numpy())
        print(path)


if __name__ == "__main__":
    main()
