#!/usr/bin/python3
"""A fast stand-in for the training workload in the launcher's fault tests: prints NGC MXNet
speedometer lines at a set pace, and misbehaves on request (a rank exits non-zero, TERM is
ignored by the process and a forked child that leaves the process group, argv is dumped)."""
import argparse, json, logging, os, random, signal, sys, time

# Open MPI's rank, else torchrun's.
rank = int(os.environ.get("OMPI_COMM_WORLD_RANK", os.environ.get("RANK", "0")))
# "--argv-dump FILE ARGS...": write ARGS (hex, byte-exact) to FILE.<rank>, before any parsing.
if len(sys.argv) > 2 and sys.argv[1] == "--argv-dump":
    with open(f"{sys.argv[2]}.{rank}", "w") as f:
        json.dump([os.fsencode(x).hex() for x in sys.argv[3:]], f)
    sys.exit(0)

# "--ids-dump FILE": write this process's pid, process group, session, and the session leader's
# command and parent command to FILE.<rank>, then go on as usual.
def stat(pid):
    with open(f"/proc/{pid}/stat") as f:
        text = f.read()
    comm = text[text.index("(") + 1:text.rindex(")")]
    fields = text[text.rindex(")") + 2:].split()
    return comm, int(fields[1])  # command, parent pid

if len(sys.argv) > 2 and sys.argv[1] == "--ids-dump":
    leader = os.getsid(0)
    leader_comm, leader_parent = stat(leader)
    with open(f"{sys.argv[2]}.{rank}", "w") as f:
        json.dump({"pid": os.getpid(), "pgid": os.getpgid(0), "sid": leader,
                   "leader": leader_comm, "leaderParent": stat(leader_parent)[0]}, f)
    del sys.argv[1:3]

p = argparse.ArgumentParser()
p.add_argument("--iterations", type=int, default=20)
p.add_argument("--batch", type=int, default=2)
p.add_argument("--interval", type=float, default=0.02)
p.add_argument("--jitter", type=float, default=0.0, help="each sleep up to this share longer, at random")
p.add_argument("--slower-each-run", metavar="FILE",
               help="count this run in FILE; the n-th run (from 0) sleeps n x 4 ms longer each iteration, "
                    "so that no two runs of a campaign measure the same (a clock in ms can tie random ones)")
p.add_argument("--fail-rank", type=int, default=-1)
p.add_argument("--fail-at", type=int, default=3)
p.add_argument("--ignore-term-fork", action="store_true")
p.add_argument("--hang", action="store_true", help="after the iterations, sleep forever")
a, rest = p.parse_known_args()

world = int(os.environ.get("OMPI_COMM_WORLD_SIZE", os.environ.get("WORLD_SIZE", "1")))
# torchrun tags nothing: each line then carries the global rank, as the CPU workload's do.
under_torchrun = "TORCHELASTIC_RUN_ID" in os.environ and "OMPI_COMM_WORLD_RANK" not in os.environ
tag = "[rank%d]:" % rank if under_torchrun else ""
logging.basicConfig(level=logging.INFO, format=tag + "%(asctime)s:%(levelname)s: %(message)s", stream=sys.stderr)
if a.ignore_term_fork:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if os.fork() == 0:
        os.setsid()  # escapes the run's process group: only the tag finds it
        while True:
            time.sleep(1)
extra = 0.0
if a.slower_each_run:
    import fcntl
    with open(a.slower_each_run, "a+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.seek(0)
        runs = len(f.read())
        f.write(".")
    extra = 0.004 * runs
prev = time.time()
for k in range(a.iterations):
    time.sleep(a.interval * (1.0 + random.uniform(0.0, a.jitter)) + extra)
    if k == a.fail_at and rank == a.fail_rank:
        print(f"rank {rank} fails on purpose", file=sys.stderr, flush=True)
        sys.exit(3)
    now = time.time()
    logging.info("Epoch[0] Batch [%d-%d]\tSpeed: %s samples/sec\tLR: 0.256\t", k, k, a.batch * world / (now - prev))
    prev = now
while a.hang:
    time.sleep(1)
