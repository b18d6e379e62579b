#include "launcher/slurm/srunexecutor.h"

#include "launcher/campaign/identifiers.h"

#include <QProcess>
#include <QRegularExpression>
#include <QStringList>

#include <chrono>
#include <sstream>
#include <thread>

namespace sv::launcher {
namespace {

// The states in which a job still holds (or waits for) nodes: what squeue must stop listing.
const char* kLiveStates = "PENDING,CONFIGURING,RUNNING,SUSPENDED,COMPLETING,STOPPED";

struct CommandResult {
    int exitCode = -1;
    bool finished = false;
    bool cancelled = false;
    std::string out, err;
};

// Runs argv (no shell) up to timeoutMs; a cancel (seen within a fifth of a second) stops it:
// TERM first (salloc cancels its own pending request on it), KILL two seconds later.
CommandResult runCommand(const std::vector<std::string>& argv, int timeoutMs,
                         const std::atomic<bool>* cancel = nullptr) {
    CommandResult r;
    QProcess p;
    QStringList args;
    for (std::size_t i = 1; i < argv.size(); ++i)
        args << QString::fromStdString(argv[i]);
    p.start(QString::fromStdString(argv.front()), args);
    if (!p.waitForStarted(10000)) {
        r.err = argv.front() + " could not be started: " + p.errorString().toStdString();
        return r;
    }
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    while (!p.waitForFinished(200)) {
        const bool stop = cancel && cancel->load();
        if (stop || std::chrono::steady_clock::now() > end) {
            r.cancelled = stop;
            p.terminate();
            if (!p.waitForFinished(2000)) {
                p.kill();
                p.waitForFinished(2000);
            }
            r.out = p.readAllStandardOutput().toStdString();
            r.err = p.readAllStandardError().toStdString();
            if (!stop)
                r.err = argv.front() + " did not finish within " +
                        std::to_string(timeoutMs / 1000) + " s; " + r.err;
            return r;
        }
    }
    r.finished = p.exitStatus() == QProcess::NormalExit;
    r.exitCode = r.finished ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput().toStdString();
    r.err = p.readAllStandardError().toStdString();
    return r;
}

std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r'))
        s.pop_back();
    const auto first = s.find_first_not_of(" \n");
    return first == std::string::npos ? std::string() : s.substr(first);
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!(line = trimmed(line)).empty()) out.push_back(line);
    return out;
}

// A Slurm node list as squeue prints it ("node[1-2],gpu07"): names, brackets, ranges, commas.
bool isNodeListText(const std::string& s) {
    if (s.empty() || s.size() > 4096 || s.front() == '-') return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' ||
              c == ',' || c == '[' || c == ']'))
            return false;
    return true;
}

bool isJobId(const std::string& s) {
    return !s.empty() && s.size() < 20 &&
           s.find_first_not_of("0123456789") == std::string::npos;
}

// Every line of squeue -h -o %i for the job (by id, or by name when there is none yet).
std::vector<std::string> liveJobs(const SlurmAllocation& a) {
    std::vector<std::string> argv{"squeue", "-h", "-o", "%i", "-t", kLiveStates};
    if (!a.jobId.empty())
        argv.push_back("--jobs=" + a.jobId);
    else
        argv.push_back("--name=" + a.jobName);
    const auto r = runCommand(argv, 30000);
    // A job id Slurm has forgotten already is an error to squeue, and gone.
    if (r.exitCode != 0) return r.err.find("Invalid job id") != std::string::npos
                                    ? std::vector<std::string>{}
                                    : std::vector<std::string>{"?"};
    return lines(r.out);
}

} // namespace

SrunExecutor::SrunExecutor(std::string jobId, std::string node, std::vector<std::string> pyxis)
    : m_jobId(std::move(jobId)), m_node(std::move(node)), m_pyxis(std::move(pyxis)) {}

std::vector<std::string> SrunExecutor::wrap(const std::vector<std::string>& argv) const {
    // One task on the named node, sharing the allocation's CPUs with the other steps
    // (--overlap); no MPI plugin (the probes meet over gloo); srun's own notes left out.
    std::vector<std::string> out{"srun",      "--jobid=" + m_jobId, "--nodes=1",
                                 "--ntasks=1", "--nodelist=" + m_node, "--overlap",
                                 "--quiet",   "--mpi=none"};
    out.insert(out.end(), m_pyxis.begin(), m_pyxis.end());
    out.insert(out.end(), argv.begin(), argv.end());
    return out;
}

std::string SrunExecutor::hostLabel() const {
    return m_node + " (Slurm job " + m_jobId + ")";
}

std::string slurmExcludeList(const Campaign& campaign) {
    std::string list;
    for (const ExcludedNode& x : campaign.excludedNodes)
        list += (list.empty() ? "" : ",") + x.host.name;
    return list;
}

