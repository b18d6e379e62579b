#include "launcher/exec/commandbuilder.h"

#include "launcher/exec/localexecutor.h"
#include "launcher/exec/sshexecutor.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace sv::launcher {
namespace {

// Prints the pid of every process whose environment holds the tag, after signalling it; with
// signal 0 it only lists. Tag and signal arrive as $1 and $2, never inside the script text; a
// third argument asks for the run's end: signal, then a moment for the signalled to be reaped,
// then list only what is still there (one connection to the host, not two).
// One grep over every /proc/PID/environ where grep reads NUL-separated lines (GNU grep, busybox
// with -z): a tr and a grep per process cost seconds on a node with many processes. Elsewhere,
// the per-process loop.
const char* kSweepScript =
    "t=\"SCALEVIEW_RUN_TAG=$1\"; "
    "s() { if printf 'x\\0' | grep -qzxF x 2>/dev/null; then "
    "grep -lszxF \"$t\" /proc/[0-9]*/environ | while read -r f; do p=${f#/proc/}; p=${p%/environ}; "
    "kill -\"$1\" \"$p\" 2>/dev/null && echo \"$p\"; done; "
    "else for d in /proc/[0-9]*; do p=${d#/proc/}; "
    "if tr '\\0' '\\n' < \"$d/environ\" 2>/dev/null | grep -qxF \"$t\"; then "
    "kill -\"$1\" \"$p\" 2>/dev/null && echo \"$p\"; fi; done; fi; }; "
    "if [ -n \"$3\" ]; then s \"$2\" >/dev/null; sleep 0.3 2>/dev/null || sleep 1; s 0; "
    "else s \"$2\"; fi; exit 0";

} // namespace

CommandBuilder::CommandBuilder(Campaign campaign, WorkloadProfile profile, std::string workloadDir)
    : m_campaign(std::move(campaign)), m_profile(std::move(profile)),
      m_workloadDir(std::move(workloadDir)),
      m_launcher(m_campaign.launcher.empty() ? m_profile.defaultLauncher : m_campaign.launcher),
      m_containers(m_campaign, m_profile), m_ssh(m_campaign, m_profile, perNode()) {}

std::string CommandBuilder::scriptPath() const {
    return m_profile.scriptName.empty() ? std::string()
                                        : m_workloadDir + "/" + m_profile.scriptName;
}

void CommandBuilder::setRendezvousAddresses(std::vector<std::string> addresses) {
    if (addresses.size() == m_campaign.hosts.size()) m_rendezvous = std::move(addresses);
}

std::string CommandBuilder::rendezvous(int index) const {
    const auto i = static_cast<std::size_t>(index);
    return i < m_rendezvous.size() ? m_rendezvous[i] : m_campaign.hosts.at(i).rendezvous();
}

int CommandBuilder::hostCount(const PlannedRun& run) const {
    return m_campaign.hosts.empty() ? 0 : run.key.topology.nodes;
}

int CommandBuilder::sweepHostCount(const PlannedRun& run) const {
    const bool docker = m_campaign.container.runtime == "docker";
    return std::max(hostCount(run), docker ? 1 : 0);
}

int CommandBuilder::sweepHostCount() const {
    const bool docker = m_campaign.container.runtime == "docker";
    return std::max(static_cast<int>(m_campaign.hosts.size()), docker ? 1 : 0);
}

std::string CommandBuilder::hostName(int index) const {
    return m_campaign.hosts.empty() ? std::string("this machine")
                                    : m_campaign.hosts.at(static_cast<std::size_t>(index)).name;
}

std::string CommandBuilder::hostOfRank(const PlannedRun& run, int rank) const {
    // -map-by slot fills each host's slots in -H order.
    const int node = rank / std::max(1, run.key.topology.gpusPerNode);
    if (m_campaign.hosts.empty() || node >= run.key.topology.nodes) return hostName(0);
    return hostName(node);
}

bool CommandBuilder::perNode() const {
    auto it = m_profile.launchers.find(m_launcher);
    return it != m_profile.launchers.end() && it->second.perNode;
}

std::string CommandBuilder::failureMarker() const {
    auto it = m_profile.launchers.find(m_launcher);
    return it == m_profile.launchers.end() ? std::string() : it->second.failureMarker;
}

bool CommandBuilder::choosesMasterPort() const {
    return m_profile.variables.count("master_port") && !m_campaign.variables.count("master_port");
}

int CommandBuilder::freeLocalPort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return 0;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_ANY);
    a.sin_port = 0; // the kernel's choice among the free ones
    socklen_t length = sizeof a;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &length) == 0)
        port = ntohs(a.sin_port);
    ::close(fd);
    return port;
}

