#pragma once
// A private dockerd for the container tests: its own data root, exec root and socket in a
// temporary directory, no bridge and no iptables, with an empty image (sv/empty:1) whose
// containers see the host's /usr, /lib, /bin, /sbin and /etc read-only. Torn down by its PID,
// also when a test fails. Where docker.io is missing or dockerd cannot start, skipReason() says
// why, and the test skips.

#include "tests/support/process.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/mount.h>
#include <sys/wait.h>
#include <thread>
#include <vector>

namespace sv::test {

inline const std::string kDockerd = "/usr/sbin/dockerd";
// /usr/local/bin/docker, earlier in PATH here, is another client: Debian's is named.
inline const std::string kDocker = "/usr/bin/docker";

class PrivateDockerd {
  public:
    PrivateDockerd() {
        if (!std::filesystem::exists(kDockerd) || !std::filesystem::exists(kDocker)) {
            m_skip = "docker.io is not installed (" + kDockerd + " or " + kDocker +
                     " missing); 'make test' installs it";
            return;
        }
        char tmpl[] = "/tmp/svd-XXXXXX"; // short: a unix socket path has 108 bytes at most
        m_dir = ::mkdtemp(tmpl);
        m_host = "unix://" + m_dir + "/docker.sock";
        // overlay2 where the file system allows it, else vfs (slow to copy, but an empty image
        // has nothing to copy).
        if (!start({}) && !start({"--storage-driver=vfs"})) {
            m_skip = "dockerd could not start here: " + tail(m_dir + "/dockerd.log");
            return;
        }
        const std::string tar = m_dir + "/empty.tar";
        { std::ofstream(tar, std::ios::binary) << std::string(10240, '\0'); } // an empty tar
        const auto r = runProcess({kDocker, "-H", m_host, "import", tar, "sv/empty:1"});
        if (r.exitCode != 0) m_skip = "docker import of an empty image failed: " + r.err;
    }

    ~PrivateDockerd() { stop(); }
    PrivateDockerd(const PrivateDockerd&) = delete;
    PrivateDockerd& operator=(const PrivateDockerd&) = delete;

    const std::string& skipReason() const { return m_skip; }
    const std::string& host() const { return m_host; } // unix://.../docker.sock
    const std::string& dir() const { return m_dir; }

    ProcessResult docker(std::vector<std::string> args) const {
        args.insert(args.begin(), {kDocker, "-H", m_host});
        return runProcess(args);
    }
    // Names of every container, running or not.
    std::vector<std::string> containers() const {
        std::vector<std::string> out;
        std::istringstream in(docker({"ps", "-a", "--format", "{{.Names}}"}).out);
        for (std::string line; std::getline(in, line);)
            if (!line.empty()) out.push_back(line);
        return out;
    }

    void stop() {
        if (m_pid > 0) {
            for (const auto& name : containers())
                docker({"rm", "-f", name});
            ::kill(m_pid, SIGTERM);
            if (!reaped(std::chrono::seconds(15))) {
                ::kill(m_pid, SIGKILL);
                reaped(std::chrono::seconds(5));
            }
            m_pid = -1;
        }
        if (m_dir.empty()) return;
        // What dockerd left mounted under its roots (network namespaces, overlays), deepest
        // first, so that the directory can go.
        std::vector<std::string> mounts;
        std::ifstream in("/proc/self/mounts");
        for (std::string dev, point, rest; in >> dev >> point && std::getline(in, rest);)
            if (point.rfind(m_dir + "/", 0) == 0) mounts.push_back(point);
        for (auto it = mounts.rbegin(); it != mounts.rend(); ++it)
            ::umount2(it->c_str(), MNT_DETACH);
        std::error_code ec;
        std::filesystem::remove_all(m_dir, ec);
        m_dir.clear();
    }

  private:
    bool start(const std::vector<std::string>& extra) {
        std::vector<std::string> argv{kDockerd,
                                      "--data-root=" + m_dir + "/data",
                                      "--exec-root=" + m_dir + "/exec",
                                      "-H",
                                      m_host,
                                      "--pidfile=" + m_dir + "/dockerd.pid",
                                      "--bridge=none",
                                      "--iptables=false",
                                      "--ip-masq=false"};
        argv.insert(argv.end(), extra.begin(), extra.end());
        const std::string log = m_dir + "/dockerd.log";
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND,
                                         0644);
        posix_spawn_file_actions_adddup2(&actions, 1, 2);
        std::vector<char*> args;
        for (auto& a : argv)
            args.push_back(a.data());
        args.push_back(nullptr);
        const int rc = posix_spawn(&m_pid, args[0], &actions, nullptr, args.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        if (rc != 0) {
            m_pid = -1;
            return false;
        }
        // Up when the client gets the server's version; down when dockerd exited.
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (std::chrono::steady_clock::now() < deadline) {
            int status = 0;
            if (::waitpid(m_pid, &status, WNOHANG) == m_pid) {
                m_pid = -1;
                return false;
            }
            if (docker({"version", "--format", "{{.Server.Version}}"}).exitCode == 0) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(100)); // a poll with a deadline
        }
        ::kill(m_pid, SIGKILL);
        reaped(std::chrono::seconds(5));
        m_pid = -1;
        return false;
    }

    bool reaped(std::chrono::seconds limit) {
        const auto deadline = std::chrono::steady_clock::now() + limit;
        while (std::chrono::steady_clock::now() < deadline) {
            int status = 0;
            if (::waitpid(m_pid, &status, WNOHANG) == m_pid) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return false;
    }

    static std::string tail(const std::string& path) {
        std::ifstream in(path);
        std::string line, last;
        while (std::getline(in, line))
            if (!line.empty()) last = line;
        return last.empty() ? "(no output)" : last;
    }

    std::string m_dir, m_host, m_skip;
    pid_t m_pid = -1;
};

} // namespace sv::test
