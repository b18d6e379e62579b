#!/usr/bin/env python3
"""Generates DLPerf-layout NGC MXNet ResNet50 logs (methodology sections 2 and 3).

Each run is simulated the way the real job behaves: every iteration ends for all ranks together
(the allreduce), each rank logs its own estimate of the job's throughput from its own clock, and
lines arrive interleaved in timestamp order, with the launcher's tag prefix and the usual noise
(argument dump, NCCL and DALI lines). Deterministic for a given --seed.

  genlogs.py OUT_DIR [--topologies 1n1g,1n8g] [--repeats 3] [--iterations 120] ...

--speed 1n8g=1.1 runs that topology 10 % faster (a second campaign to compare with the first);
--format ngc-pytorch-rn50|ngc-tf-rn50 writes rank 0's dllogger lines of NGC PyTorch or NGC
TensorFlow 1 instead (DLPerf's runners tee only rank 0), at the same simulated pace; tf2-bert
writes TensorFlow 2's absl "Train Step:" lines (chief only), and pytorch-rn50 torchvision's
`Epoch: [0][k/n]` lines of every rank in one file, interleaved in 8 KiB blocks as their
unsynchronised writes land.
"""
import argparse
import datetime
import os
import random

# Per-GPU throughput (images/s) that the simulated cluster reaches, from DLPerf's FP32 table.
FP32_PER_GPU = {"1n1g": 392.24, "1n2g": 382.3, "1n4g": 379.51, "1n8g": 375.87, "2n8g": 359.91,
                "4n8g": 354.12}
PRECISION_FACTOR = {"fp32": 1.0, "fp16": 3.27, "fp16-noamp": 3.55}


def per_gpu_rate(topology, nodes, gpus, precision, batch):
    base = FP32_PER_GPU.get(topology)
    if base is None:  # other shapes: a plausible scaling loss per node and per GPU
        base = 392.24 * (0.985 ** max(0, gpus.bit_length() - 1)) * (0.96 ** max(0, nodes - 1))
    return base * PRECISION_FACTOR.get(precision, 1.0) * (batch / 128.0) ** 0.05


