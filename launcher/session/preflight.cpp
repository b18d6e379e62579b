#include "launcher/session/preflight.h"

#include "launcher/slurm/slurmpreflight.h"

#include "async/backgroundtask.h"
#include "launcher/campaign/outputspace.h"
#include "launcher/container/containerpreflight.h"
#include "launcher/exec/commandbatch.h"
#include "launcher/monitor/busyhosts.h"
#include "launcher/ssh/hostaddresses.h"
#include "launcher/ssh/sshdiagnosis.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <sstream>
#include <tuple>

namespace sv::launcher {

namespace {

struct Check {
    int host;
    std::string name;
    int container = -1; // index of a ContainerCheck
};

// Run on each host (in the container, where the ranks run) with the addresses as arguments:
// each must resolve there (getaddrinfo, as the ranks' resolver) and have a route from there
// (connecting a UDP socket picks a route and sends nothing: no listener, ICMP or tool needed).
const char* kRendezvousProbe =
    "import socket, sys\n"
    "for a in sys.argv[1:]:\n"
    "    try:\n"
    "        ai = socket.getaddrinfo(a, 9, type=socket.SOCK_DGRAM)\n"
    "    except OSError as e:\n"
    "        print('unresolved', a, e); continue\n"
    "    try:\n"
    "        s = socket.socket(ai[0][0], socket.SOCK_DGRAM); s.connect(ai[0][4])\n"
    "        print('ok', a, ai[0][4][0], 'from', s.getsockname()[0]); s.close()\n"
    "    except OSError as e:\n"
    "        print('unroutable', a, ai[0][4][0], e)\n";

// What the probe printed on one host: each address it reached, or why it could not.
PreflightFinding judgeRendezvous(const BatchResult& r, const std::string& host) {
    PreflightFinding f;
    f.host = host;
    f.check = "rendezvous";
    if (r.exitCode != 0) {
        f.message = "could not check the rendezvous address(es) from here (" +
                    (r.timedOut ? std::string("no answer within the time limit")
                                : lastLineOf(r.errors + r.startError)) +
                    ")";
        return f;
    }
    std::istringstream lines(r.output);
    std::string line;
    std::vector<std::string> bad, good;
    while (std::getline(lines, line)) {
        std::istringstream words(line);
        std::string verdict, address;
        words >> verdict >> address;
        std::string rest;
        std::getline(words, rest);
        if (!rest.empty() && rest.front() == ' ') rest.erase(0, 1);
        if (verdict == "ok")
            good.push_back(address + " (" + rest + ")");
        else if (verdict == "unresolved")
            bad.push_back("'" + address + "' does not resolve here (" + rest + ")");
        else if (verdict == "unroutable")
            bad.push_back("'" + address + "' has no route from here (" + rest + ")");
    }
    f.ok = bad.empty() && !good.empty();
    std::string text;
    for (const auto& b : (f.ok ? good : bad))
        text += (text.empty() ? "" : "; ") + b;
    f.message = f.ok ? "rendezvous reachable: " + text
                : bad.empty()
                    ? "the rendezvous check printed nothing"
                    : "ranks here cannot reach the rendezvous: " + text +
                          "; give the host's address its ranks can reach as NAME=ADDRESS "
                          "(--hosts, or the host's address in the campaign), or make the name "
                          "resolve on every host (DNS or /etc/hosts)";
    return f;
}

// Every rendezvous address the campaign's multi-node runs put on a command line, checked from
// every host that runs ranks. Hosts in `skip` (SSH failed) are left out.
void checkRendezvous(const Campaign& campaign, const WorkloadProfile& profile,
                     const std::vector<bool>& skip, QObject* context,
                     std::function<void(std::vector<PreflightFinding>)> done) {
    int nodes = 0;
    for (const auto& t : campaign.topologies)
        nodes = std::max(nodes, t.nodes);
    if (campaign.hosts.empty() || nodes < 2) {
        done({});
        return;
    }
    resolveHostAddresses(campaign, context, [=](HostAddresses resolved) {
        auto builder = std::make_shared<CommandBuilder>(campaign, profile, std::string());
        builder->setRendezvousAddresses(resolved.addresses);
        // torch's MASTER_ADDR is the first host's; in a container the -H list is all of them.
        std::vector<std::string> addresses{builder->rendezvous(0)};
        if (campaign.container.runtime == "docker")
            for (int n = 1; n < std::min(nodes, static_cast<int>(campaign.hosts.size())); ++n)
                addresses.push_back(builder->rendezvous(n));
        std::string python = "python3";
        if (auto it = profile.variables.find("python"); it != profile.variables.end())
            python = it->second;
        if (auto it = campaign.variables.find("python"); it != campaign.variables.end())
            python = it->second;
        std::vector<BatchCommand> cmds;
        auto hosts = std::make_shared<std::vector<int>>();
        const int ranksHosts = std::min(nodes, static_cast<int>(campaign.hosts.size()));
        for (int h = 0; h < ranksHosts; ++h) {
            if (h < static_cast<int>(skip.size()) && skip[static_cast<std::size_t>(h)]) continue;
            std::vector<std::string> argv{python, "-c", kRendezvousProbe};
            argv.insert(argv.end(), addresses.begin(), addresses.end());
            cmds.push_back(
                {builder->probe(h, argv), {}, (campaign.connectTimeoutSeconds + 15) * 1000});
            hosts->push_back(h);
        }
        CommandBatch::run(std::move(cmds), context, [=](std::vector<BatchResult> results) {
            std::vector<PreflightFinding> out;
            for (const auto& p : resolved.problems)
                out.push_back({builder->hostName(0), "rendezvous", false, p});
            for (std::size_t i = 0; i < results.size(); ++i)
                out.push_back(judgeRendezvous(results[i], builder->hostName((*hosts)[i])));
            done(std::move(out));
        });
    });
}

// The output directory (this machine's file system, so on a worker thread: a hung network
// mount must not hold the caller), then done with every finding.
void checkOutput(const Campaign& campaign, const WorkloadProfile& profile, QObject* context,
                 std::vector<PreflightFinding> findings, const Preflight::Done& done) {
    async::runInBackground(
        context, [campaign, profile] { return checkOutputSpace(campaign, profile); },
        [findings = std::move(findings), done](OutputSpace space) mutable {
            findings.push_back({"this machine", "output", space.ok(), space.message()});
            done(std::move(findings));
        });
}

// What preflight asks each host (in order), and what each answer is about.
struct CheckPlan {
    std::vector<BatchCommand> commands;
    std::vector<Check> checks;                   // one per command
    std::vector<ContainerCheck> containerChecks; // those a Check points to
};

CheckPlan planChecks(const Campaign& campaign, const WorkloadProfile& profile,
                     const CommandBuilder& builder, const std::string& python, int timeoutMs) {
    const int hosts = std::max<int>(1, static_cast<int>(campaign.hosts.size()));
    const bool docker = campaign.container.runtime == "docker";
    const std::string launcher = builder.launcherName();
    CheckPlan plan;
    auto& cmds = plan.commands;
    for (int h = 0; h < hosts; ++h) {
        const std::size_t first = cmds.size();
        if (!campaign.hosts.empty()) {
            cmds.push_back({builder.onHost(h, {"true"}, false), {}, timeoutMs});
            plan.checks.push_back({h, "ssh"});
        }
        for (auto& cc : ContainerPreflight::checks(builder, h, timeoutMs)) {
            cmds.push_back(cc.command);
            plan.checks.push_back({h, cc.name, static_cast<int>(plan.containerChecks.size())});
            plan.containerChecks.push_back(std::move(cc));
        }
        if (docker && !campaign.container.managed()) {
            auto inspect = builder.containers().docker();
            inspect.insert(inspect.end(),
                           {"inspect", "--format", "{{.State.Running}}", campaign.container.name});
            cmds.push_back({builder.onHost(h, inspect, false), {}, timeoutMs});
            plan.checks.push_back({h, "container"});
        }
        if (profile.needs == "gpu") {
            cmds.push_back(
                {builder.probe(h, {"nvidia-smi", "--query-gpu=name", "--format=csv,noheader"},
                               true),
                 {},
                 timeoutMs});
            plan.checks.push_back({h, "gpus"});
        }
        if (profile.needs == "torch") {
            cmds.push_back(
                {builder.probe(
                     h, {python, "-c", "import torch, torchvision; print(torch.__version__)"}),
                 {},
                 timeoutMs + 30000});
            plan.checks.push_back({h, "torch"});
        }
        if (launcher == "mpirun" || launcher == "horovodrun" || launcher == "torchrun") {
            // torchrun has no --version; its --help answers only where it can import torch.
            const std::string probe = launcher == "torchrun" ? "--help" : "--version";
            cmds.push_back({builder.probe(h, {launcher, probe}), {}, timeoutMs + 30000});
            plan.checks.push_back({h, "launcher"});
        }
        // A handful of logins at a time per host (see BatchCommand::host).
        if (!campaign.hosts.empty())
            for (std::size_t k = first; k < cmds.size(); ++k)
                cmds[k].host = builder.hostName(h);
    }
    return plan;
}

// The verdict on one answer; none for a check of a host found unreachable before it (its
// ssh, docker or image failed). unreachable is updated with what this answer says.
std::optional<PreflightFinding> judgeCheck(const Campaign& campaign, const CommandBuilder& builder,
                                           const CheckPlan& plan, const Check& c,
                                           const BatchResult& r, int gpusNeeded,
                                           const std::string& python,
                                           std::vector<bool>& unreachable) {
    const std::string launcher = builder.launcherName();
    PreflightFinding f;
    f.host = builder.hostName(c.host);
    f.check = c.name;
    const std::string why = failureLine(r);
    if (c.name != "ssh" && unreachable[static_cast<std::size_t>(c.host)]) return std::nullopt;
    if (c.name != "ssh" && !campaign.hosts.empty() && loginFailed(r)) {
        // The check never ran: its verdict would blame the host for ssh's failure.
        f.ok = false;
        f.message = "could not log in to check it (" + why +
                    "): the host turned this login away (busy, or its sshd's "
                    "MaxStartups); run preflight again";
    } else if (c.container >= 0) {
        const ContainerCheck& cc = plan.containerChecks[static_cast<std::size_t>(c.container)];
        std::tie(f.ok, f.message) = ContainerPreflight::judge(builder, cc, r, f.host);
        // Without docker or the image, nothing can be checked inside the container.
        if (!f.ok && (cc.name == "docker" || cc.name == "image"))
            unreachable[static_cast<std::size_t>(c.host)] = true;
    } else if (c.name == "ssh") {
        f.ok = r.exitCode == 0;
        const SshDiagnosis d =
            f.ok ? SshDiagnosis{}
                 : diagnoseSsh(r.errors, campaign.hosts[static_cast<std::size_t>(c.host)],
                               campaign.sshConfig);
        f.message = f.ok ? "reachable"
                    : d.failure != SshFailure::Other
                        ? "SSH failed (" + why + "): " + d.advice
                        : "SSH failed (" + why +
                              "): check that the host is up, that "
                              "key login works without a password (BatchMode), and that "
                              "its host key is known or new";
        unreachable[static_cast<std::size_t>(c.host)] = !f.ok;
    } else if (c.name == "container") {
        f.ok = r.exitCode == 0 && r.output.rfind("true", 0) == 0;
        f.message = f.ok ? "container " + campaign.container.name + " running"
                         : "container " + campaign.container.name + " is not running (" + why +
                               "): start it with docker run (methodology section 1)";
    } else if (c.name == "gpus") {
        int n = 0;
        for (char ch : r.output)
            n += ch == '\n';
        f.ok = r.exitCode == 0 && n >= gpusNeeded;
        f.message =
            r.exitCode != 0
                ? "nvidia-smi failed (" + why +
                      "): install the NVIDIA driver or run in a GPU container"
                : std::to_string(n) + " GPUs" +
                      (f.ok ? ""
                            : ", the campaign needs " + std::to_string(gpusNeeded) + " per node");
    } else if (c.name == "torch") {
        f.ok = r.exitCode == 0;
        f.message = f.ok ? "python3 + torch " + lastLineOf(r.output)
                         : python + " cannot import torch and torchvision (" + why +
                               "): apt-get install python3-torch python3-torchvision";
    } else {
        f.ok = r.exitCode == 0;
        f.message = f.ok ? launcher + " found"
                         : launcher + " not found or failing (" + why + "): install " +
                               (launcher == "mpirun"     ? std::string("openmpi-bin")
                                : launcher == "torchrun" ? std::string("python3-torch")
                                                         : std::string("Horovod"));
    }
    return f;
}

} // namespace

void Preflight::run(const Campaign& campaign, const WorkloadProfile& profile, QObject* context,
                    Done done) {
    if (campaign.scheduler.enabled()) return SlurmPreflight::run(campaign, context, done);
    auto builder = std::make_shared<CommandBuilder>(campaign, profile, std::string());
    const int hosts = std::max<int>(1, static_cast<int>(campaign.hosts.size()));
    int gpusNeeded = 0;
    for (const auto& t : campaign.topologies)
        gpusNeeded = std::max(gpusNeeded, t.gpusPerNode);
    auto python =
        profile.variables.count("python") ? profile.variables.at("python") : std::string("python3");
    if (campaign.variables.count("python")) python = campaign.variables.at("python");
    const int timeoutMs = (campaign.connectTimeoutSeconds + 15) * 1000;

    auto plan =
        std::make_shared<CheckPlan>(planChecks(campaign, profile, *builder, python, timeoutMs));
    std::vector<BatchCommand> cmds = std::move(plan->commands);
    CommandBatch::run(std::move(cmds), context, [=](std::vector<BatchResult> results) {
        std::vector<PreflightFinding> out;
        std::vector<bool> unreachable(static_cast<std::size_t>(hosts), false);
        for (std::size_t i = 0; i < results.size(); ++i)
            if (auto f = judgeCheck(campaign, *builder, *plan, plan->checks[i], results[i],
                                    gpusNeeded, python, unreachable))
                out.push_back(*f);
        checkRendezvous(
            campaign, profile, unreachable, context,
            [out, done, campaign, profile, context](std::vector<PreflightFinding> more) mutable {
                out.insert(out.end(), more.begin(), more.end());
                // Hosts already busy: a warning, after the checks that can fail.
                checkBusyHosts(campaign, profile, context,
                               [out, done, campaign, profile,
                                context](std::vector<PreflightFinding> busy) mutable {
                                   out.insert(out.end(), busy.begin(), busy.end());
                                   checkOutput(campaign, profile, context, std::move(out), done);
                               });
            });
    });
}

} // namespace sv::launcher
