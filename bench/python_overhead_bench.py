#!/usr/bin/python3
"""What Python adds to running a model: `module.run(input=array)` (ctypes, the input copied in and
the output out) against `tunefarm model run --time` on the same module, ResNet-18 at batch 1.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_overhead_bench.py [--threads 1] [--rounds 5]

Both are timed in alternating rounds in this one run, and the ratio printed is the median of the
rounds' python/CLI ratios (target: at most 1.02). ResNet-18 is exported with PyTorch
(scripts/export-models.py) and built here the first time, into BENCH_DIR (default
/tmp/tunefarm-python-bench).
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time

import numpy as np

import tunefarm

SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cli_median_ms(module, image, threads):
    done = subprocess.run([tunefarm._build_paths.TUNEFARM_BINARY, "model", "run", module,
                           "--input", "input=" + image, "--time", "--threads", str(threads)],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=True)
    return float(re.search(r"^median_ms=([0-9.]+)$", done.stdout, re.M).group(1))


def python_median_ms(module, x, calls):
    module.run(input=x)  # warm
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        module.run(input=x)
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=20, help="Python runs per round")
    parser.add_argument("--pairs", type=int, default=200, help="in-process Python/C pairs")
    args = parser.parse_args()
    work = os.environ.get("BENCH_DIR", "/tmp/tunefarm-python-bench")
    os.makedirs(work, exist_ok=True)
    onnx = os.path.join(work, "resnet18.onnx")
    if not os.path.exists(onnx):
        subprocess.run([sys.executable, os.path.join(SOURCE, "scripts", "export-models.py"), work,
                        "resnet18"], check=True)
    module_path = os.path.join(work, "resnet18.so")
    if not os.path.exists(module_path):
        tunefarm.build_model(onnx, module_path, input_shapes={"input": (1, 3, 224, 224)})
    image = os.path.join(work, "resnet18.input.npy")
    x = np.load(image)
    tunefarm.runtime.set_num_threads(args.threads)
    ratios, cli, py = [], [], []
    with tunefarm.runtime.load_module(module_path) as module:
        for r in range(args.rounds):
            order = [("cli", lambda: cli_median_ms(module_path, image, args.threads)),
                     ("python", lambda: python_median_ms(module, x, args.calls))]
            if r % 2:
                order.reverse()
            got = {name: measure() for name, measure in order}
            cli.append(got["cli"])
            py.append(got["python"])
            ratios.append(got["python"] / got["cli"])
            print("round %d: cli %.3f ms, python %.3f ms, python/cli %.4f" %
                  (r + 1, got["cli"], got["python"], ratios[-1]), flush=True)
    print("resnet18 batch 1, %d thread(s): cli median %.3f ms, python median %.3f ms, "
          "python/cli %.4f (median of %d rounds; target <= 1.02)" %
          (args.threads, statistics.median(cli), statistics.median(py),
           statistics.median(ratios), args.rounds))
    # On a shared VM whole rounds fall into slow phases; the fastest of each side compares them
    # in the machine's fast phase.
    print("fastest rounds: cli %.3f ms, python %.3f ms, python/cli %.4f" %
          (min(cli), min(py), min(py) / min(cli)))
    # The same comparison without the machine's phases in it: in this one process, a run from
    # Python (ctypes, input copied in, output out) and a run timed inside the C ABI, pair by pair.
    with tunefarm.runtime.load_module(module_path) as module:
        module.set_input("input", x)
        pairs = []
        for i in range(args.pairs):
            start = time.perf_counter()
            module.run(input=x)
            python_s = time.perf_counter() - start
            native_s = module.time(repeats=1, min_repeat_ms=0)[0]
            pairs.append(python_s / native_s)
    print("in-process pairs: python run / C ABI run, median %.4f over %d pairs (target <= 1.02)" %
          (statistics.median(pairs), len(pairs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
