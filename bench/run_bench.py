#!/usr/bin/env python3
"""ScaleView's speed and memory benchmark (make bench).

Generates ~300 MB of DLPerf logs (21 runs: 1n8g, 2n8g and 4n8g at 6000 iterations, 7 repeats),
and ~300 MB more for each other kind of line (dllogger, absl, torchvision's interleaved ranks,
the three InsightFace formats),
then times, side by side on the same warm files: `grep -F -c " Epoch[0] Batch "` (the floor: one
pass that finds the speed lines), `scaleview-cli summarize` with each method, and DLPerf's Python
speed method (its own extract_mxnet_logs.py when --dlperf-script is given, and the restatement in
bench/dlperf_restated.py). grep and the ScaleView commands run in rounds (grep, then each of
them), --repeat rounds; each command's ratio is the median of its ratios to the same round's grep,
so a noisy moment weighs on both sides of a ratio. Reports those, median walls and peak RSS as
Markdown tables. Machines are noisy: read the ratios, not the seconds.
"""
import argparse
import glob
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ITERATIONS = 6000


def run_once(cmd):
    """Wall seconds and peak RSS (MiB) of one run of cmd."""
    # /usr/bin/time reports the program's own peak RSS (a Python child's would include Python's
    # pages from before exec). Output goes to a file, not /dev/null: GNU grep notices /dev/null
    # and stops at the first match.
    with tempfile.TemporaryFile() as sink, tempfile.NamedTemporaryFile("r") as usage:
        start = time.perf_counter()
        proc = subprocess.run(["/usr/bin/time", "-o", usage.name, "-f", "%M"] + cmd,
                              stdout=sink, stderr=subprocess.PIPE)
        wall = time.perf_counter() - start
        rss = int(usage.read().split()[-1]) / 1024.0
    ok = proc.returncode == 0 or (proc.returncode == 1 and cmd[0] == "grep")
    if not ok:
        sys.exit("failed (%d): %s\n%s" % (proc.returncode, " ".join(cmd), proc.stderr.decode()[-2000:]))
    return wall, rss


def measure(cmd, repeat):
    """Median wall seconds and max peak RSS (MiB) of cmd over repeat runs."""
    runs = [run_once(cmd) for _ in range(repeat)]
    return statistics.median(w for w, _ in runs), max(r for _, r in runs)


def side_by_side(reference, contenders, repeat):
    """Runs the reference and then each contender, round after round, so that a noisy moment
    hits all of a round. Returns the reference's (median wall, peak RSS) and, per contender,
    (median wall, median of its per-round ratios to the reference, peak RSS)."""
    ref_walls, ref_rss = [], 0.0
    walls = [[] for _ in contenders]
    ratios = [[] for _ in contenders]
    rss = [0.0 for _ in contenders]
    for _ in range(repeat):
        ref_wall, r = run_once(reference)
        ref_walls.append(ref_wall)
        ref_rss = max(ref_rss, r)
        for i, cmd in enumerate(contenders):
            wall, r = run_once(cmd)
            walls[i].append(wall)
            ratios[i].append(wall / ref_wall)
            rss[i] = max(rss[i], r)
    return ((statistics.median(ref_walls), ref_rss),
            [(statistics.median(walls[i]), statistics.median(ratios[i]), rss[i])
             for i in range(len(contenders))])


def generate(corpus):
    logs = os.path.join(corpus, "logs")
    if os.path.isdir(logs):
        return logs
    subprocess.check_call([sys.executable, os.path.join(ROOT, "tools", "genlogs.py"), logs,
                           "--topologies", "1n8g,2n8g,4n8g", "--iterations", str(ITERATIONS),
                           "--repeats", "7", "--seed", "300"])
    return logs


# One ~300 MB corpus per kind of line the other formats' parsers read: (name, genlogs --format,
# --model, topologies, iterations per run, the marker grep counts: the format's data lines).
FORMAT_CORPORA = [
    ("dllogger (NGC PyTorch ResNet-50, rank 0)", "ngc-pytorch-rn50", "r50", "1n1g,1n8g,2n8g",
     136000, "Iteration: "),
    ("absl (TensorFlow 2 BERT Train Step)", "tf2-bert", "bert", "1n1g,1n8g,2n8g", 136000,
     "Train Step:"),
    ("torchvision, every rank in one file (PyTorch ResNet-50)", "pytorch-rn50", "r50",
     "1n1g,1n4g,1n8g", 22000, "Epoch: "),
    # The InsightFace report's: ArcFace's iterations are batches (a Speedometer line every 20).
    ("MXNet ArcFace Speedometer, one node (InsightFace)", "insightface-arcface", "r100",
     "1n1g,1n4g,1n8g", 3400000, "[0] Batch"),
    ("MXNet Partial FC, rank 0 (InsightFace)", "insightface-partialfc", "r100", "1n1g,1n8g,2n8g",
     170000, "Total:"),
    ("OneFlow InsightFace `train: iter`", "oneflow-insightface", "r100", "1n1g,1n8g,2n8g",
     255000, "train: iter"),
]


