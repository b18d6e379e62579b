#!/usr/bin/python3
"""ScaleView's all-reduce probe: the communication part of a case's scaling loss (issue 28).

Every rank all-reduces a tensor of the model's gradient size (ResNet-50: 25.6 M parameters, 4
bytes each in fp32, 2 in fp16) with torch.distributed: gloo on CPU, nccl on GPUs, the backend
the workload uses. After --warmup untimed iterations, each of --iterations is timed between two
barriers' ends (so one rank's late start is not counted as communication), and rank 0 prints one
JSON line: {"kind": "allreduce", "backend": ..., "bytes": ..., "ranks": ..., "seconds": [...]}.
Rank and world size come from Open MPI's environment or torchrun's (RANK, WORLD_SIZE), like the
workload's.
"""
import argparse
import json
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
    p = argparse.ArgumentParser(description="time an all-reduce of the gradient's size")
    p.add_argument("--bytes", type=int, required=True, help="bytes all-reduced per iteration")
    p.add_argument("--precision", default="fp32", choices=["fp32", "fp16", "fp16-noamp"])
    p.add_argument("--iterations", type=int, default=10)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    p.add_argument("--master-addr", default="127.0.0.1")
    p.add_argument("--master-port", type=int, default=29500)
    a = p.parse_args()

    rank = env_int(["OMPI_COMM_WORLD_RANK", "RANK"], 0)
    world = env_int(["OMPI_COMM_WORLD_SIZE", "WORLD_SIZE"], 1)
    local_rank = env_int(["OMPI_COMM_WORLD_LOCAL_RANK", "LOCAL_RANK"], 0)

    import torch
    import torch.distributed as dist

    torch.set_num_threads(1)
    backend = "nccl" if a.device == "cuda" else "gloo"
    device = torch.device("cuda", local_rank) if a.device == "cuda" else torch.device("cpu")
    if a.device == "cuda":
        torch.cuda.set_device(device)
    os.environ.setdefault("MASTER_ADDR", a.master_addr)
    os.environ.setdefault("MASTER_PORT", str(a.master_port))
    if backend == "gloo":
        choose_gloo_interface(os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"])
    dist.init_process_group(backend, rank=rank, world_size=world)
    # fp16 on CPU: gloo's half all-reduce is not in every build, so the same bytes as float32
    # elements; on GPUs the run's own dtype.
    half = a.precision != "fp32" and a.device == "cuda"
    dtype = torch.float16 if half else torch.float32
    elements = max(1, a.bytes // (2 if half else 4))
    tensor = torch.ones(elements, dtype=dtype, device=device)

    def sync():
        if a.device == "cuda":
            torch.cuda.synchronize()

    seconds = []
    for k in range(a.warmup + a.iterations):
        dist.barrier()
        sync()
        start = time.perf_counter()
        dist.all_reduce(tensor)
        sync()
        took = time.perf_counter() - start
        if k >= a.warmup:
            seconds.append(took)
    # Every rank's time: the iteration took as long as its slowest rank.
    times = torch.tensor(seconds, dtype=torch.float64)
    if backend == "nccl":
        times = times.to(device)
    dist.all_reduce(times, op=dist.ReduceOp.MAX)
    if rank == 0:
        print(json.dumps({"kind": "allreduce", "backend": backend,
                          "bytes": elements * tensor.element_size(), "ranks": world,
                          "seconds": [float(t) for t in times.cpu()]}), flush=True)
    dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