std::string CommandBuilder::substitute(const std::string& text, const PlannedRun& run,
                                       int node) const {
    const Topology& t = run.key.topology;
    auto value = [&](const std::string& name) -> std::optional<std::string> {
        if (name == "ranks") return std::to_string(t.ranks());
        if (name == "nodes") return std::to_string(t.nodes);
        if (name == "node_rank") return std::to_string(node);
        if (name == "gpus_per_node") return std::to_string(t.gpusPerNode);
        if (name == "batch") return std::to_string(run.key.batchPerDevice);
        if (name == "global_batch") return std::to_string(run.key.batchPerDevice * t.ranks());
        if (name == "iterations") return std::to_string(m_campaign.iterations);
        if (name == "precision") return run.key.precision;
        if (name == "script") return scriptPath();
        if (name == "workload_dir") return m_workloadDir;
        if (name == "gpu_list") {
            std::string s;
            for (int g = 0; g < t.gpusPerNode; ++g)
                s += (g ? "," : "") + std::to_string(g);
            return s;
        }
        if (name == "host_slots") {
            if (t.nodes == 1) return "localhost:" + std::to_string(t.gpusPerNode);
            // Outside a container the launcher's own ssh hop reads the same ssh config, so the
            // names stay (their User, Port, keys); inside one, that hop is the containers' sshd,
            // which knows no alias of this machine's config: the resolved addresses.
            const bool docker = m_campaign.container.runtime == "docker";
            std::string s;
            for (int n = 0; n < t.nodes; ++n)
                s += (n ? "," : "") +
                     (docker ? rendezvous(n)
                             : m_campaign.hosts.at(static_cast<std::size_t>(n)).name) +
                     ":" + std::to_string(t.gpusPerNode);
            return s;
        }
        if (name == "master_addr")
            return t.nodes == 1 || m_campaign.hosts.empty() ? std::string("127.0.0.1")
                                                            : rendezvous(0);
        if (auto it = m_campaign.variables.find(name); it != m_campaign.variables.end())
            return it->second;
        if (name == "master_port" && m_masterPort > 0) return std::to_string(m_masterPort);
        if (auto it = m_profile.variables.find(name); it != m_profile.variables.end())
            return it->second;
        return std::nullopt;
    };
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        const auto close = text[i] == '{' ? text.find('}', i) : std::string::npos;
        if (close != std::string::npos) {
            if (auto v = value(text.substr(i + 1, close - i - 1))) {
                out += *v;
                i = close + 1;
                continue;
            }
        }
        out += text[i++];
    }
    return out;
}

void CommandBuilder::expand(const std::vector<std::string>& templ, const PlannedRun& run, int node,
                            std::vector<std::string>& out) const {
    for (const auto& word : templ) {
        if (word == "{mpi_env}") {
            // mpirun forwards no environment by itself: name every variable the ranks need.
            for (const auto& [name, value] : m_profile.env)
                out.insert(out.end(), {"-x", name});
            out.insert(out.end(), {"-x", kRunTagVariable});
        } else if (word == "{mpi_ssh_agent}") {
            // mpirun's own ssh hop to the other nodes honours the campaign's ssh config too.
            // Not inside a container: the file is this machine's, not the container's, and
            // there the hop is the containers' own sshd (the profile's ssh port, methodology 1).
            if (!m_campaign.sshConfig.empty() && run.key.topology.nodes > 1 &&
                m_campaign.container.runtime != "docker")
                out.insert(out.end(), {"-mca", "plm_rsh_agent",
                                       "ssh -F " + m_campaign.sshConfig +
                                           " -o BatchMode=yes -o StrictHostKeyChecking=accept-new "
                                           "-o ConnectTimeout=" +
                                           std::to_string(m_campaign.connectTimeoutSeconds) +
                                           " -o ServerAliveInterval=" +
                                           std::to_string(m_campaign.aliveIntervalSeconds) +
                                           " -o ServerAliveCountMax=" +
                                           std::to_string(m_campaign.aliveCountMax)});
        } else {
            out.push_back(substitute(word, run, node));
        }
    }
}

std::vector<std::string> CommandBuilder::workloadArgv(const PlannedRun& run, int node) const {
    std::vector<std::string> argv;
    expand(m_profile.launchers.at(m_launcher).argv, run, node, argv);
    const auto program = programArgv(run, node);
    argv.insert(argv.end(), program.begin(), program.end());
    return argv;
}

std::vector<std::string> CommandBuilder::programArgv(const PlannedRun& run, int node) const {
    std::vector<std::string> argv;
    expand(m_profile.program, run, node, argv);
    if (auto it = m_profile.precisionArgs.find(run.key.precision);
        it != m_profile.precisionArgs.end())
        expand(it->second, run, node, argv);
    expand(m_profile.args, run, node, argv);
    return argv;
}

