#pragma once
// A real, private Slurm for the launcher's Slurm tests: munged with its own key and socket,
// slurmctld and two emulated compute nodes (one `slurmd -N nodeX` each; Debian builds Slurm with
// multiple-slurmd), all in a temporary directory with free ports, found by clients through
// SLURM_CONF; optionally a SPANK plugin (the pyxis double) in its plugstack.conf. Every daemon is
// stopped by the PID in its own pid file (checked against /proc/PID/comm), also when a test
// failed; nothing under /etc is read or written.

#include "tests/support/process.h"
#include "tests/launcher/sshnodes.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace sv::test {

struct SlurmClusterOptions {
    // Seconds without an answer from a slurmd before slurmctld sets its node DOWN (and fails the
    // node's jobs). Short only for the cluster whose test kills a slurmd.
    int slurmdTimeout = 30;
    // A SPANK plugin (.so) loaded by srun and every slurmstepd, given record=<pyxisRecord()>.
    std::string spankPlugin;
};

class SlurmCluster {
  public:
    static constexpr int kNodes = 2;
    static constexpr int kCpusPerNode = 4;

    // Empty when the cluster can be brought up here; else why not (for GTEST_SKIP).
    static std::string unavailable() {
        for (const char* p :
             {"/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/sbin/munged", "/usr/bin/sbatch",
              "/usr/bin/squeue", "/usr/bin/scancel", "/usr/bin/scontrol", "/usr/bin/sinfo"})
            if (::access(p, X_OK) != 0)
                return std::string("Slurm is not installed (no ") + p +
                       "; the Makefile's TEST_DEPS install slurmctld slurmd slurm-client munge)";
        if (::geteuid() != 0) return "the private Slurm runs its jobs as root: run as root";
        return {};
    }

    // Starts the daemons and waits until both nodes are idle; error() says why not.
    explicit SlurmCluster(SlurmClusterOptions options = {}) : m_options(std::move(options)) {
        char tmpl[] = "/tmp/sv-slurm-XXXXXX";
        m_dir = ::mkdtemp(tmpl);
        namespace fs = std::filesystem;
        for (const char* d : {"munge", "state", "run", "log", "jobs"})
            fs::create_directories(m_dir + "/" + d);
        for (int i = 1; i <= kNodes; ++i) {
            fs::create_directories(m_dir + "/spool/node" + std::to_string(i));
            fs::create_directories(m_dir + "/tmp/node" + std::to_string(i));
        }
        // munged wants its socket directory executable by all, and not group/other-writable.
        fs::permissions(m_dir, fs::perms(0755));
        fs::permissions(m_dir + "/munge", fs::perms(0755));
        writeKey();
        writeConf();
        ::setenv("SLURM_CONF", conf().c_str(), 1);
        const std::string sock = m_dir + "/munge/munge.socket.2";
        auto started = [this](const ProcessResult& r, const char* what) {
            if (r.exitCode != 0 && m_error.empty())
                m_error = std::string(what) + " did not start: " + r.out + r.err;
        };
        started(runProcess({"/usr/sbin/munged", "--socket=" + sock,
                            "--key-file=" + m_dir + "/munge/munge.key",
                            "--pid-file=" + m_dir + "/munge/munged.pid",
                            "--seed-file=" + m_dir + "/munge/munged.seed",
                            "--log-file=" + m_dir + "/log/munged.log"}),
                "munged");
        started(runProcess({"/usr/sbin/slurmctld", "-f", conf()}), "slurmctld");
        for (int i = 1; i <= kNodes; ++i)
            started(startSlurmd(i), "slurmd");
        if (m_error.empty() && !waitIdle(std::chrono::seconds(30)))
            m_error = "the nodes are not idle after 30 s: " +
                      runProcess({"/usr/bin/sinfo", "-N", "-l"}).out +
                      readWhole(m_dir + "/log/slurmctld.log");
    }

    ~SlurmCluster() { down(); }

    const std::string& error() const { return m_error; }
    const std::string& dir() const { return m_dir; }
    std::string conf() const { return m_dir + "/slurm.conf"; }
    // A directory that the "compute nodes" see (they are this machine), for campaign outputs.
    std::string jobsDir() const { return m_dir + "/jobs"; }

