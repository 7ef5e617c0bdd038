#!/usr/bin/python3
"""Tune a kernel through a farm from Python and read back its best record.

    PYTHONPATH=build/python /usr/bin/python3 examples/farm_session.py HOST:PORT DEVICE_KEY
"""

import sys

import tunefarm


def main(address, key):
    with tunefarm.connect(address) as farm:
        print("workers of %s: %s" % (key, [w.worker_id for w in farm.workers(key=key)]))
        job = farm.tune(workload="matmul:256,256,256", key=key, trials=16)
        for progress in job.watch(timeout=600):
            print("%s %2d/%d trials, best %.4f ms" % (progress.state, progress.trials_done,
                                                      progress.trials,
                                                      progress.best_seconds * 1e3))
        best = farm.best("matmul:256,256,256", key=key)
        print("best: %.4f ms (%.1f GFLOPS), measured by %s, config %s" %
              (best.median_seconds * 1e3, best.gflops, best.measured_by, best.config))
    return 0 if job.state == "succeeded" else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
