#pragma once
// A real CPU hog for the monitor's tests: a busy loop beside a run (a real process, not a
// mock), KILLed and reaped when the test ends, whatever happens in it.

#include "tests/launcher/launchertest.h"

#include <csignal>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace sv::test {

// The loop of a CPU hog, raised to take a whole core even on a machine where other tests or
// builds keep the load far above the CPU count: with autogroup scheduling (Linux's default) a
// session shares the CPU with other sessions whatever its nice, so the hog runs in its own
// session (setsid) with its autogroup at nice -15 (the tests run as root).
inline const char* kHogLoop = "echo -15 > /proc/$$/autogroup 2>/dev/null; while :; do :; done";

// The run's own busy process beside such a hog: the same loop at the default priority, in a
// session of its own. It still takes most of a core on a machine the tests have to themselves
// (the monitor's tests run alone), but two raised loops on a 2-core machine would leave sshd and
// the sampler a few percent of a CPU: an ssh login would outlast its connect timeout and the host
// would go unsampled.
inline const char* kBusyLoop = "while :; do :; done";

// The argv of a busy loop carrying the run's tag (env sets it, then execs).
inline std::vector<std::string> taggedBusyLoop(const std::string& tag) {
    return {"/usr/bin/env", "SCALEVIEW_RUN_TAG=" + tag, "/usr/bin/setsid", "/bin/sh", "-c",
            kBusyLoop};
}

// setsid and nice exec, so the pid is the loop's and its name is sh.
struct CpuHog {
    pid_t pid = 0;
    explicit CpuHog(const std::string& log,
                    std::vector<std::string> argv = {"/usr/bin/setsid", "/usr/bin/nice", "-n",
                                                     "-15", "/bin/sh", "-c", kHogLoop})
        : pid(spawn(argv, log)) {}
    ~CpuHog() {
        if (pid <= 0) return;
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
    }
    CpuHog(const CpuHog&) = delete;
    CpuHog& operator=(const CpuHog&) = delete;
};

} // namespace sv::test
