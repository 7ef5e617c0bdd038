#!/usr/bin/env python3
"""Times the vendor libraries on the workloads tunefarm tunes for the GPU, in float32: cuDNN
for conv2d (NCHW, OIHW) and cuBLAS for matmul, both through PyTorch (the GPU machines have it;
cuDNN is not part of the CUDA toolkit itself). TF32 tensor cores are off by default, so the
numbers compare like with like; --tf32 prints the TF32 figures as well.

Usage: vendor_reference.py conv2d N,C,H,W,O,KH,KW,stride,pad
       vendor_reference.py matmul M,N,K
Prints one line per mode: `vendor=cudnn mode=fp32 median_ms=... gflops=...`.
"""
import argparse
import sys

import torch


def median_ms(fn, repeat=20, number=10):
    fn()
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(repeat):
        start.record()
        for _ in range(number):
            fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / number)
    times.sort()
    return times[len(times) // 2]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("op", choices=["conv2d", "matmul"])
    p.add_argument("shape")
    p.add_argument("--tf32", action="store_true")
    a = p.parse_args()
    dims = [int(x) for x in a.shape.split(",")]
    dev = torch.device("cuda")
    gen = torch.Generator(device=dev).manual_seed(1)
    if a.op == "conv2d":
        n, c, h, w, o, kh, kw, stride, pad = dims
        x = torch.rand((n, c, h, w), device=dev, generator=gen) * 2 - 1
        k = torch.rand((o, c, kh, kw), device=dev, generator=gen) * 2 - 1
        oh = (h + 2 * pad - kh) // stride + 1
        ow = (w + 2 * pad - kw) // stride + 1
        flops = 2.0 * n * o * oh * ow * c * kh * kw
        fn = lambda: torch.nn.functional.conv2d(x, k, stride=stride, padding=pad)
        vendor = "cudnn-" + str(torch.backends.cudnn.version())
        torch.backends.cudnn.benchmark = True  # cuDNN picks its fastest algorithm, as we tune
    else:
        m, nn_, kk = dims
        x = torch.rand((m, kk), device=dev, generator=gen) * 2 - 1
        y = torch.rand((kk, nn_), device=dev, generator=gen) * 2 - 1
        flops = 2.0 * m * nn_ * kk
        fn = lambda: torch.matmul(x, y)
        vendor = "cublas"
    modes = [("fp32", False)] + ([("tf32", True)] if a.tf32 else [])
    for mode, tf32 in modes:
        torch.backends.cudnn.allow_tf32 = tf32
        torch.backends.cuda.matmul.allow_tf32 = tf32
        ms = median_ms(fn)
        print(f"vendor={vendor} mode={mode} median_ms={ms:.4f} gflops={flops / ms / 1e6:.1f}")
    print(f"device={torch.cuda.get_device_name()} torch={torch.__version__}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
