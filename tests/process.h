#pragma once
// Runs a program with an argument vector (no shell) and captures its output and exit code.

#include <cstdio>
#include <fcntl.h>
#include <spawn.h>
#include <string>
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

inline std::string slurp(int fd) {
    std::string s;
    char buf[65536];
    ssize_t n;
    while ((n = ::read(fd, buf, sizeof buf)) > 0)
        s.append(buf, static_cast<std::size_t>(n));
    return s;
}

inline ProcessResult runProcess(const std::vector<std::string>& argv) {
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
    if (posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ) == 0) {
        int status = 0;
        struct rusage usage {};
        ::wait4(pid, &status, 0, &usage);
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