def generate_format(corpus, fmt, model, topologies, iterations):
    logs = os.path.join(corpus, fmt)
    if not os.path.isdir(logs):
        subprocess.check_call([sys.executable, os.path.join(ROOT, "tools", "genlogs.py"), logs,
                               "--format", fmt, "--model", model, "--topologies", topologies,
                               "--iterations", str(iterations), "--repeats", "7", "--seed", "301"])
    return logs


def warm(files):
    """Reads files once so that every contender reads them from the page cache."""
    for f in files:
        with open(f, "rb") as fh:
            while fh.read(1 << 24):
                pass


def format_rows(cli, corpus, repeat):
    """Each other format's corpus: grep -F -c of its data lines, then summarize, side by side."""
    rows = []
    for label, fmt, model, topologies, iterations, marker in FORMAT_CORPORA:
        logs = generate_format(corpus, fmt, model, topologies, iterations)
        files = sorted(glob.glob(os.path.join(logs, "**", "*.log"), recursive=True))
        warm(files)
        size = sum(os.path.getsize(f) for f in files) / 1e6
        (grep_wall, _), [(wall, ratio, rss)] = side_by_side(
            ["grep", "-F", "-c", marker] + files,
            [[cli, "summarize", logs, "--quiet", "--format", "json"]], repeat)
        rows.append((label, fmt, len(files), size, grep_wall, wall, ratio, rss))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--micro", help="the Google Benchmark binary, run too when given")
    ap.add_argument("--corpus", default=os.path.join(HERE, "corpus"))
    ap.add_argument("--dlperf-script", help="DLPerf's extract_mxnet_logs.py, to time it as well")
    ap.add_argument("--repeat", type=int, default=7, help="rounds of every contender beside grep")
    ap.add_argument("--formats-only", action="store_true", help="only the other formats' corpora")
    args = ap.parse_args()

    fmt_rows = format_rows(args.cli, args.corpus, args.repeat)
    print("\n| corpus (format) | files | MB | grep -F -c s | summarize s | x grep (median of rounds) | peak RSS MiB |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for label, fmt, n, size, grep_wall, wall, ratio, rss in fmt_rows:
        print("| %s (`%s`) | %d | %.0f | %.3f | %.3f | %.2f | %.0f |" %
              (label, fmt, n, size, grep_wall, wall, ratio, rss))
    if args.formats_only:
        return

    logs = generate(args.corpus)
    files = sorted(glob.glob(os.path.join(logs, "**", "*.log"), recursive=True))
    size = sum(os.path.getsize(f) for f in files)
    subset = [f for f in files if "/1n8g/" in f]
    warm(files)

    summarize = [args.cli, "summarize", logs, "--iterations", str(ITERATIONS), "--quiet", "--format", "json"]
    rows = []  # (label, median wall, median ratio to grep, peak RSS)
    labels = ["summarize --method speed", "summarize --method time",
              "summarize --method speed --threads 1",
              "summarize --method speed, 1n8g runs only (1/7 of the bytes)"]
    with tempfile.TemporaryDirectory() as sub:
        os.makedirs(os.path.join(sub, "bz128", "1n8g"))
        for f in subset:
            os.symlink(f, os.path.join(sub, "bz128", "1n8g", os.path.basename(f)))
        contenders = [summarize + ["--method", "speed"], summarize + ["--method", "time"],
                      summarize + ["--method", "speed", "--threads", "1"],
                      [args.cli, "summarize", sub, "--iterations", str(ITERATIONS), "--quiet",
                       "--method", "speed"]]
        (grep_wall, grep_rss), results = side_by_side(
            ["grep", "-F", "-c", " Epoch[0] Batch "] + files, contenders, args.repeat)
    rows.append(("grep -F -c ' Epoch[0] Batch ' (reference)", grep_wall, 1.0, grep_rss))
    for label, (wall, ratio, rss) in zip(labels, results):
        rows.append((label, wall, ratio, rss))
    py = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
    bz = os.path.join(logs, "bz128")
    wall, rss = measure([py, os.path.join(HERE, "dlperf_restated.py"), bz, str(ITERATIONS)], 1)
    rows.append(("DLPerf speed method restated in Python (bench/dlperf_restated.py)", wall,
                 wall / grep_wall, rss))
    if args.dlperf_script:
        with tempfile.TemporaryDirectory() as out:
            wall, rss = measure([py, os.path.abspath(args.dlperf_script), "--log_dir", bz,
                                 "--train_batches", str(ITERATIONS), "--output_dir", out], 1)
        rows.append(("DLPerf extract_mxnet_logs.py", wall, wall / grep_wall, rss))

    print("\nCorpus: %d files, %.0f MB, %d speed lines each run x ranks; %d CPUs\n" %
          (len(files), size / 1e6, ITERATIONS, os.cpu_count()))
    print("| command | wall s (median) | x grep (median of rounds) | peak RSS MiB |")
    print("| --- | ---: | ---: | ---: |")
    for label, wall, ratio, rss in rows:
        print("| %s | %.3f | %.2f | %.0f |" % (label, wall, ratio, rss))
    speed = rows[1][1]
    print("\nsummarize --method speed: %.2fx grep; DLPerf Python is %.0fx slower than summarize" %
          (rows[1][2], max(r[1] for r in rows if "DLPerf" in r[0]) / speed))
    if args.micro:
        print()
        subprocess.check_call([args.micro, "--benchmark_min_time=0.5"])


if __name__ == "__main__":
    main()
