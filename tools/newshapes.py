#!/usr/bin/env python3
"""Writes a folder of generated logs in shapes no family of ScaleView's knows, each read by the
general reader (docs/reading-logs.md; the shapes are those of tests/core/test_generalreader.cpp,
from logs real runs committed to public repositories). For the screenshot general-reader.png:

    tools/newshapes.py /tmp/newshapes
    xvfb-run -a -s "-screen 0 1600x1000x24" build/app/scaleview --settings /tmp/s.ini \\
        --screenshot docs/screenshots/general-reader.png --page runs --size 1400x900 /tmp/newshapes
"""
import os
import sys


def rate(base, k):
    """A slow first report, then a steady rate with a ripple."""
    return base / 8 if k == 0 else base * (1.0 + 0.004 * ((k * 7) % 5 - 2))


def write(root, rel, lines):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main(root):
    # fairseq (RoBERTa): words per second on its progress lines, 16 GPUs in its Namespace.
    lines = ["| distributed init (rank 0): tcp://localhost:16099",
             "Namespace(arch='roberta_large', distributed_world_size=16, fp16=True, max_tokens=4400)"]
    for k in range(60):
        lines.append(f"| epoch 001:    {10 * (k + 1)} / 1681 loss=9.1, nll_loss=8.2, ppl=300.1, "
                     f"wps={rate(26600, k):.0f}, ups=0, wpb=59562.667, bsz=128.000, "
                     f"num_updates={k + 1}, lr=1e-05, gnorm=2.1, clip=1.000, oom=0.000")
    write(root, "fairseq/roberta/train.log", lines)
    # Megatron-LM: step times with the global batch on each line.
    lines = ["using world size: 8, data-parallel-size: 8",
             "  global_batch_size ............................... 256"]
    for k in range(50):
        ms = 1001.5 if k == 0 else 488.0 + k % 3
        lines.append(f" iteration       {10 * (k + 1)}/  171661 | consumed samples:  "
                     f"{2560 * (k + 1)} | elapsed time per iteration (ms): {ms:.1f} | "
                     "learning rate: 9.339E-08 | global batch size:   256 | lm loss: 1.07E+01 |")
    write(root, "megatron/gpt3-125m/slurm-4711.out", lines)
    # Horovod's synthetic benchmark on 8 GPUs: one GPU's rate each step, the GPUs stated.
    lines = ["[1,0]<stdout>:Model: ResNet50", "[1,0]<stdout>:Batch size: 32",
             "[1,0]<stdout>:Number of GPUs: 8", "[1,0]<stdout>:Running benchmark..."]
    for k in range(30):
        lines.append(f"[1,0]<stdout>:Iter #{k}: {rate(245.0, k):.1f} img/sec per GPU")
    lines += ["[1,0]<stdout>:Img/sec per GPU: 245.1 +-1.2",
              "[1,0]<stdout>:Total img/sec on 8 GPU(s): 1960.9 +-9.6"]
    write(root, "horovod/synthetic_benchmark.log", lines)
    # transformer-xl: tokens per second on its batch lines.
    lines = ["Experiment dir : LM-TFM-wt103/20200903-023735"]
    for k in range(40):
        lines.append(f"| epoch   1 step {200 * (k + 1):>8} | batches {200 * (k + 1):>6} / 8401 | "
                     f"lr 2.50e-04 | ms/batch 767.5 | tok/s {rate(80050, k):>7.0f} | loss 12.55")
    write(root, "transformer-xl/09-03-2020_02-37-35.txt", lines)
    # BigDL NCF: records per second.
    lines = [f"Throughput is {rate(621000, k):.2f} record / second." for k in range(20)]
    write(root, "bigdl-ncf/result_0.txt", lines)
    # timm's train.py: the job's samples per second after each step's seconds, 8 GPUs.
    lines = ["Training in distributed mode with multiple processes, 1 device per process."
             "Process 0, total 8, device cuda:0.",
             "Model resnet50 created, param count:25557032"]
    for k in range(26):
        t = 0.389 + 0.002 * (k % 3) if k else 3.1
        lines.append(f"Train: 0 [{50 * k:>4d}/1251 ({50 * k * 100 // 1251:>3d}%)]  Loss: 6.912 "
                     f"(6.93)  Time: {t:.3f}s, {1024 / t:>7.2f}/s  ({t + 0.02:.3f}s, "
                     f"{1024 / (t + 0.02):>7.2f}/s)  LR: 1.000e-05  Data: 0.011 (0.025)")
    write(root, "timm/resnet50/train.log", lines)
    # HuggingFace's Trainer written to a file: tqdm's bars joined by carriage returns between
    # its logged lines, steps per second times its total train batch.
    lines = ["***** Running training *****", "  Num examples = 12800",
             "  Instantaneous batch size per device = 16",
             "  Total train batch size (w. parallel, distributed & accumulation) = 64",
             "  Total optimization steps = 200"]
    bars = []
    for step in range(201):
        pct = step // 2
        bar = ("\u2588" * (pct // 10) + ("\u258c" if pct % 10 >= 5 else "")).ljust(10)
        rate_ = "?it/s" if step == 0 else f"{1.5 + 0.01 * (step % 7):.2f}it/s"
        bars.append(f"{pct:3d}%|{bar}| {step}/200 [00:10<00:20, {rate_}]")
        if step and step % 20 == 0:
            lines.append("\r".join(bars))
            lines.append(f"{{'loss': 2.31, 'learning_rate': 4.5e-05, 'epoch': {step / 200:.2f}}}")
            bars = []
    write(root, "huggingface/bert-base/train.log", lines)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: newshapes.py DIR")
    main(sys.argv[1])
