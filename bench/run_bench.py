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
import random
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
    # grep exits 1 when nothing matched; summarize 2 when a folder holds no throughput log (the
    # non-log text folder, whose answer that is).
    ok = proc.returncode == 0 or (proc.returncode == 1 and cmd[0] == "grep") or (
        proc.returncode == 2 and b"no throughput logs in" in proc.stderr)
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


# A folder as users have them (issue 26): logs of several frameworks under the names real runs
# give them (result_0.txt, slurm-4711.out, 09-03-2020_03-38-54.txt, none), one of a trainer no
# built-in format reads (read with a user's format file), beside scripts, configs, a README,
# images and checkpoints: ~240 MB of logs (~40 MB a shape), ~85 MB of other files. (genlogs
# --format, topologies, iterations, the marker of its lines.)
MIXED_LOGS = [
    ("ngc-mxnet", "1n8g", 13000, " Batch ["),
    ("ngc-pytorch-rn50", "1n8g", 130000, "Iteration: "),
    ("pytorch-rn50", "1n8g", 12000, "Epoch: ["),
    ("tf2-bert", "1n8g", 130000, "Train Step:"),
    ("insightface-arcface", "1n8g", 3000000, "[0] Batch"),
]
MIXED_NAMES = ["result_0.txt", "slurm-4711.out", "09-03-2020_03-38-54.txt", "train", "rank0.log",
               "resnet50_v1b.log", "log.txt"]
FRESH_FORMAT = r'''{
  "scaleview_format": 1,
  "id": "bench-fresh-trainer",
  "name": "Fresh trainer",
  "unit": "samples/s",
  "line": "\\] trainer \\| it (?P<step>\\d+)/\\d+ \\| loss [0-9.]+ \\| (?P<value>[0-9.]+)(?P<scale>[KM]?) samples/s",
  "metadata": {"batch": "batch_size=(\\d+)", "gpus": "world_size=(\\d+)"},
  "window": {"drop_first": 0.1}
}
'''
FRESH_MARKER = " samples/s"


