# The remote host sampler of ScaleView's run monitor (launcher/remotesampler.cpp starts it over
# ssh, one per host per run, and reads its standard output). Every INTERVAL seconds it prints one
# JSON line: load average, CPU steal and iowait, and the processes not carrying the run's tag that
# used CPU meanwhile (what launcher/hostsampler.cpp reads from /proc on the launching machine).
# It exits when its standard input closes (after one last sample: the launcher finished the run),
# when its output cannot be written (the launcher is gone), or after LIMIT seconds, whichever
# comes first: nothing is left behind.
# On a GPU run it adds nvidia-smi's view of the host's GPUs (what launcher/gpusampler.cpp reads on
# the launching machine): SM clock, active throttle reasons, temperature, power, and the compute
# processes not carrying the run's tag.
# On a GPU run it also reads each GPU's own energy counter (NVML's total energy, millijoules since
# the driver loaded) with every sample, the first line too (the run's start): the driver's
# libnvidia-ml.so.1 through ctypes (launcher/monitor/nvmlenergy.cpp reads it the same way on the launching
# machine), NVML held initialised until the sampler exits so that the counters keep counting.
# Arguments: TAG INTERVAL LIMIT [NVIDIA_SMI]. Python 3 standard library only; constant text,
# nothing of the campaign's is in it.
import ctypes, json, os, select, subprocess, sys, time

tag, interval, limit = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
smi = sys.argv[4] if len(sys.argv) > 4 else ""
needle = b"SCALEVIEW_RUN_TAG=" + tag.encode()
hz = os.sysconf("SC_CLK_TCK")
# Not foreign: this sampler and the session sshd (or login shell) that started it.
own = {os.getpid(), os.getppid()}


def read(path, limit=65536):
    try:
        with open(path, "rb") as f:
            return f.read(limit)
    except OSError:
        return b""


def tagged(pid):
    return needle in read("/proc/%d/environ" % pid, 1 << 20).split(b"\0")


def processes():
    """pid -> (comm, utime + stime, start time)."""
    out = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        text = read("/proc/%s/stat" % name, 4096).decode("utf-8", "replace")
        left, right = text.find("("), text.rfind(")")
        if left < 0 or right < left:
            continue
        fields = text[right + 2:].split()
        if len(fields) < 20:
            continue
        # After "comm)": state is field 3, utime 14, stime 15, starttime 22.
        out[int(name)] = (text[left + 1:right], int(fields[11]) + int(fields[12]), int(fields[19]))
    return out


