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


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: newshapes.py DIR")
    main(sys.argv[1])
