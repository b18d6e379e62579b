#!/usr/bin/env python3
"""DLPerf's speed method restated from the methodology (section 4), written for ScaleView's
benchmark as a stand-in where DLPerf's own extract_mxnet_logs.py is not at hand. It does the
same per-file work the same way: read all lines, keep those holding " Epoch[0] Batch ", take the
Speed value with a regular expression, round it, reshape into iterations x ranks with NumPy, and
average the row medians over the measured window.

  dlperf_restated.py LOG_DIR ITERATIONS [WARMUP]
"""
import glob
import json
import os
import re
import sys

import numpy as np

SPEED = re.compile(r"Speed: (\d+\.\d+) samples/sec")


def run_throughput(path, ranks, iterations, warmup):
    with open(path) as f:
        lines = f.readlines()
    speeds = [round(float(SPEED.findall(l)[0]), 2) for l in lines if " Epoch[0] Batch " in l]
    rows = np.median(np.array(speeds[: iterations * ranks]).reshape(iterations, ranks), axis=1)
    return round(np.mean(rows[warmup:iterations]), 2)


def main():
    log_dir, iterations = sys.argv[1], int(sys.argv[2])
    warmup = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    result = {}
    for path in sorted(glob.glob(os.path.join(log_dir, "*", "*.log"))):
        topo = os.path.basename(os.path.dirname(path))
        nodes, gpus = (int(x) for x in re.fullmatch(r"(\d+)n(\d+)g", topo).groups())
        result.setdefault(topo, []).append(run_throughput(path, nodes * gpus, iterations, warmup))
    print(json.dumps({t: {"median_speed": round(float(np.median(v)), 2)} for t, v in result.items()}))


if __name__ == "__main__":
    main()