    // What the pyxis double recorded: one line per task that had container options.
    std::string pyxisRecord() const { return m_dir + "/log/pyxis.record"; }

    // Starts emulated node `node`'s slurmd (again, after a test killed it).
    ProcessResult startSlurmd(int node) const {
        return runProcess({"/usr/sbin/slurmd", "-f", conf(), "-N", "node" + std::to_string(node)});
    }

    // The PID of emulated node `node`'s slurmd (1-based), or 0.
    pid_t slurmdPid(int node) const {
        return pidFrom(m_dir + "/run/slurmd-node" + std::to_string(node) + ".pid", "slurmd");
    }

    // Ids of the jobs squeue shows (any state it lists).
    std::vector<std::string> jobs() const {
        const auto r = runProcess({"/usr/bin/squeue", "-h", "-o", "%i"});
        std::vector<std::string> ids;
        std::istringstream in(r.out);
        for (std::string line; std::getline(in, line);)
            if (!line.empty()) ids.push_back(line);
        return ids;
    }

    // Cancels every job and waits until squeue lists none, so that a test starts on idle nodes.
    bool drain(std::chrono::seconds deadline = std::chrono::seconds(20)) const {
        for (const auto& id : jobs())
            runProcess({"/usr/bin/scancel", id});
        const auto end = std::chrono::steady_clock::now() + deadline;
        while (std::chrono::steady_clock::now() < end) {
            if (jobs().empty()) return waitIdle(std::chrono::seconds(10));
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return false;
    }

    // Whether emulated node `node` takes jobs again (idle, or running others' jobs), by then.
    bool waitNodeUp(int node, std::chrono::seconds deadline) const {
        const auto end = std::chrono::steady_clock::now() + deadline;
        while (std::chrono::steady_clock::now() < end) {
            auto r = runProcess(
                {"/usr/bin/sinfo", "-h", "-N", "-n", "node" + std::to_string(node), "-o", "%t"});
            if (r.out == "idle\n" || r.out == "mix\n" || r.out == "alloc\n") return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return false;
    }

    bool waitIdle(std::chrono::seconds deadline) const {
        const auto end = std::chrono::steady_clock::now() + deadline;
        while (std::chrono::steady_clock::now() < end) {
            const auto r = runProcess({"/usr/bin/sinfo", "-h", "-N", "-o", "%t"});
            int idle = 0;
            std::istringstream in(r.out);
            for (std::string line; std::getline(in, line);)
                idle += line == "idle";
            if (r.exitCode == 0 && idle == kNodes) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return false;
    }

  private:
    void writeKey() {
        // 1 KiB of random bytes, as mungekey writes; only this cluster's munged reads it.
        std::ifstream random("/dev/urandom", std::ios::binary);
        std::string key(1024, '\0');
        random.read(key.data(), static_cast<std::streamsize>(key.size()));
        const std::string path = m_dir + "/munge/munge.key";
        std::ofstream(path, std::ios::binary) << key;
        std::filesystem::permissions(path, std::filesystem::perms(0600));
    }

    void writeConf() {
        const int ctld = freePort("127.0.0.1");
        char host[256] = {};
        ::gethostname(host, sizeof host - 1);
        std::ofstream c(conf());
        c << "ClusterName=svtest\nSlurmctldHost=localhost\nSlurmUser=root\nSlurmdUser=root\n"
          << "AuthType=auth/munge\nCredType=cred/munge\n"
          << "AuthInfo=socket=" << m_dir << "/munge/munge.socket.2\n"
          << "SlurmctldPort=" << ctld << "\n"
          << "StateSaveLocation=" << m_dir << "/state\n"
          << "SlurmdSpoolDir=" << m_dir
          << "/spool/%n\n"
          // Per node: srun --mpi=pmix puts its appdir there, and two nodes on one host collide.
          << "TmpFS=" << m_dir << "/tmp/%n\n"
          << "SlurmctldPidFile=" << m_dir << "/run/slurmctld.pid\n"
          << "SlurmdPidFile=" << m_dir << "/run/slurmd-%n.pid\n"
          << "SlurmctldLogFile=" << m_dir << "/log/slurmctld.log\n"
          << "SlurmdLogFile=" << m_dir << "/log/slurmd-%n.log\n"
          << "SlurmdParameters=config_overrides\n"
          << "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n"
          << "SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n"
          << "SchedulerType=sched/backfill\n"
          // Without these a submitted job waits about 3 s for the scheduler.
          << "SchedulerParameters=batch_sched_delay=0,sched_min_interval=0\n"
          << "MpiDefault=none\nReturnToService=2\n"
          << "AccountingStorageType=accounting_storage/none\n"
          << "JobCompType=jobcomp/filetxt\nJobCompLoc=" << m_dir << "/log/jobcomp.txt\n"
          << "SlurmctldTimeout=30\nSlurmdTimeout=" << m_options.slurmdTimeout
          << "\nInactiveLimit=0\nMinJobAge=300\nKillWait=2\n";
        if (!m_options.spankPlugin.empty()) {
            c << "PlugStackConfig=" << m_dir << "/plugstack.conf\n";
            std::ofstream(m_dir + "/plugstack.conf")
                << "required " << m_options.spankPlugin << " record=" << pyxisRecord() << "\n";
        }
        for (int i = 1; i <= kNodes; ++i)
            c << "NodeName=node" << i << " NodeHostname=" << host
              << " NodeAddr=127.0.0.1 Port=" << freePort("127.0.0.1") << " CPUs=" << kCpusPerNode
              << " Boards=1 SocketsPerBoard=1 CoresPerSocket=" << kCpusPerNode
              << " ThreadsPerCore=1 RealMemory=1000 State=UNKNOWN\n";
        c << "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n";
    }

    static pid_t pidFrom(const std::string& pidFile, const std::string& comm) {
        std::ifstream in(pidFile);
        long pid = 0;
        if (!(in >> pid) || pid <= 0) return 0;
        std::string actual = readWhole("/proc/" + std::to_string(pid) + "/comm");
        while (!actual.empty() && actual.back() == '\n')
            actual.pop_back();
        return actual == comm ? static_cast<pid_t>(pid) : 0;
    }

    // TERM, then KILL after `seconds`, each PID ours (from our pid files or our /proc scan).
    static void stop(const std::vector<pid_t>& pids, int seconds) {
        for (pid_t p : pids)
            ::kill(p, SIGTERM);
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
        for (pid_t p : pids) {
            while (::kill(p, 0) == 0 && std::chrono::steady_clock::now() < end)
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            if (::kill(p, 0) == 0) ::kill(p, SIGKILL);
        }
    }

    // slurmstepd processes of this cluster: slurmd double-forks them, so no pid file names them;
    // their working directory is under ours.
    std::vector<pid_t> ourStepds() const {
        std::vector<pid_t> out;
        for (const auto& e : std::filesystem::directory_iterator("/proc")) {
            const std::string name = e.path().filename().string();
            if (name.find_first_not_of("0123456789") != std::string::npos) continue;
            if (readWhole(e.path().string() + "/comm") != "slurmstepd\n") continue;
            std::error_code ec;
            const auto cwd = std::filesystem::read_symlink(e.path() / "cwd", ec).string();
            if (!ec && cwd.rfind(m_dir + "/", 0) == 0) out.push_back(std::stoi(name));
        }
        return out;
    }

    void down() {
        if (pidFrom(m_dir + "/run/slurmctld.pid", "slurmctld")) drain(std::chrono::seconds(5));
        std::vector<pid_t> slurmds;
        for (int i = 1; i <= kNodes; ++i)
            if (pid_t p = slurmdPid(i)) slurmds.push_back(p);
        stop(slurmds, 30);
        stop(ourStepds(), 5);
        std::vector<pid_t> rest;
        if (pid_t p = pidFrom(m_dir + "/run/slurmctld.pid", "slurmctld")) rest.push_back(p);
        if (pid_t p = pidFrom(m_dir + "/munge/munged.pid", "munged")) rest.push_back(p);
        stop(rest, 15);
        if (!std::getenv("SCALEVIEW_KEEP_SLURM")) std::filesystem::remove_all(m_dir);
    }

    SlurmClusterOptions m_options;
    std::string m_dir;
    std::string m_error;
};

} // namespace sv::test