std::vector<std::string> slurmAllocationOptions(const Campaign& c, int gpusPerNode) {
    const SlurmSettings& s = c.scheduler;
    std::vector<std::string> argv;
    if (s.gpus) argv.push_back("--gpus-per-node=" + std::to_string(gpusPerNode));
    auto option = [&argv](const char* flag, const std::string& value) {
        if (!value.empty()) argv.push_back(std::string(flag) + "=" + value);
    };
    option("--partition", s.partition);
    option("--account", s.account);
    option("--qos", s.qos);
    option("--reservation", s.reservation);
    option("--constraint", s.constraint);
    option("--time", s.timeLimit);
    // The nodes left out (--exclude-node): Slurm places the job elsewhere.
    option("--exclude", slurmExcludeList(c));
    if (s.exclusive) argv.push_back("--exclusive");
    return argv;
}

std::vector<std::string> sallocArgv(const Campaign& c, int nodes, int tasksPerNode,
                                    const std::string& tag) {
    std::vector<std::string> argv{"salloc",
                                  "--no-shell",
                                  "--job-name=scaleview-" + tag,
                                  "--nodes=" + std::to_string(nodes),
                                  "--ntasks-per-node=" + std::to_string(tasksPerNode)};
    const auto options = slurmAllocationOptions(c, tasksPerNode);
    argv.insert(argv.end(), options.begin(), options.end());
    return argv;
}

SlurmAllocation allocateForProbes(const Campaign& campaign, int nodes, int tasksPerNode,
                                  const std::string& tag, int timeoutMs,
                                  const std::atomic<bool>* cancel) {
    SlurmAllocation a;
    a.jobName = "scaleview-" + tag;
    auto fail = [&a](std::string why) {
        a.error = std::move(why);
        releaseAllocation(a); // by id, or by name: nothing of it stays queued
        return a;
    };
    const auto salloc = runCommand(sallocArgv(campaign, nodes, tasksPerNode, tag), timeoutMs, cancel);
    // "salloc: Granted job allocation 42" (stderr); else the job found by its name.
    static const QRegularExpression granted(QStringLiteral("Granted job allocation (\\d+)"));
    if (const auto m = granted.match(QString::fromStdString(salloc.err)); m.hasMatch())
        a.jobId = m.captured(1).toStdString();
    if (salloc.cancelled) {
        a.cancelled = true;
        return fail("cancelled");
    }
    if (!salloc.finished || salloc.exitCode != 0)
        return fail("salloc failed (exit " + std::to_string(salloc.exitCode) +
                    "): " + trimmed(salloc.err));
    if (a.jobId.empty()) {
        const auto byName = lines(
            runCommand({"squeue", "-h", "-o", "%i", "--name=" + a.jobName}, 30000).out);
        if (byName.size() == 1 && isJobId(byName[0])) a.jobId = byName[0];
    }
    if (!isJobId(a.jobId))
        return fail("salloc granted no job id that can be read: " + trimmed(salloc.err));
    const auto list = runCommand({"squeue", "-h", "-o", "%N", "--jobs=" + a.jobId}, 30000);
    const std::string nodeList = trimmed(list.out);
    if (list.exitCode != 0 || !isNodeListText(nodeList))
        return fail("squeue did not name the nodes of job " + a.jobId + ": '" + nodeList + "' " +
                    trimmed(list.err));
    const auto names = runCommand({"scontrol", "show", "hostnames", nodeList}, 30000);
    for (const auto& n : lines(names.out)) {
        if (!isValidHostName(n))
            return fail("Slurm named node '" + n + "' of job " + a.jobId +
                        ", which is not a node name");
        a.nodes.push_back(n);
    }
    if (names.exitCode != 0 || int(a.nodes.size()) != nodes)
        return fail("job " + a.jobId + " holds " + std::to_string(a.nodes.size()) +
                    (a.nodes.size() == 1 ? " node" : " nodes") + ", not " + std::to_string(nodes) +
                    ": " + trimmed(names.err));
    // Each node's address as the job script's rendezvous finds it: NodeAddr, else the name.
    static const QRegularExpression addr(QStringLiteral("NodeAddr=(\\S+)"));
    for (const auto& n : a.nodes) {
        const auto shown = runCommand({"scontrol", "show", "node", n}, 30000);
        std::string address = n;
        if (const auto m = addr.match(QString::fromStdString(shown.out)); m.hasMatch())
            address = m.captured(1).toStdString();
        if (!isValidHostName(address))
            return fail("Slurm gives node " + n + " the address '" + address +
                        "', which is not a host name or address");
        a.addresses.push_back(address);
    }
    if (cancel && cancel->load()) {
        a.cancelled = true;
        return fail("cancelled");
    }
    return a;
}

std::string releaseAllocation(const SlurmAllocation& a, int timeoutMs) {
    if (a.jobId.empty() && a.jobName.empty()) return {};
    const auto r = runCommand({"scancel", a.jobId.empty() ? "--name=" + a.jobName : a.jobId},
                              30000);
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    while (std::chrono::steady_clock::now() < end) {
        if (liveJobs(a).empty()) return {};
        std::this_thread::sleep_for(std::chrono::milliseconds(200)); // a poll with a deadline
    }
    return "Slurm job " + (a.jobId.empty() ? a.jobName : a.jobId) +
           " is still listed by squeue " + std::to_string(timeoutMs / 1000) +
           " s after scancel: " + trimmed(r.err);
}

} // namespace sv::launcher
