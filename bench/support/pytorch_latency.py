#!/usr/bin/python3
"""PyTorch's latency of a torchvision model at batch 1 (3x224x224), for bench/model_bench: eager
under torch.inference_mode, and torch.jit.freeze + optimize_for_inference (PyTorch's own optimized
path), both at THREADS threads. Prints `eager_ms=<median> frozen_ms=<median>`.

Usage: /usr/bin/python3 bench/support/pytorch_latency.py MODEL THREADS
"""
import statistics
import sys
import time

import torch
import torchvision


def median_ms(fn, x):
    for _ in range(3):
        fn(x)
    times = []
    deadline = time.perf_counter() + 2.0
    while len(times) < 10 or (time.perf_counter() < deadline and len(times) < 200):
        start = time.perf_counter()
        fn(x)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main():
    name, threads = sys.argv[1], int(sys.argv[2])
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)().eval()
    x = torch.randn(1, 3, 224, 224)
    with torch.inference_mode():
        eager = median_ms(model, x)
    with torch.no_grad():
        frozen_model = torch.jit.optimize_for_inference(torch.jit.freeze(torch.jit.script(model)))
        frozen = median_ms(frozen_model, x)
    print(f"eager_ms={eager:.3f} frozen_ms={frozen:.3f}")


if __name__ == "__main__":
    main()
