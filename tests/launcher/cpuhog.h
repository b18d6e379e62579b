#pragma once
// A real CPU hog for the monitor's tests: a busy loop beside a run (a real process, not a
// mock), KILLed and reaped when the test ends, whatever happens in it.

#include "launchertest.h"

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
