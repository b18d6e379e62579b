#pragma once
// Runs a program with an argument vector (no shell) and captures its output and exit code.

#include "tests/support/files.h" // slurp, readWhole

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <string>
#include <thread>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace sv::test {

struct ProcessResult {
    int exitCode = -1;
    std::string out, err;
    long peakRssKiB = 0; // the child's peak resident memory (getrusage's ru_maxrss)
};

// Every process on the machine as "pid ppid state wchan command", a line each: what a program
// that did not end in time was waiting on, and what it had started (its ssh hops, mpirun, the
// ranks, whatever sshd started for them).
inline std::string processTable() {
    std::string table;
    DIR* proc = ::opendir("/proc");
    if (!proc) return table;
    while (const dirent* e = ::readdir(proc)) {
        const std::string pid = e->d_name;
        if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
        const std::string base = "/proc/" + pid;
        const std::string stat = readWhole(base + "/stat");
        const auto paren = stat.rfind(')');
        if (paren == std::string::npos || paren + 2 >= stat.size()) continue;
        char state = 0;
        int ppid = 0;
        std::sscanf(stat.c_str() + paren + 2, "%c %d", &state, &ppid);
        std::string cmd = readWhole(base + "/cmdline");
        for (char& c : cmd)
            if (c == '\0') c = ' ';
        table += pid + " " + std::to_string(ppid) + " " + state + " " + readWhole(base + "/wchan") +
                 " " + cmd.substr(0, 240) + "\n";
    }
    ::closedir(proc);
    return table;
}

// Runs argv to its end; with a limit, no longer: past it the program gets TERM, then KILL 10 s
// later, and the result says it timed out (exit code -1), with processTable() as it was then.
inline ProcessResult runProcess(const std::vector<std::string>& argv,
                                std::chrono::seconds limit = std::chrono::seconds::zero()) {
    ProcessResult r;
    char outName[] = "/tmp/scaleview-out-XXXXXX", errName[] = "/tmp/scaleview-err-XXXXXX";
    const int outFd = ::mkstemp(outName), errFd = ::mkstemp(errName);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, outFd, 1);
    posix_spawn_file_actions_adddup2(&actions, errFd, 2);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    bool timedOut = false;
    std::string stuck;
    if (posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ) == 0) {
        int status = 0;
        struct rusage usage {};
        if (limit > std::chrono::seconds::zero()) {
            using clock = std::chrono::steady_clock;
            const auto t0 = clock::now();
            auto nap = std::chrono::milliseconds(1);
            while (::wait4(pid, &status, WNOHANG, &usage) == 0) {
                const auto waited = clock::now() - t0;
                if (!timedOut && waited > limit) {
                    stuck = processTable();
                    ::kill(pid, SIGTERM);
                    timedOut = true;
                } else if (timedOut && waited > limit + std::chrono::seconds(10)) {
                    ::kill(pid, SIGKILL);
                    ::wait4(pid, &status, 0, &usage);
                    break;
                }
                std::this_thread::sleep_for(nap);
                nap = std::min(nap * 2, std::chrono::milliseconds(50));
            }
        } else {
            ::wait4(pid, &status, 0, &usage);
        }
        r.peakRssKiB = usage.ru_maxrss;
        r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    posix_spawn_file_actions_destroy(&actions);
    ::lseek(outFd, 0, SEEK_SET);
    ::lseek(errFd, 0, SEEK_SET);
    r.out = slurp(outFd);
    r.err = slurp(errFd);
    ::close(outFd);
    ::close(errFd);
    ::unlink(outName);
    ::unlink(errName);
    if (timedOut) {
        r.exitCode = -1;
        r.err += "\n" + argv[0] + " did not end within " + std::to_string(limit.count()) +
                 " s; the processes then (pid ppid state wchan command):\n" + stuck;
    }
    return r;
}

#ifdef SCALEVIEW_CLI
// The scaleview-cli under test (the test target defines SCALEVIEW_CLI as its path).
inline ProcessResult cli(std::vector<std::string> args) {
    args.insert(args.begin(), SCALEVIEW_CLI);
    return runProcess(args);
}
#endif

} // namespace sv::test