def write_fresh_log(path, steps, seed):
    """A trainer no built-in format reads: its lines in the shape FRESH_FORMAT reads."""
    import random
    rng = random.Random(seed)
    with open(path, "w") as out:
        out.write("config: batch_size=64 world_size=8 precision=fp16 model=mynet\n")
        for i in range(1, steps + 1):
            value = 11.0 * (0.7 if i <= steps // 10 else 1.0) * (1 + rng.uniform(-0.01, 0.01))
            out.write("[2026-12-04 10:%02d:%02d.250] trainer | it %d/%d | loss %.4f | %.2fK samples/s\n"
                      % (i // 60 % 60, i % 60, i, steps, 2.0 + rng.random(), value))
            if i % 50 == 0:
                out.write("eval: accuracy %.4f after %d steps\n" % (rng.random(), i))


def generate_mixed(corpus):
    """The mixed folder (built once): its path, its files and the markers of its logs' lines."""
    import random
    import shutil
    mixed = os.path.join(corpus, "mixed")
    fmt_file = os.path.join(corpus, "bench-fresh-trainer.json")
    markers = [m for _, _, _, m in MIXED_LOGS] + [FRESH_MARKER]
    if not os.path.isdir(mixed):
        src = os.path.join(corpus, "mixed-src")
        shutil.rmtree(src, ignore_errors=True)
        os.makedirs(mixed + ".tmp", exist_ok=True)
        n = 0
        for fmt, topologies, iterations, _ in MIXED_LOGS:
            out = os.path.join(src, fmt)
            subprocess.check_call([sys.executable, os.path.join(ROOT, "tools", "genlogs.py"), out,
                                   "--format", fmt, "--topologies", topologies, "--iterations",
                                   str(iterations), "--repeats", "3", "--seed", "302"])
            for f in sorted(glob.glob(os.path.join(out, "**", "*.log"), recursive=True)):
                # experiments/<framework>_<n>/<a name real runs give>
                d = os.path.join(mixed + ".tmp", "experiments", "%s_%d" % (fmt.replace("-", "_"), n))
                os.makedirs(d, exist_ok=True)
                os.rename(f, os.path.join(d, MIXED_NAMES[n % len(MIXED_NAMES)]))
                n += 1
        shutil.rmtree(src, ignore_errors=True)
        rng = random.Random(303)
        for k in range(3):
            d = os.path.join(mixed + ".tmp", "experiments", "fresh_%d" % k)
            os.makedirs(d, exist_ok=True)
            write_fresh_log(os.path.join(d, "stdout.txt"), 150000, 304 + k)
        # What else such folders hold: code, configs, notes, images, checkpoints, event files.
        for k in range(40):
            d = os.path.join(mixed + ".tmp", "src" if k % 2 else "configs")
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "file_%d.%s" % (k, "py" if k % 2 else "yaml")), "w") as out:
                for line in range(400):
                    out.write("    value_%d = compute(batch_size=%d, lr=%.4f)  # step %d\n"
                              % (line, 64 + k, rng.random(), line))
        with open(os.path.join(mixed + ".tmp", "README.md"), "w") as out:
            out.write("# Our runs\n\nThroughput measured on 8xV100; see experiments/.\n" * 50)
        for k, (name, size) in enumerate([("checkpoints/model_final.pt", 48 << 20),
                                           ("checkpoints/model_0010.pt", 24 << 20),
                                           ("plots/loss.png", 2 << 20),
                                           ("tb/events.out.tfevents.1599100000.node1", 8 << 20)]):
            path = os.path.join(mixed + ".tmp", name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            block = random.Random(305 + k).randbytes(1 << 20)
            with open(path, "wb") as out:
                for _ in range(size >> 20):
                    out.write(block)
        os.rename(mixed + ".tmp", mixed)
    with open(fmt_file, "w") as out:
        out.write(FRESH_FORMAT)
    files = sorted(f for f in glob.glob(os.path.join(mixed, "**", "*"), recursive=True)
                   if os.path.isfile(f))
    return mixed, fmt_file, files, markers


def mixed_row(cli, corpus, repeat):
    """summarize over the mixed folder against grep -F -c of its logs' markers, side by side."""
    mixed, fmt_file, files, markers = generate_mixed(corpus)
    warm(files)
    size = sum(os.path.getsize(f) for f in files) / 1e6
    summarize = [cli, "summarize", mixed, "--format-file", fmt_file, "--quiet", "--format", "json"]
    probe = subprocess.run(summarize, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if probe.returncode not in (0, 1):
        return (len(files), size, None, None, None, None,
                probe.stderr.decode(errors="replace").strip().splitlines()[-1:])
    import json
    runs = json.loads(probe.stdout)["runs"]
    read = sum(1 for r in runs if r.get("throughput_time") is not None)
    grep = ["grep", "-F", "-c"] + [a for m in markers for a in ("-e", m)] + files
    (grep_wall, _), [(wall, ratio, rss)] = side_by_side(grep, [summarize], repeat)
    return (len(files), size, grep_wall, wall, ratio, rss, "%d of %d logs read" % (read, len(runs)))


def generate_text(corpus, megabytes):
    """A folder of non-log text (built once): prose with numbers, paths and a few rate words,
    in 16 MB files, as a documentation or data folder holds; no line is a training report."""
    text = os.path.join(corpus, "nonlog-text-%dmb" % megabytes)
    if not os.path.isdir(text):
        rng = random.Random(35)
        words = ("the of and to in is was for on that with as by at from it an be this are "
                 "which or model batch samples throughput step epoch data node gpu loss "
                 "validation training result table figure see section").split()
        os.makedirs(text + ".tmp", exist_ok=True)
        for k in range(max(1, megabytes // 16)):
            with open(os.path.join(text + ".tmp", "notes_%03d.txt" % k), "w") as out:
                written = 0
                while written < 16 * 1000 * 1000:
                    n = rng.randint(6, 18)
                    line = " ".join(rng.choice(words) for _ in range(n))
                    line += " %d.%02d /srv/data/%d\n" % (rng.randint(0, 9999), rng.randint(0, 99),
                                                      rng.randint(0, 999))
                    out.write(line)
                    written += len(line)
        os.rename(text + ".tmp", text)
    files = sorted(glob.glob(os.path.join(text, "*.txt")))
    return text, files


def text_row(cli, corpus, repeat, megabytes):
    """summarize over a folder of non-log text against grep -c samples, side by side."""
    text, files = generate_text(corpus, megabytes)
    warm(files)
    size = sum(os.path.getsize(f) for f in files) / 1e6
    summarize = [cli, "summarize", text, "--quiet", "--format", "json"]
    grep = ["grep", "-c", "samples"] + files
    (grep_wall, _), [(wall, ratio, rss)] = side_by_side(grep, [summarize], repeat)
    return len(files), size, grep_wall, wall, ratio, rss


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--micro", help="the Google Benchmark binary, run too when given")
    ap.add_argument("--corpus", default=os.path.join(HERE, "corpus"))
    ap.add_argument("--dlperf-script", help="DLPerf's extract_mxnet_logs.py, to time it as well")
    ap.add_argument("--repeat", type=int, default=7, help="rounds of every contender beside grep")
    ap.add_argument("--formats-only", action="store_true", help="only the other formats' corpora")
    ap.add_argument("--mixed-only", action="store_true",
                    help="only the mixed folder of real-world names and other files")
    ap.add_argument("--text-only", action="store_true",
                    help="only the folder of non-log text (issue 35: the general reader's cost)")
    ap.add_argument("--text-mb", type=int, default=1024, help="size of the non-log text folder")
    args = ap.parse_args()

    if args.text_only:
        n, size, grep_wall, wall, ratio, rss = text_row(args.cli, args.corpus, args.repeat,
                                                        args.text_mb)
        print("\n| non-log text (issue 35) | files | MB | grep -c samples s | summarize s | x grep (median of rounds) | peak RSS MiB |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        print("| prose, numbers, paths | %d | %.0f | %.3f | %.3f | %.2f | %.0f |"
              % (n, size, grep_wall, wall, ratio, rss))
        return

    fmt_rows = [] if args.mixed_only else format_rows(args.cli, args.corpus, args.repeat)
    if fmt_rows:
        print("\n| corpus (format) | files | MB | grep -F -c s | summarize s | x grep (median of rounds) | peak RSS MiB |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for label, fmt, n, size, grep_wall, wall, ratio, rss in fmt_rows:
        print("| %s (`%s`) | %d | %.0f | %.3f | %.3f | %.2f | %.0f |" %
              (label, fmt, n, size, grep_wall, wall, ratio, rss))
    n, size, grep_wall, wall, ratio, rss, note = mixed_row(args.cli, args.corpus, args.repeat)
    print("\n| mixed folder (issue 26) | files | MB | grep -F -c s | summarize s | x grep (median of rounds) | peak RSS MiB | read |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    if grep_wall is None:
        print("| real-world names, 6 shapes, other files | %d | %.0f | - | not read | - | - | %s |"
              % (n, size, " ".join(note)))
    else:
        print("| real-world names, 6 shapes, other files | %d | %.0f | %.3f | %.3f | %.2f | %.0f | %s |"
              % (n, size, grep_wall, wall, ratio, rss, note))
    if args.formats_only or args.mixed_only:
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