def stamp(seconds):
    t = datetime.datetime(2020, 9, 1, 10, 0, 0) + datetime.timedelta(seconds=seconds)
    return t.strftime("%Y-%m-%d %H:%M:%S,") + "%03d" % (t.microsecond // 1000)


def tag(style, rank):
    if style == "openmpi":
        return "[1,%d]<stderr>:" % rank
    if style == "gloo":
        return "Tue Sep  1 10:00:00 2020[%d]<stderr>:" % rank
    return ""


def write_run(path, nodes, gpus, batch, precision, iterations, rng, style, noise, truncate_at,
              clock_offset_ms, slowdown):
    ranks = nodes * gpus
    global_batch = batch * ranks
    rate = per_gpu_rate("%dn%dg" % (nodes, gpus), nodes, gpus, precision, batch) * ranks * slowdown
    step = global_batch / rate
    offsets = [((r // gpus) * clock_offset_ms) / 1000.0 for r in range(ranks)]
    out = []
    out.append("begin time: 2020-09-01 10:00:00\n")
    for r in range(ranks):
        out.append(tag(style, r) + "Namespace(arch='resnetv15', batch_size=%d, benchmark_iters=%d, "
                   "dtype='%s', kv_store='horovod', num_layers=50)\n" %
                   (global_batch, iterations, "float32" if precision == "fp32" else "float16"))
    for r in range(min(ranks, 4)):
        out.append(tag(style, r) + "node%d:%d:%d [%d] NCCL INFO Ring 00 : 0 1 2 3 4 5 6 7\n" %
                   (r // gpus + 1, 1000 + r, 1100 + r, r % gpus))
    t = 5.0
    prev = [t + offsets[r] for r in range(ranks)]
    lines = []
    for k in range(iterations):
        dt = step * (1.0 + rng.gauss(0.0, 0.01)) * (3.0 if k < 3 else 1.0)
        t += dt
        for r in range(ranks):
            now = t + offsets[r] + abs(rng.gauss(0.0, 0.0004))
            speed = global_batch / (now - prev[r])
            prev[r] = now
            lines.append((now - offsets[r], r,
                          "%s%s:INFO: Epoch[0] Batch [%d-%d]\tSpeed: %r samples/sec\tLR: 0.256000\t\n"
                          % (tag(style, r), stamp(now), k, k, speed)))
        if noise and k % 40 == 7:
            lines.append((t, -1, tag(style, 0) + "[/opt/dali/dali/pipeline/operators/reader/loader/"
                           "loader.h:140] DALI reader: shard 0 of %d\n" % ranks))
    lines.sort(key=lambda x: (x[0], x[1]))  # arrival order
    out.extend(l for _, _, l in lines)
    out.append("end time: 2020-09-01 10:%02d:00\n" % min(59, int(t / 60) + 1))
    text = "".join(out)
    if truncate_at is not None:
        text = "".join(out[:truncate_at])
    if os.path.exists(path):
        raise SystemExit("refusing to overwrite " + path)
    with open(path, "w") as f:
        f.write(text)
    return len(text)


def dll_stamp(seconds):
    t = datetime.datetime(2020, 9, 15, 14, 0, 0) + datetime.timedelta(seconds=seconds)
    return t.strftime("%Y-%m-%d %H:%M:%S.%f")


def write_dll_run(path, fmt, nodes, gpus, batch, precision, iterations, rng, slowdown):
    """NGC PyTorch (`Epoch: 0 Iteration: I`) or NGC TensorFlow 1 (`(0, I) imgs_per_sec`) lines."""
    ranks = nodes * gpus
    global_batch = batch * ranks
    rate = per_gpu_rate("%dn%dg" % (nodes, gpus), nodes, gpus, precision, batch) * ranks * slowdown
    step = global_batch / rate
    out = ["DLL %s - PARAMETER arch : resnet50  batch_size : %d\n" % (dll_stamp(0), batch)]
    t = 5.0
    for k in range(1, iterations + 1):
        dt = step * (1.0 + rng.gauss(0.0, 0.01)) * (3.0 if k < 3 else 1.0)
        t += dt
        if fmt == "ngc-pytorch-rn50":
            out.append("DLL %s - Epoch: 0 Iteration: %d  train.loss : 6.93  train.total_ips : "
                       "%.2f img/s\n" % (dll_stamp(t), k, global_batch / dt))
        elif k > 20:
            out.append("DLL %s - (0, %d) imgs_per_sec : %.4f cross_entropy : 6.91 total_loss : 7.29"
                       "\n" % (dll_stamp(t), k, global_batch / dt))
    if os.path.exists(path):
        raise SystemExit("refusing to overwrite " + path)
    text = "".join(out)
    with open(path, "w") as f:
        f.write(text)
    return len(text)


def absl_stamp(seconds):
    t = datetime.datetime(2020, 9, 15, 14, 0, 0) + datetime.timedelta(seconds=seconds)
    return "I%02d%02d %s" % (t.month, t.day, t.strftime("%H:%M:%S.%f"))


def write_tf2_bert_run(path, nodes, gpus, batch, iterations, rng, slowdown):
    """TensorFlow 2 official BERT's custom loop: one absl `Train Step:` line per step."""
    ranks = nodes * gpus
    step = batch * ranks / (per_gpu_rate("%dn%dg" % (nodes, gpus), nodes, gpus, "fp32", batch)
                            * 0.4 * ranks * slowdown)
    out = ["%s 139876543210 run_pretraining.py:120] Training using TF 2.x API.\n" % absl_stamp(0)]
    t = 5.0
    for k in range(1, iterations + 1):
        t += step * (1.0 + rng.gauss(0.0, 0.01)) * (3.0 if k < 3 else 1.0)
        out.append("%s 139876543210 model_training_utils.py:444] Train Step: %d/%d  / loss = "
                   "7.53125\n" % (absl_stamp(t), k, iterations))
    return write_new(path, "".join(out))


def write_torchvision_run(path, nodes, gpus, batch, iterations, rng, slowdown):
    """pytorch/examples main.py: each rank's ProgressMeter lines, all ranks in one file."""
    ranks = nodes * gpus
    step = batch / (per_gpu_rate("%dn%dg" % (nodes, gpus), nodes, gpus, "fp32", batch) * slowdown)
    width = len(str(iterations))
    streams = []
    for r in range(ranks):
        total, lines = 0.0, []
        for k in range(iterations):
            dt = (12.054 if k == 0 else step * (1.0 + rng.gauss(0.0, 0.01)))
            total += dt
            lines.append("Epoch: [0][%*d/%d]\tTime %6.3f (%6.3f)\tData  0.106 ( 0.077)\tLoss "
                         "1.1494e+01 (1.8538e+01)\tAcc@1   1.56 (  2.23)\tAcc@5  10.94 ( 10.94)\n"
                         % (width, k, iterations, dt, total / (k + 1)))
        streams.append("".join(lines))
    out, block = ["=> creating model 'resnet50'\n"], 8192
    for at in range(0, max(len(x) for x in streams), block):
        out.extend(x[at:at + block] for x in streams if at < len(x))
    return write_new(path, "".join(out))


def write_new(path, text):
    if os.path.exists(path):
        raise SystemExit("refusing to overwrite " + path)
    with open(path, "w") as f:
        f.write(text)
    return len(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--topologies", default="1n1g,1n2g,1n4g,1n8g,2n8g,4n8g")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--iterations", default="120", help="one value, or one per topology")
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--precision", default="fp32")
    ap.add_argument("--model", default="r50")
    ap.add_argument("--style", default="openmpi", choices=["openmpi", "gloo", "none"])
    ap.add_argument("--seed", type=int, default=20200901)
    ap.add_argument("--clock-offset-ms", type=float, default=2.0)
    ap.add_argument("--no-noise", action="store_true")
    ap.add_argument("--truncate", action="append", default=[],
                    help="TOPOLOGY:REPEAT:LINES keeps only the first LINES lines of that run")
    ap.add_argument("--speed", default="",
                    help="TOPOLOGY=FACTOR[,...]: those topologies run FACTOR times as fast")
    ap.add_argument("--format", default="ngc-mxnet",
                    choices=["ngc-mxnet", "ngc-pytorch-rn50", "ngc-tf-rn50", "tf2-bert",
                             "pytorch-rn50"])
    ap.add_argument("--slow", action="append", default=[],
                    help="TOPOLOGY:FACTOR runs that topology at FACTOR of its rate (0.9: 10 %% slower)")
    args = ap.parse_args()
    speed = {}
    for item in filter(None, args.speed.split(",")):
        topo, factor = item.split("=")
        speed[topo] = float(factor)
    slow = {t.split(":")[0]: float(t.split(":")[1]) for t in args.slow}
    topologies = args.topologies.split(",")
    iterations = [int(x) for x in args.iterations.split(",")]
    if len(iterations) == 1:
        iterations *= len(topologies)
    truncate = {}
    for t in args.truncate:
        topo, rep, n = t.split(":")
        truncate[(topo, int(rep))] = int(n)
    rng = random.Random(args.seed)
    total = 0
    for topo, iters in zip(topologies, iterations):
        nodes, gpus = (int(x) for x in topo[:-1].split("n"))
        d = os.path.join(args.out, "bz%d" % args.batch, topo)
        os.makedirs(d, exist_ok=True)
        for rep in range(1, args.repeats + 1):
            path = os.path.join(d, "%s_b%d_%s_%d.log" % (args.model, args.batch, args.precision, rep))
            slowdown = (1.0 + rng.gauss(0.0, 0.003)) * speed.get(topo, 1.0) * slow.get(topo, 1.0)
            if args.format == "tf2-bert":
                total += write_tf2_bert_run(path, nodes, gpus, args.batch, iters, rng, slowdown)
                continue
            if args.format == "pytorch-rn50":
                total += write_torchvision_run(path, nodes, gpus, args.batch, iters, rng, slowdown)
                continue
            if args.format != "ngc-mxnet":
                total += write_dll_run(path, args.format, nodes, gpus, args.batch, args.precision,
                                       iters, rng, slowdown)
                continue
            total += write_run(path, nodes, gpus, args.batch, args.precision, iters, rng, args.style,
                               not args.no_noise, truncate.get((topo, rep)), args.clock_offset_ms,
                               slowdown)
    print("wrote %.1f MB to %s" % (total / 1e6, args.out))


if __name__ == "__main__":
    main()
