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
writes TensorFlow 2's absl "Train Step:" lines (chief only), tf2-rn50 its Keras TimeHistory
lines every 100 steps (use --iterations 600 and --model rn50, as DLPerf's TF2 runs), and pytorch-rn50 torchvision's
`Epoch: [0][k/n]` lines of every rank in one file, interleaved in 8 KiB blocks as their
unsynchronised writes land. The InsightFace report's formats (batch 64 by default, model r100
with --model r100): insightface-arcface writes MXNet ArcFace's Speedometer lines every 20 batches
(--iterations counts batches), insightface-partialfc MXNet Partial FC's rank-0 `Iter:N Rank:R
it/sec Total:T it/sec` lines, oneflow-insightface OneFlow's `train: iter N, loss L, throughput:
T` lines, the last under DLPerf's `85744_fp32_b64_oneflow_model_parallel_1_partial_fc_1/NnGg/`
instead of `bz64/NnGg/`.

--realworld COPIES writes instead a folder as users have them (issue 26): COPIES of each shape
real runs write outside DLPerf's runners (MLPerf's MXNet with Open MPI tags and :::MLL lines,
gluon-cv's Speedometer, NGC PyTorch and TensorFlow DLLogger text, gluon-nlp's throughput=K tks/s;
DLLogger JSON, tf_cnn_benchmarks under Horovod on two hosts, Keras TimeHistory, the PyTorch
ImageNet example with a scaleview.json for its batch, gluon-nlp translation's K wps),
under odd names, mixed with scripts, configs, a binary checkpoint and a big non-log text file.
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


def write_tf2_rn50_run(path, nodes, gpus, batch, iterations, rng, slowdown):
    """TensorFlow 2 ResNet-50 (DLPerf's Keras runner): TimeHistory every 100 steps, the global
    batch rate to 2 decimals (tests/support/formatlogs.h makeTf2Rn50Log's shape)."""
    ranks = nodes * gpus
    rate = per_gpu_rate("%dn%dg" % (nodes, gpus), nodes, gpus, "fp32", batch) * 0.85 * ranks
    step = batch * ranks / (rate * slowdown)
    out = ["%s 140123456789 classifier_trainer.py:178] Run params: {'mode': 'train_and_eval'}\n"
           % absl_stamp(0)]
    t, since = 0.0, 0.0
    for k in range(1, iterations + 1):
        dt = step * (1.0 + rng.gauss(0.0, 0.01)) * (6.0 if k == 1 else 1.0)
        t += dt
        since += dt
        if k % 100:
            continue
        out.append("%s 140123456789 keras_utils.py:145] TimeHistory: %.2f seconds, %.2f "
                   "examples/second between steps %d and %d\n"
                   % (absl_stamp(t), since, batch * ranks * 100 / since, k - 100, k))
        since = 0.0
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


# The InsightFace report's three formats. Rates once warm, from the tests' logs
# (tests/insightfacewriter.h): MXNet ArcFace's per-node samples/s (r100, 64 a GPU), MXNet
# Partial FC's per-rank samples/s, OneFlow's whole-job samples/s; other shapes scale by the usual
# losses per GPU and per node.
ARCFACE_NODE = {"1n1g": 236.0, "1n4g": 652.0, "1n8g": 757.0}
PARTIALFC_RANK = {"1n1g": 219.0, "1n8g": 179.0, "2n8g": 163.0}
ONEFLOW_FACE_JOB = {"1n1g": 245.0, "1n8g": 1925.0, "2n8g": 3780.0}


def face_rate(table, nodes, gpus, per_gpu):
    topology = "%dn%dg" % (nodes, gpus)
    if topology in table:
        return table[topology]
    return per_gpu * (0.985 ** max(0, gpus.bit_length() - 1)) * (0.96 ** max(0, nodes - 1))


def write_arcface_run(path, nodes, gpus, batches, rng, slowdown):
    """insightface train_parall.py (one process per node): MXNet's Speedometer every 20 batches
    with the accuracy metric, `INFO:root:Epoch[0] Batch [a-b]\\tSpeed: X samples/sec\\tacc=...`,
    X one node's samples/s, and the batch callback's `lr-batch-epoch:` every 1000 batches."""
    node = face_rate(ARCFACE_NODE, 1, gpus, 236.0 * gpus) * slowdown
    out = ["Begin time: \n", "Thu Feb  4 10:00:00 CST 2021\n", "Use model patallel mode\n",
           "gpu num %d\n" % gpus,
           "Called with argument: Namespace(network='r100', loss='arcface', per_batch_size=64, "
           "frequent=20, ctx_num=%d)\n" % gpus]
    for b in range(20, batches + 1, 20):
        v = node * (0.55 if b == 20 else 1.0 + rng.gauss(0.0, 0.003))
        out.append("INFO:root:Epoch[0] Batch [%d-%d]\tSpeed: %.2f samples/sec\tacc=%f\n"
                   % (b - 20, b, v, min(0.99, b * 1e-6)))
        if b % 1000 == 0:
            out.append("lr-batch-epoch: 0.1 %d 0\n" % (b - 1))
    return write_new(path, "".join(out))


def write_partialfc_run(path, nodes, gpus, updates, rng, slowdown):
    """insightface partial_fc train_memory.py with config.frequent = 1: rank 0's CallBackLogging,
    `INFO:root:Iter:N Rank:R it/sec Total:T it/sec [0][loss]:L ` (R and T samples/s despite the
    label, T = R x world size) from update 2 (the first only starts the clock); horovodrun's
    `[1,0]<stderr>:` on one node of several GPUs."""
    ranks = nodes * gpus
    per_rank = face_rate(PARTIALFC_RANK, nodes, gpus, 219.0) * slowdown
    tag = "[1,0]<stderr>:" if 1 < ranks <= gpus else ""
    out = [tag + "INFO:root:Namespace(dataset='emore', loss='arcface', network='r100', "
           "sample_ratio=1.0)\n"]
    for u in range(2, updates + 1):
        r = per_rank * (0.7 if u <= 10 else 1.0 + rng.gauss(0.0, 0.004))
        out.append("%sINFO:root:Iter:%d Rank:%.2f it/sec Total:%.2f it/sec [0][loss]:%.2f \n"
                   % (tag, u, r, r * ranks, max(2.0, 45.0 - u * 1e-4)))
    return write_new(path, "".join(out))


def write_oneflow_face_run(path, nodes, gpus, iterations, rng, slowdown):
    """oneflow_face insightface_train.py: TrainMetric's `train: iter N, loss L, throughput: T`
    every iteration from 0, T the whole job's samples/s (iteration 0's from its timer's two
    splits in a row: huge; the next five still warming up)."""
    job = face_rate(ONEFLOW_FACE_JOB, nodes, gpus, 245.0 * gpus * nodes) * slowdown
    out = ["2021-02-04 10:00:00\n",
           "+ python3 /oneflow_face/insightface_train.py --network=r100 --dataset=emore "
           "--loss=arcface --train_batch_size=%d --train_iter=%d\n" % (64 * nodes * gpus,
                                                                      iterations),
           "Loading data from /data/emore\n"]
    for i in range(iterations):
        if i == 0:
            v = job * 130.0
        elif i <= 5:
            v = 0.6 * job
        else:
            v = job * (1.0 + rng.gauss(0.0, 0.002))
        out.append("train: iter %d, loss %.6f, throughput: %.3f\n"
                   % (i, max(2.0, 46.5 - i * 1e-5), v))
    return write_new(path, "".join(out))


def write_realworld(out, copies, rng):
    """A mixed folder of real-world-shaped logs and other files; returns the bytes written."""
    total = 0

    def put(rel, text, mode="w"):
        nonlocal total
        path = os.path.join(out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, mode) as f:
            f.write(text)
        total += len(text)

    def rate(base, k):
        return base / 10 if k < 3 else base * (1.0 + rng.gauss(0.0, 0.01))

    for c in range(copies):
        ranks = 16
        lines = ["Beginning trial 1 of 1\n",
                 ":::MLL 1560848966.667 submission_entry: {\"value\": \"{'nodes': \\\"{'num_accelerators': "
                 "'%d', 'num_nodes': '1'}\\\"}\"}\n" % ranks]
        for r in range(ranks):
            lines.append("[1,%d]<stderr>:2019-06-18 09:10:31,333 Node[%d] start with arguments "
                         "Namespace(batch_size=208, dtype='float16', gpus='0', network='resnet-v1b', "
                         "num_layers=50)\n" % (r, r))
        for k in range(1140):
            e, b = divmod(k, 19)
            lines.append("[1,0]<stderr>:2019-06-18 09:10:44,633 Node[0] Epoch[%d] Batch [%d-%d]\tSpeed: "
                         "%.2f samples/sec\taccuracy=0.000916\n" % (e, b * 20, b * 20 + 20, rate(19000, k)))
            if k % 19 == 18:
                lines.append("[1,0]<stdout>::::MLL 1560852530.920 eval_start: {\"value\": null}\n")
        put("mlperf/dgx2_ngc19.05_mxnet/resnet/result_%d.txt" % c, "".join(lines))
        lines = ["Namespace(batch_size=128, dtype='float16', model='resnet50_v1b', num_gpus=8, "
                 "num_workers=60)\n"]
        for k in range(3000):
            e, b = divmod(k, 25)
            lines.append("Epoch[%d] Batch [%d]\tSpeed: %.6f samples/sec\taccuracy=0.868184\tlr=0.003133\n"
                         % (e, b * 50 + 49, rate(5000, k)))
            if b == 24:
                lines.append("[Epoch %d] speed: 4681 samples/sec\ttime cost: 283.533315\n" % e)
        put("gluoncv/classification/resnet50_v1b-%d.log" % c, "".join(lines))
        lines = ["DLL 2020-03-09 03:39:11.320178 - PARAMETER arch : resnet50  batch_size : 296  "
                 "amp : False  fp16 : False  world_size : 8 \n"]
        for e in range(2):
            for i in range(1, 100):
                lines.append("DLL 2020-03-09 03:39:31.419192 - Epoch: %d Iteration: %d  train.loss : "
                             "7.08172  train.total_ips : %.2f img/s\n" % (e, i, rate(2900, e * 99 + i - 1)))
        put("pytorch/8xV100/PyTorch_resnet50_FP32/09-03-2020_03-38-%02d.txt" % c, "".join(lines))
        lines = ["Num GPUs 8\nPer-GPU Batch Size 256\n"]
        for k in range(720):
            lines.append("DLL 2020-06-20 01:16:39.766736 - (0, %d) total_ips : %.9f\n" % (50 + k, rate(6700, k)))
        lines.append("2020-06-20 01:15:36.381152: I tensorflow/stream_executor/platform/default/"
                     "dso_loader.cc:44] Successfully opened dynamic library libcudart.so.10.0\n" * 40)
        put("tf/slurm-%d.out" % (1234 + c), "".join(lines))
        lines = ["INFO:root:Namespace(batch_size=16, dtype='float16', gpus='0,1,2,3,4,5,6,7')\n"]
        for k in range(4000):
            lines.append("INFO:root:[step %d]\tmlm_loss=9.24962\tthroughput=%.1fK tks/s\tlr=0.0000025\n"
                         % (k * 250 + 249, rate(130000, k) / 1000))
        put("bert/pretrain_%d" % c, "".join(lines).rstrip("\n"))
        write_realworld_more(put, rate, c)
        put("scripts/run_%d.sh" % c, "#!/bin/sh\nmpirun -np 16 python train.py --batch-size 208\n")
        put("configs/cfg_%d.yaml" % c, "batch_size: 256\nlr: 0.1\n")
        put("ckpt/model_%d.params" % c, bytes(rng.getrandbits(8) for _ in range(200000)).decode("latin-1"),
            "w")
        put("notes/train_%d.txt" % c, "loss 0.123 accuracy 0.456 nothing about speed here\n" * 20000)
    return total


def write_realworld_more(put, rate, c):
    """The shapes of write_realworld that shared/'s real logs do not show: DLLogger JSON, tf_cnn_benchmarks
    under Horovod on two hosts, Keras TimeHistory, the PyTorch ImageNet example, gluon-nlp translation."""
    lines = ['DLLL {"timestamp": "1591234560.1", "type": "PARAMETER", "data": {"arch": "resnet50", '
             '"batch_size": 256, "amp": true, "world_size": 8}}\n']
    for k in range(600):
        lines.append('DLLL {"timestamp": "1591234570.5", "type": "LOG", "step": [%d, %d], "data": '
                     '{"train.loss": 6.91, "train.total_ips": %.6f}}\n' % (k // 300, k % 300 + 1, rate(9800, k)))
    put("ngc-pytorch/dllogger_%d.json" % c, "".join(lines))
    lines = []
    for r in range(8):
        t = "[1,%d]<stdout>:" % r
        lines.append("%snode%d:%d:%d [%d] NCCL INFO comm 0x55 rank %d nranks 8 - Init COMPLETE\n"
                     % (t, r // 4 + 1, 4000 + r, 4100 + r, r % 4, r))
        lines.append("%sBatch size:  256 global\n%s             32 per device\n" % (t, t))
    for k in range(300):
        per = rate(360, k)
        for r in range(8):
            lines.append("[1,%d]<stdout>:%d\timages/sec: %.1f +/- 0.3 (jitter = 1.1)\t7.912\n"
                         % (r, 1 if k == 0 else k * 10, per))
    put("horovod/tf_cnn_%d.log" % c, "".join(lines))
    lines = ["I1205 02:11:56.123456 140234 resnet_ctl_imagenet_main.py:120] Training 90 epochs\n"]
    for k in range(400):
        v = rate(2540, k)
        lines.append("I1205 02:12:%02d.000001 140234 keras_utils.py:148] TimeHistory: %.2f seconds, %.2f "
                     "examples/second between steps %d and %d\n" % (k % 60, 25600 / v, v, k * 100, k * 100 + 100))
    put("keras/resnet_%d.txt" % c, "".join(lines))
    lines = ["python main.py -a resnet50 --multiprocessing-distributed --world-size 1 --rank 0 -b 256 /data\n"]
    lines += ["Use GPU: %d for training\n" % g for g in range(4)]
    for k in range(500):
        step = 256 / rate(2800, k)
        for g in range(4):
            lines.append("Epoch: [0][%4d/5005]\tTime %6.3f (%6.3f)\tData  0.001 ( 0.120)\tLoss 6.9021e+00 "
                         "(6.9123e+00)\tAcc@1   0.00 (  0.10)\tAcc@5   0.78 (  0.51)\n" % (k * 10, step, step * 1.1))
    put("imagenet/out_%d.txt" % c, "".join(lines))
    put("imagenet/scaleview.json", '{"files": {"out_*.txt": {"batch": 64}}}\n')
    lines = ["2019-03-01 10:00:00,000 - root - Namespace(dataset='WMT2014BPE', gpus='0,1,2,3')\n"]
    for k in range(500):
        lines.append("2019-03-01 10:01:00,000 - root - [Epoch 0 Batch %d/6000] loss=9.1203, ppl=9142.09, "
                     "throughput=%.2fK wps, wc=503.23K\n" % (k * 10 + 10, rate(41230, k) / 1000))
    put("nmt/transformer_%d.log" % c, "".join(lines))


def write_new(path, text):
    if os.path.exists(path):
        raise SystemExit("refusing to overwrite " + path)
    with open(path, "w") as f:
        f.write(text)
    return len(text)


# --format: the writer of each InsightFace format; --iterations is ArcFace's batches (a multiple
# of its 20), Partial FC's updates, OneFlow's --train_iter.
FACE_FORMATS = {"insightface-arcface": write_arcface_run,
                "insightface-partialfc": write_partialfc_run,
                "oneflow-insightface": write_oneflow_face_run}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--topologies", default="1n1g,1n2g,1n4g,1n8g,2n8g,4n8g")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--iterations", default="120", help="one value, or one per topology")
    ap.add_argument("--batch", type=int, default=None,
                    help="per GPU (default 64 for the InsightFace formats, 128 for the others)")
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
                             "tf2-rn50", "pytorch-rn50"] + list(FACE_FORMATS))
    ap.add_argument("--slow", action="append", default=[],
                    help="TOPOLOGY:FACTOR runs that topology at FACTOR of its rate (0.9: 10 %% slower)")
    ap.add_argument("--realworld", type=int, default=0, metavar="COPIES",
                    help="write a folder of real-world-shaped logs mixed with other files instead")
    args = ap.parse_args()
    if args.realworld:
        total = write_realworld(args.out, args.realworld, random.Random(args.seed))
        print("wrote %.1f MB to %s" % (total / 1e6, args.out))
        return
    if args.batch is None:
        args.batch = 64 if args.format in FACE_FORMATS else 128
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
        if args.format == "oneflow-insightface":  # LOG_DIR of its train_insightface.sh
            d = os.path.join(args.out, "85744_%s_b%d_oneflow_model_parallel_1_partial_fc_1"
                             % (args.precision, args.batch), topo)
        else:
            d = os.path.join(args.out, "bz%d" % args.batch, topo)
        os.makedirs(d, exist_ok=True)
        for rep in range(1, args.repeats + 1):
            path = os.path.join(d, "%s_b%d_%s_%d.log" % (args.model, args.batch, args.precision, rep))
            slowdown = (1.0 + rng.gauss(0.0, 0.003)) * speed.get(topo, 1.0) * slow.get(topo, 1.0)
            if args.format == "tf2-bert":
                total += write_tf2_bert_run(path, nodes, gpus, args.batch, iters, rng, slowdown)
                continue
            if args.format == "tf2-rn50":
                total += write_tf2_rn50_run(path, nodes, gpus, args.batch, iters, rng, slowdown)
                continue
            if args.format in FACE_FORMATS:
                total += FACE_FORMATS[args.format](path, nodes, gpus, iters, rng, slowdown)
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
