#pragma once
// Shared by the Slurm test binaries: the private cluster each binary brings up once (a gtest
// environment, torn down by PID after the last test), and what their tests read back: the CLI's
// arguments for a Slurm campaign, the ranks srun labelled, the job ids in the journal.

#include "tests/launcher/launchertest.h"
#include "tests/launcher/slurmcluster.h"

#include <chrono>
#include <functional>
#include <gtest/gtest.h>
#include <memory>
#include <set>
#include <sys/wait.h>
#include <thread>

namespace sv::test {

inline SlurmCluster* g_cluster = nullptr;
inline std::string g_unavailable;

class SlurmClusterEnvironment : public ::testing::Environment {
  public:
    explicit SlurmClusterEnvironment(SlurmClusterOptions options = {})
        : m_options(std::move(options)) {}
    void SetUp() override {
        g_unavailable = SlurmCluster::unavailable();
        if (!g_unavailable.empty()) return;
        m_cluster = std::make_unique<SlurmCluster>(m_options);
        if (!m_cluster->error().empty()) {
            g_unavailable = "the private cluster did not come up: " + m_cluster->error();
            return;
        }
        g_cluster = m_cluster.get();
    }
    // Runs after the last test, passed or failed: every daemon stopped by its PID.
    void TearDown() override {
        g_cluster = nullptr;
        m_cluster.reset();
    }

  private:
    SlurmClusterOptions m_options;
    std::unique_ptr<SlurmCluster> m_cluster;
};

// The cluster is up (else skipped where Slurm is not installed, failed where it is).
#define NEED_RUNNING_CLUSTER()                                                                     \
    do {                                                                                           \
        if (!sv::test::g_cluster) {                                                                \
            if (sv::test::g_unavailable.find("not installed") != std::string::npos)                \
                GTEST_SKIP() << sv::test::g_unavailable;                                           \
            FAIL() << sv::test::g_unavailable;                                                     \
        }                                                                                          \
    } while (0)

// ... and no job of an earlier test is left on it.
#define NEED_CLUSTER()                                                                             \
    do {                                                                                           \
        NEED_RUNNING_CLUSTER();                                                                    \
        ASSERT_TRUE(sv::test::g_cluster->drain()) << "jobs of an earlier test are still queued";   \
    } while (0)

inline std::vector<std::string> slurmCliArgs(const std::string& profile, const std::string& out,
                                             const std::string& topologies,
                                             std::vector<std::string> extra = {}) {
    std::vector<std::string> a{kCli,
                               "run",
                               "--scheduler",
                               "slurm",
                               "--slurm-partition",
                               "debug",
                               "--profile",
                               profile,
                               "--topologies",
                               topologies,
                               "--batch-size",
                               "2",
                               "--repeats",
                               "1",
                               "--iterations",
                               "10",
                               "--warmup",
                               "2",
                               "--cooldown",
                               "0",
                               "--grace",
                               "2",
                               "--out",
                               out};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
}

// The ranks that logged a speed line, from srun's labels ("1: ...") or, where one torchrun per
// node starts the ranks, from the workload's own "[rank1]:" tag.
inline std::set<int> loggedRanks(const std::string& log) {
    std::set<int> ranks;
    std::istringstream in(log);
    for (std::string line; std::getline(in, line);) {
        if (line.find("Speed:") == std::string::npos) continue;
        if (line.rfind("[rank", 0) == 0) {
            ranks.insert(std::stoi(line.substr(5)));
            continue;
        }
        const auto colon = line.find(": ");
        if (colon == std::string::npos || colon > 6) continue;
        ranks.insert(std::stoi(line.substr(0, colon)));
    }
    return ranks;
}

inline std::vector<std::string> journalJobIds(const std::string& out) {
    std::vector<std::string> ids;
    std::istringstream in(readWhole(out + "/journal.jsonl"));
    for (std::string line; std::getline(in, line);) {
        auto j = nlohmann::json::parse(line, nullptr, false);
        if (!j.is_discarded() && j["event"] == "job") ids.push_back(j["jobId"]);
    }
    return ids;
}

// Polls `done` until it holds or the deadline passes; false then.
inline bool waitUntil(const std::function<bool()>& done, std::chrono::seconds deadline) {
    const auto end = std::chrono::steady_clock::now() + deadline;
    while (!done()) {
        if (std::chrono::steady_clock::now() > end) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return true;
}

inline int waitExit(pid_t pid) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

} // namespace sv::test