def query(args):
    """nvidia-smi's CSV rows for args, split into stripped fields."""
    done = subprocess.run([smi] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=5,
                          stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        raise OSError("%s failed: %s" % (smi, done.stderr.decode("utf-8", "replace").strip()))
    return [[f.strip() for f in line.split(",")]
            for line in done.stdout.decode("utf-8", "replace").splitlines() if line.strip()]


def number(text):
    try:
        return float(text)
    except ValueError:  # "[N/A]"
        return 0.0


def gpus(sample):
    try:
        rows = query(["--query-gpu=index,clocks.sm,clocks_throttle_reasons.active,"
                      "temperature.gpu,power.draw", "--format=csv,noheader,nounits"])
        sample["gpus"] = [{"index": int(number(r[0])), "sm_mhz": number(r[1]),
                           "throttle": int(r[2], 16) if r[2].lower().startswith("0x") else 0,
                           "temperature_c": number(r[3]), "power_w": number(r[4])}
                          for r in rows if len(r) >= 5]
        apps = query(["--query-compute-apps=pid,process_name", "--format=csv,noheader"])
        sample["foreign_gpu"] = [{"pid": int(number(r[0])), "name": r[1]} for r in apps
                                 if len(r) >= 2 and number(r[0]) > 0 and not tagged(int(number(r[0])))]
    except (OSError, subprocess.SubprocessError, ValueError) as e:
        sample.setdefault("gpus", [])
        sample["foreign_gpu"] = []
        sample["gpu_error"] = str(e)


class Nvml:
    """NVML's _v2 entry points (the unversioned ones are v1, kept for old programs)."""

    def __init__(self):
        self.error, self.lib = "", None
        path = os.environ.get("SCALEVIEW_NVML_LIBRARY") or "libnvidia-ml.so.1"
        try:
            lib = ctypes.CDLL(path)
            lib.nvmlErrorString.restype = ctypes.c_char_p
            for name in ("nvmlInit_v2", "nvmlDeviceGetCount_v2", "nvmlDeviceGetHandleByIndex_v2",
                         "nvmlDeviceGetName", "nvmlDeviceGetUUID",
                         "nvmlDeviceGetTotalEnergyConsumption", "nvmlDeviceGetPowerUsage"):
                getattr(lib, name)
        except (OSError, AttributeError) as e:
            self.error = str(e)
            return
        r = lib.nvmlInit_v2()
        if r != 0:
            self.error = "nvmlInit_v2: " + self.words(lib, r)
            return
        self.lib = lib

    @staticmethod
    def words(lib, r):
        text = lib.nvmlErrorString(r)
        return text.decode("utf-8", "replace") if text else "error %d" % r

    def read(self, sample):
        if not self.lib:
            sample["energy"], sample["energy_error"] = [], self.error
            return
        lib, count = self.lib, ctypes.c_uint(0)
        r = lib.nvmlDeviceGetCount_v2(ctypes.byref(count))
        if r != 0:
            sample["energy"], sample["energy_error"] = [], "nvmlDeviceGetCount_v2: " + self.words(lib, r)
            return
        out = []
        for i in range(min(count.value, 64)):
            gpu, handle = {"index": i, "uuid": "", "name": ""}, ctypes.c_void_p()
            r = lib.nvmlDeviceGetHandleByIndex_v2(ctypes.c_uint(i), ctypes.byref(handle))
            if r != 0:
                gpu["error"] = "nvmlDeviceGetHandleByIndex_v2: " + self.words(lib, r)
                out.append(gpu)
                continue
            text = ctypes.create_string_buffer(96)
            if lib.nvmlDeviceGetName(handle, text, ctypes.c_uint(96)) == 0:
                gpu["name"] = text.value.decode("utf-8", "replace")
            if lib.nvmlDeviceGetUUID(handle, text, ctypes.c_uint(96)) == 0:
                gpu["uuid"] = text.value.decode("utf-8", "replace")
            mj, mw = ctypes.c_ulonglong(0), ctypes.c_uint(0)
            r = lib.nvmlDeviceGetTotalEnergyConsumption(handle, ctypes.byref(mj))
            if r == 0:
                gpu["mj"] = mj.value
            else:
                gpu["error"] = "nvmlDeviceGetTotalEnergyConsumption: " + self.words(lib, r)
            if lib.nvmlDeviceGetPowerUsage(handle, ctypes.byref(mw)) == 0:
                gpu["power_w"] = mw.value / 1000.0
            out.append(gpu)
        sample["energy"] = out
        if not out:
            sample["energy_error"] = "NVML sees no GPU"


def cpu_line():
    parts = read("/proc/stat", 4096).split(b"\n", 1)[0].split()[1:11]
    return [int(p) for p in parts]


nvml = Nvml() if smi else None
last = None
final = False
verdicts = {}  # (pid, start) -> tagged: a process's environment does not change
started = time.monotonic()
while True:
    uptime = float(read("/proc/uptime").split()[0] or 0)
    load = read("/proc/loadavg").split()
    cpu = cpu_line()
    now = processes()
    sample = {"seconds": 0.0, "load1": float(load[0]), "load5": float(load[1]),
              "cpus": os.sysconf("SC_NPROCESSORS_ONLN"), "steal_pct": 0.0, "iowait_pct": 0.0,
              "foreign": []}
    if last is not None:
        seconds = uptime - last[0]
        sample["seconds"] = seconds
        total = sum(c - p for c, p in zip(cpu[:8], last[1][:8]))
        if total > 0 and len(cpu) >= 8:
            sample["iowait_pct"] = 100.0 * (cpu[4] - last[1][4]) / total
            sample["steal_pct"] = 100.0 * (cpu[7] - last[1][7]) / total
        since = last[0] * hz
        foreign = []
        for pid, (comm, used, start) in now.items():
            if pid in own or seconds <= 0:
                continue
            was = last[2].get(pid)
            if was is not None and was[2] == start:
                delta = max(0, used - was[1])
            elif start >= since:  # started since the last look
                delta = used
            else:
                delta = 0
            pct = 100.0 * delta / (hz * seconds)
            if pct < 1.0:
                continue
            key = (pid, start)
            if key not in verdicts:
                verdicts[key] = tagged(pid)
            if not verdicts[key]:
                foreign.append({"pid": pid, "command": comm, "cpu_pct": pct})
        foreign.sort(key=lambda f: -f["cpu_pct"])
        sample["foreign"] = foreign[:8]
        verdicts = {k: v for k, v in verdicts.items() if k[0] in now and now[k[0]][2] == k[1]}
        if smi:
            gpus(sample)
    if nvml:
        nvml.read(sample)
    try:
        sys.stdout.write(json.dumps(sample) + "\n")
        sys.stdout.flush()
    except (BrokenPipeError, OSError):
        sys.exit(0)
    last = (uptime, cpu, now)
    if final or time.monotonic() - started > limit:
        sys.exit(0)
    wake = time.monotonic() + interval
    while time.monotonic() < wake:
        ready, _, _ = select.select([sys.stdin], [], [], max(0.0, wake - time.monotonic()))
        if ready and not os.read(sys.stdin.fileno(), 4096):
            # Standard input closed: the run is over (one last sample covers its end), or the
            # launcher is gone (then the line cannot be written, and that ends it too).
            final = True
            break
