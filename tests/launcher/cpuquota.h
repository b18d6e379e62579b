#pragma once
// A node made slow for real, by the kernel: a cgroup (v1 cpu controller) whose processes share
// `pct` % of one CPU under CFS bandwidth control, as a node held down by its power cap or clocks
// is. A process joins it by writing its pid to procs(); its children stay in it (an sshd put
// there takes every session, and so every rank, it starts). Removed when the test ends, what
// still runs in it moved back to the root group first; skipReason() says why not where the
// controller cannot be written.

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <sys/types.h>
#include <thread>

namespace sv::test {

class CpuQuota {
  public:
    explicit CpuQuota(int pct) {
        const std::filesystem::path root = "/sys/fs/cgroup/cpu";
        std::random_device rd;
        m_dir = root / ("sv-quota-" + std::to_string(rd()));
        std::error_code ec;
        if (!std::filesystem::create_directory(m_dir, ec)) {
            m_skip = "no cgroup v1 cpu controller to write at " + root.string() + " (" +
                     ec.message() + "): CFS bandwidth control is how this test slows a node";
            m_dir.clear();
            return;
        }
        std::ofstream(m_dir / "cpu.cfs_period_us") << 100000;
        std::ofstream quota(m_dir / "cpu.cfs_quota_us");
        if (!(quota << pct * 1000 << std::flush)) m_skip = "cpu.cfs_quota_us cannot be written";
    }
    ~CpuQuota() {
        if (m_dir.empty()) return;
        // What still runs in it (an sshd the fixture stops later) goes back to the root group.
        {
            std::ifstream in(procs());
            for (std::string pid; std::getline(in, pid);)
                std::ofstream(m_dir.parent_path() / "cgroup.procs") << pid << std::flush;
        }
        std::error_code ec;
        for (int i = 0; i < 50 && !std::filesystem::remove(m_dir, ec); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    CpuQuota(const CpuQuota&) = delete;
    CpuQuota& operator=(const CpuQuota&) = delete;

    const std::string& skipReason() const { return m_skip; }
    std::string procs() const { return (m_dir / "cgroup.procs").string(); }
    // Moves process `pid` (and what it starts from now on) into the cgroup.
    bool add(pid_t pid) const {
        std::ofstream out(procs());
        return static_cast<bool>(out << pid << std::flush);
    }

  private:
    std::filesystem::path m_dir;
    std::string m_skip;
};

} // namespace sv::test
