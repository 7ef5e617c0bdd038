#!/usr/bin/python3
"""Writes the seed corpus of the ONNX importer's fuzz harness (tests/fuzz/corpus/onnx_import):
small models built with onnx.helper that reach the importer's main paths (convolutions,
initializers, a Shape->Gather->Concat->Reshape chain, attributes turned inputs, a transformer
block at opset 18, a Resize head, a ConvTranspose decoder, a loss head with ArgMax and CumSum, Einsum and GatherND,
an unsupported op, a
claimed tensor larger than its data). Run with Debian's python3-onnx:

    /usr/bin/python3 tests/fuzz/make_onnx_corpus.py tests/fuzz/corpus/onnx_import
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def value(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def model(nodes, inputs, outputs, initializers=(), opset=13):
    graph = helper.make_graph(nodes, "seed", inputs, outputs, list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def conv_relu():
    w = numpy_helper.from_array(np.full((4, 3, 3, 3), 0.5, np.float32), "w")
    b = numpy_helper.from_array(np.zeros(4, np.float32), "b")
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("Relu", ["c"], ["y"]),
    ]
    return model(nodes, [value("x", [1, 3, 8, 8])], [value("y", [1, 4, 4, 4])], [w, b])


def shape_chain():
    i0 = numpy_helper.from_array(np.array(0, np.int64), "i0")
    minus1 = numpy_helper.from_array(np.array([-1], np.int64), "m1")
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Gather", ["s", "i0"], ["n"], axis=0),
        helper.make_node("Unsqueeze", ["n", "axes"], ["n1"]),
        helper.make_node("Concat", ["n1", "m1"], ["shape"], axis=0),
        helper.make_node("Reshape", ["x", "shape"], ["y"]),
    ]
    axes = numpy_helper.from_array(np.array([0], np.int64), "axes")
    return model(nodes, [value("x", [2, 3, 4])], [value("y", [2, 12])], [i0, minus1, axes])


def gemm_softmax():
    w = numpy_helper.from_array(np.ones((5, 6), np.float32), "w")
    nodes = [
        helper.make_node("Gemm", ["x", "w"], ["g"], transB=1, alpha=0.5),
        helper.make_node("Softmax", ["g"], ["y"], axis=1),
    ]
    return model(nodes, [value("x", [2, 6])], [value("y", [2, 5])], [w])


def clip_pad_opset11():
    lo = numpy_helper.from_array(np.array(0.0, np.float32), "lo")
    hi = numpy_helper.from_array(np.array(6.0, np.float32), "hi")
    pads = numpy_helper.from_array(np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64), "pads")
    nodes = [
        helper.make_node("Clip", ["x", "lo", "hi"], ["c"]),
        helper.make_node("Pad", ["c", "pads"], ["y"], mode="constant"),
    ]
    return model(nodes, [value("x", [1, 2, 3, 3])], [value("y", [1, 2, 5, 5])], [lo, hi, pads],
                 opset=11)


def transformer_block():
    # LayerNorm, attention-style MatMul/Softmax, erf GELU, a reduction and an Equal -> Where ->
    # Expand shape chain: the converters of opset 17 models.
    scale = numpy_helper.from_array(np.ones(8, np.float32), "scale")
    sqrt2 = numpy_helper.from_array(np.array(1.4142135, np.float32), "sqrt2")
    shape = numpy_helper.from_array(np.array([2, 4, 8], np.int64), "shape")
    minus1 = numpy_helper.from_array(np.array([-1, -1, -1], np.int64), "minus1")
    ones = numpy_helper.from_array(np.array([1, 1, 1], np.int64), "ones")
    axes = numpy_helper.from_array(np.array([-1], np.int64), "axes")
    nodes = [
        helper.make_node("LayerNormalization", ["x", "scale"], ["n"], axis=-1, epsilon=1e-5),
        helper.make_node("Transpose", ["n"], ["t"], perm=[0, 2, 1]),
        helper.make_node("MatMul", ["n", "t"], ["s"]),
        helper.make_node("Softmax", ["s"], ["p"], axis=-1),
        helper.make_node("MatMul", ["p", "n"], ["a"]),
        helper.make_node("Div", ["a", "sqrt2"], ["d"]),
        helper.make_node("Erf", ["d"], ["e"]),
        helper.make_node("Mul", ["a", "e"], ["g"]),
        helper.make_node("Equal", ["shape", "minus1"], ["eq"]),
        helper.make_node("Where", ["eq", "ones", "shape"], ["target"]),
        helper.make_node("Expand", ["g", "target"], ["big"]),
        helper.make_node("ReduceMean", ["big", "axes"], ["y"], keepdims=1),
    ]
    return model(nodes, [value("x", [1, 4, 8])], [value("y", [2, 4, 1])],
                 [scale, sqrt2, shape, minus1, ones, axes], opset=18)


def resize_head():
    scales = numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales")
    nodes = [
        helper.make_node("Resize", ["x", "", "scales"], ["r"], mode="linear",
                         coordinate_transformation_mode="pytorch_half_pixel"),
        helper.make_node("Gather", ["r", "idx"], ["y"], axis=1),
    ]
    idx = numpy_helper.from_array(np.array([0, 2], np.int64), "idx")
    return model(nodes, [value("x", [1, 3, 4, 4])], [value("y", [1, 2, 8, 8])], [scales, idx])


def conv_transpose_decoder():
    w = numpy_helper.from_array(np.full((4, 2, 3, 3), 0.25, np.float32), "w")
    w1 = numpy_helper.from_array(np.full((4, 1, 4), 0.5, np.float32), "w1")
    shape = numpy_helper.from_array(np.array([1, 4, 1, 16], np.int64), "shape")
    nodes = [
        helper.make_node("ConvTranspose", ["x", "w"], ["u"], strides=[2, 2], pads=[1, 1, 1, 1],
                         output_padding=[1, 1], group=2, dilations=[1, 1]),
        helper.make_node("Reshape", ["u", "shape"], ["flat"]),
        helper.make_node("Squeeze", ["flat"], ["line"], axes=[2]),
        helper.make_node("ConvTranspose", ["line", "w1"], ["y"], strides=[2], group=2,
                         output_shape=[34]),
    ]
    return model(nodes, [value("x", [1, 4, 2, 2])], [value("y", [1, 2, 34])], [w, w1, shape],
                 opset=11)


def loss_head():
    labels = numpy_helper.from_array(np.array([[0, 2], [1, 3]], np.int64), "labels")
    weight = numpy_helper.from_array(np.array([1, 2, 0.5, 1], np.float32), "weight")
    axis = numpy_helper.from_array(np.array(1, np.int64), "axis")
    nodes = [
        helper.make_node("SoftmaxCrossEntropyLoss", ["x", "labels", "weight"], ["loss", "lp"],
                         reduction="mean", ignore_index=3),
        helper.make_node("NegativeLogLikelihoodLoss", ["lp", "labels"], ["nll"], reduction="none"),
        helper.make_node("ArgMax", ["lp"], ["best"], axis=1, keepdims=0, select_last_index=1),
        helper.make_node("CumSum", ["nll", "axis"], ["running"], exclusive=1, reverse=1),
    ]
    return model(nodes, [value("x", [2, 4, 2])],
                 [value("loss", []), value("running", [2, 2]),
                  helper.make_tensor_value_info("best", TensorProto.INT64, [2, 2])],
                 [labels, weight, axis])


def einsum_gather_nd():
    idx = numpy_helper.from_array(np.array([[0, 1], [1, -1]], np.int64), "idx")
    nodes = [
        helper.make_node("Einsum", ["a", "b"], ["p"], equation="...ij, ...kj"),
        helper.make_node("Einsum", ["p"], ["d"], equation="bii->bi"),
        helper.make_node("GatherND", ["d", "idx"], ["y"]),
    ]
    return model(nodes, [value("a", [2, 3, 4]), value("b", [2, 3, 4])], [value("y", [2])], [idx],
                 opset=13)


def unsupported():
    nodes = [helper.make_node("NonMaxSuppression", ["x"], ["y"], name="nms_1")]
    return model(nodes, [value("x", [1, 4])], [value("y", [1, 4])])


def oversized_claim():
    # A weight that claims 2^40 elements with 16 bytes of data.
    w = TensorProto()
    w.name = "w"
    w.data_type = TensorProto.FLOAT
    w.dims.extend([1 << 20, 1 << 20])
    w.raw_data = b"\0" * 16
    nodes = [helper.make_node("Add", ["x", "w"], ["y"])]
    return model(nodes, [value("x", [1, 4])], [value("y", [1, 4])], [w])


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    seeds = {
        "conv_relu": conv_relu(),
        "shape_chain": shape_chain(),
        "gemm_softmax": gemm_softmax(),
        "clip_pad_opset11": clip_pad_opset11(),
        "transformer_block": transformer_block(),
        "resize_head": resize_head(),
        "conv_transpose_decoder": conv_transpose_decoder(),
        "loss_head": loss_head(),
        "einsum_gather_nd": einsum_gather_nd(),
        "unsupported": unsupported(),
        "oversized_claim": oversized_claim(),
    }
    for name, m in seeds.items():
        with open(os.path.join(out, name + ".onnx"), "wb") as f:
            f.write(m.SerializeToString())
    data = seeds["conv_relu"].SerializeToString()
    with open(os.path.join(out, "truncated.onnx"), "wb") as f:
        f.write(data[: len(data) // 2])


if __name__ == "__main__":
    main()
