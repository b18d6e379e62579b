#!/usr/bin/python3
"""ScaleView's local workload: ResNet-50 v1.5, PyTorch, CPU, synthetic data.

A real torchvision resnet50 training loop on random images, one process per "GPU" (launched by
mpirun, rank and world size from Open MPI's environment, or by torchrun), gradients averaged with
torch.distributed (gloo on CPU, nccl with --device cuda). Every rank logs the NGC MXNet
speedometer line (methodology section 3), so ScaleView's parser reads it like an NGC log. Open
MPI's --tag-output puts each line's rank before it; torchrun tags nothing, so under torchrun
every line carries "[rank{R}]:" (the global rank, as PyTorch's own distributed warnings do).
"""
import argparse
import logging
import os
import sys
import time


def env_int(names, default):
    for name in names:
        if name in os.environ:
            return int(os.environ[name])
    return default


def choose_gloo_interface(master_addr, master_port):
    """Points gloo at the interface that reaches MASTER_ADDR, when GLOO_SOCKET_IFNAME is unset.

    Left to itself, gloo binds to the address this machine's hostname resolves to and tells its
    peers to connect there. Where that is a loopback address (Debian's default /etc/hosts maps
    the hostname to 127.0.1.1), or any address the other nodes cannot reach, every rank on
    another node fails with "connect [127.0.1.1]:...: Connection refused": a real multi-node
    failure, not only a test's. The interface is the one holding the local address the kernel
    routes to MASTER_ADDR from (a UDP socket's connect() sends nothing); when anything fails,
    GLOO_SOCKET_IFNAME stays unset and gloo chooses as before.
    """
    if os.environ.get("GLOO_SOCKET_IFNAME"):
        return
    import fcntl
    import socket
    import struct
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect((master_addr, int(master_port)))
            local = s.getsockname()[0]
            for _, name in socket.if_nameindex():
                try:
                    # SIOCGIFADDR: the interface's IPv4 address, at bytes 20-24 of struct ifreq.
                    req = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))
                except OSError:
                    continue  # no IPv4 address
                if socket.inet_ntoa(req[20:24]) == local:
                    os.environ["GLOO_SOCKET_IFNAME"] = name
                    return
    except (OSError, ValueError, UnicodeError):
        pass


def main():
    p = argparse.ArgumentParser(description="ResNet-50 v1.5, PyTorch, CPU, synthetic data")
    p.add_argument("--batch-size", type=int, required=True, help="batch per device (per rank)")
    p.add_argument("--iterations", type=int, required=True)
    p.add_argument("--image-size", type=int, default=64)
    p.add_argument("--precision", default="fp32", choices=["fp32", "fp16", "fp16-noamp"])
    p.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    p.add_argument("--master-addr", default="127.0.0.1")
    p.add_argument("--master-port", type=int, default=29500)
    p.add_argument("--lr", type=float, default=0.256)
    p.add_argument("--threads-per-rank", type=int, default=1,
                   help="CPU threads each rank computes with: a CPU 'GPU' is this many cores, the "
                        "same in every topology, so 1n2g has twice the compute of 1n1g")
    a = p.parse_args()

    # mpirun (Open MPI) or torchrun set these; a lone process is rank 0 of 1.
    rank = env_int(["OMPI_COMM_WORLD_RANK", "RANK"], 0)
    world = env_int(["OMPI_COMM_WORLD_SIZE", "WORLD_SIZE"], 1)
    local_size = env_int(["OMPI_COMM_WORLD_LOCAL_SIZE", "LOCAL_WORLD_SIZE"], 1)
    local_rank = env_int(["OMPI_COMM_WORLD_LOCAL_RANK", "LOCAL_RANK"], 0)

    # The same format as MXNet's fit.py, so the same parser reads both.
    under_torchrun = "TORCHELASTIC_RUN_ID" in os.environ and "OMPI_COMM_WORLD_RANK" not in os.environ
    tag = "[rank%d]:" % rank if under_torchrun else ""
    logging.basicConfig(level=logging.INFO, format=tag + "%(asctime)s:%(levelname)s: %(message)s",
                        stream=sys.stderr)
    log = logging.getLogger()

    import torch
    import torch.distributed as dist
    import torchvision

    # A CPU "GPU" is a fixed share of the machine, the same in every topology. Giving each rank
    # cores / ranks threads instead would let 1n1g use every core, and 1n2g could never be faster.
    threads = max(1, a.threads_per_rank)
    torch.set_num_threads(threads)
    device = torch.device("cuda", local_rank) if a.device == "cuda" else torch.device("cpu")
    if a.device == "cuda":
        torch.cuda.set_device(device)
    if world > 1:
        # torchrun sets these (and its agent's store serves the rendezvous); mpirun does not.
        os.environ.setdefault("MASTER_ADDR", a.master_addr)
        os.environ.setdefault("MASTER_PORT", str(a.master_port))
        if a.device != "cuda":
            choose_gloo_interface(os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"])
        dist.init_process_group("nccl" if a.device == "cuda" else "gloo", rank=rank,
                                world_size=world)
    log.info("ResNet-50 v1.5, PyTorch %s, %s, synthetic data %dx%d, batch %d per rank, rank %d of %d, "
             "%d threads", torch.__version__, a.device.upper(), a.image_size, a.image_size,
             a.batch_size, rank, world, threads)
    if a.device == "cpu" and threads == 1 and a.batch_size < 16:
        # PyTorch 1.13 sends 1x1 convolutions (most of ResNet-50's) to oneDNN only from batch 16
        # or with more than one thread; below that they run on the reference BLAS, 4-8x slower.
        log.warning("batch %d below 16 on one thread: PyTorch runs ResNet-50's 1x1 convolutions "
                    "on its slow path; use a batch of 16 or more", a.batch_size)

    torch.manual_seed(1234 + rank)
    model = torchvision.models.resnet50(num_classes=1000).to(device)
    if world > 1:
        model = torch.nn.parallel.DistributedDataParallel(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.875, weight_decay=3.0517578125e-05)
    criterion = torch.nn.CrossEntropyLoss(label_smoothing=0.1)
    images = torch.randn(a.batch_size, 3, a.image_size, a.image_size, device=device)
    labels = torch.randint(0, 1000, (a.batch_size,), device=device)
    # fp16 on CPU means bfloat16 autocast: the closest CPU analogue; the log name keeps the choice.
    use_amp = a.precision != "fp32"
    amp_dtype = torch.float16 if a.device == "cuda" else torch.bfloat16
    global_batch = a.batch_size * world

    model.train()
    previous = time.time()
    for k in range(a.iterations):
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast(device_type=a.device, dtype=amp_dtype, enabled=use_amp):
            loss = criterion(model(images), labels)
        loss.backward()
        optimizer.step()
        if a.device == "cuda":
            torch.cuda.synchronize()
        now = time.time()
        speed = global_batch / max(now - previous, 1e-9)
        previous = now
        log.info("Epoch[0] Batch [%d-%d]\tSpeed: %s samples/sec\tLR: %s\t", k, k, speed, a.lr)
    if world > 1:
        dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