std::unique_ptr<Executor> CommandBuilder::executor(int index) const {
    if (m_campaign.hosts.empty()) return std::make_unique<LocalExecutor>();
    return std::make_unique<SshExecutor>(m_campaign.hosts.at(static_cast<std::size_t>(index)),
                                         SshOptions::fromCampaign(m_campaign));
}

namespace {

// Runs each argv inside the campaign's container on one host: what onHost(index, argv, true)
// builds. Holds its own copy of the builder's pieces it needs (an executor outlives no builder
// it was made from, but a worker thread may hold it while the GUI thread goes on).
class ContainerRankExecutor : public Executor {
  public:
    ContainerRankExecutor(std::vector<std::string> execPrefix, std::unique_ptr<Executor> host,
                          bool overSsh, std::string label)
        : m_exec(std::move(execPrefix)), m_host(std::move(host)), m_overSsh(overSsh),
          m_label(std::move(label)) {}
    std::vector<std::string> wrap(const std::vector<std::string>& argv) const override {
        std::vector<std::string> cmd = m_exec;
        cmd.insert(cmd.end(), argv.begin(), argv.end());
        // "exec" leaves no shell between sshd's session and the command.
        if (m_overSsh) cmd.insert(cmd.begin(), "exec");
        return m_host->wrap(cmd);
    }
    std::string hostLabel() const override { return m_label; }
    bool isRemote() const override { return m_host->isRemote(); }

  private:
    std::vector<std::string> m_exec;
    std::unique_ptr<Executor> m_host;
    bool m_overSsh;
    std::string m_label;
};

} // namespace

std::unique_ptr<Executor> CommandBuilder::rankExecutor(int index) const {
    if (m_campaign.container.runtime != "docker") return executor(index);
    auto host = executor(index);
    std::string label = host->hostLabel() + " (container " + m_containers.name(index) + ")";
    return std::make_unique<ContainerRankExecutor>(m_containers.exec(index), std::move(host),
                                                   !m_campaign.hosts.empty(), std::move(label));
}

std::vector<std::string> CommandBuilder::onHost(int index, const std::vector<std::string>& argv,
                                                bool inContainer) const {
    if (inContainer && m_campaign.container.runtime == "docker")
        return rankExecutor(index)->wrap(argv);
    std::vector<std::string> cmd = argv;
    // "exec" leaves no shell between sshd's session and the command.
    if (!m_campaign.hosts.empty()) cmd.insert(cmd.begin(), "exec");
    return executor(index)->wrap(cmd);
}

std::vector<std::string> CommandBuilder::probe(int index, const std::vector<std::string>& argv,
                                               bool gpus) const {
    if (m_containers.managed()) return onHost(index, m_containers.once(argv, gpus), false);
    return onHost(index, argv, true);
}

std::vector<std::string> CommandBuilder::runArgv(const PlannedRun& run, const std::string& tag,
                                                 int node) const {
    std::vector<std::string> env;
    for (const auto& [name, value] : m_profile.env)
        env.push_back(name + "=" + value);
    env.push_back(std::string(kRunTagVariable) + "=" + tag);
    std::vector<std::string> cmd;
    if (m_campaign.container.runtime == "docker") {
        // Across the launcher's containers, mpirun/horovodrun's ssh is the campaign's (its key,
        // known hosts and the port of the sshd started in each container).
        const bool sshd = m_ssh.needed() && run.key.topology.nodes > 1;
        if (sshd)
            for (const auto& e : ContainerSsh::workloadEnv())
                env.push_back(e);
        cmd = m_containers.exec(node, env);
        if (sshd) {
            const auto prefix = m_ssh.workloadPrefix();
            cmd.insert(cmd.end(), prefix.begin(), prefix.end());
        }
    } else {
        cmd = {"env"};
        cmd.insert(cmd.end(), env.begin(), env.end());
    }
    const auto workload = workloadArgv(run, node);
    cmd.insert(cmd.end(), workload.begin(), workload.end());
    if (!m_campaign.hosts.empty()) cmd.insert(cmd.begin(), "exec");
    return executor(node)->wrap(cmd);
}

std::vector<Launch> CommandBuilder::launches(const PlannedRun& run, const std::string& tag) const {
    std::vector<Launch> out;
    const int count = perNode() ? std::max(1, run.key.topology.nodes) : 1;
    for (int node = 0; node < count; ++node)
        out.push_back({node, runArgv(run, tag, node)});
    return out;
}

std::vector<std::string> CommandBuilder::sweepArgv(int index, const std::string& tag,
                                                   const std::string& signal, bool thenList) const {
    std::vector<std::string> argv{"sh", "-c", kSweepScript, "sh", tag, signal};
    if (thenList) argv.push_back("then-list");
    return onHost(index, argv, true);
}

} // namespace sv::launcher
