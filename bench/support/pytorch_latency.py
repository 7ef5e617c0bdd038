#!/usr/bin/python3
"""PyTorch's latency of a model of scripts/export-models.py (the same random weights) at batch 1,
for bench/model_bench: eager under torch.inference_mode, and torch.jit.freeze +
optimize_for_inference (PyTorch's own optimized path; `nan` where TorchScript cannot take the
model), both at THREADS threads. Prints `eager_ms=<median> frozen_ms=<median>`.

Usage: /usr/bin/python3 bench/support/pytorch_latency.py MODEL THREADS
"""
import importlib.util
import math
import os
import statistics
import sys
import time

import torch


def exporter():
    path = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "export-models.py")
    spec = importlib.util.spec_from_file_location("export_models", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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
    export = exporter()
    model = export.build(name).eval()
    variants, _, _ = export.variants_of(name)
    x = torch.randn(*variants[0][1])
    with torch.inference_mode():
        eager = median_ms(model, x)
    frozen = math.nan
    try:
        with torch.no_grad():
            frozen_model = torch.jit.optimize_for_inference(
                torch.jit.freeze(torch.jit.script(model)))
            frozen = median_ms(frozen_model, x)
    except Exception:  # TorchScript refuses some models (lambdas, dict outputs)
        pass
    print(f"eager_ms={eager:.3f} frozen_ms={frozen:.3f}")


if __name__ == "__main__":
    main()
