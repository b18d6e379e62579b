#include "preflight.h"

#include "backgroundtask.h"
#include "commandbatch.h"
#include "outputspace.h"
#include "sshdiagnosis.h"

#include <algorithm>
#include <memory>

namespace sv::launcher {
namespace {

std::string lastLine(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
        text.pop_back();
    const auto nl = text.rfind('\n');
    return nl == std::string::npos ? text : text.substr(nl + 1);
}

struct Check {
    int host;
    std::string name;
};

// The output directory (this machine's file system, so on a worker thread: a hung network
// mount must not hold the caller), then done with every finding.
void checkOutput(const Campaign& campaign, const WorkloadProfile& profile, QObject* context,
                 std::vector<PreflightFinding> findings, const Preflight::Done& done) {
    runInBackground(
        context, [campaign, profile] { return checkOutputSpace(campaign, profile); },
        [findings = std::move(findings), done](OutputSpace space) mutable {
            findings.push_back({"this machine", "output", space.ok(), space.message()});
            done(std::move(findings));
        });
}

} // namespace

void Preflight::run(const Campaign& campaign, const WorkloadProfile& profile, QObject* context,
                    Done done) {
    auto builder = std::make_shared<CommandBuilder>(campaign, profile, std::string());
    const int hosts = std::max<int>(1, static_cast<int>(campaign.hosts.size()));
    int gpusNeeded = 0;
    for (const auto& t : campaign.topologies)
        gpusNeeded = std::max(gpusNeeded, t.gpusPerNode);
    auto python =
        profile.variables.count("python") ? profile.variables.at("python") : std::string("python3");
    if (campaign.variables.count("python")) python = campaign.variables.at("python");
    const int timeoutMs = (campaign.connectTimeoutSeconds + 15) * 1000;
    const bool docker = campaign.container.runtime == "docker";
    const std::string launcher = builder->launcherName();

    std::vector<BatchCommand> cmds;
    auto checks = std::make_shared<std::vector<Check>>();
    for (int h = 0; h < hosts; ++h) {
        if (!campaign.hosts.empty()) {
            cmds.push_back({builder->onHost(h, {"true"}, false), {}, timeoutMs});
            checks->push_back({h, "ssh"});
        }
        if (docker) {
            cmds.push_back({builder->onHost(h,
                                            {"docker", "inspect", "--format", "{{.State.Running}}",
                                             campaign.container.name},
                                            false),
                            {},
                            timeoutMs});
            checks->push_back({h, "container"});
        }
        if (profile.needs == "gpu") {
            cmds.push_back(
                {builder->onHost(h, {"nvidia-smi", "--query-gpu=name", "--format=csv,noheader"},
                                 true),
                 {},
                 timeoutMs});
            checks->push_back({h, "gpus"});
        }
        if (profile.needs == "torch") {
            cmds.push_back(
                {builder->onHost(
                     h, {python, "-c", "import torch, torchvision; print(torch.__version__)"},
                     true),
                 {},
                 timeoutMs + 30000});
            checks->push_back({h, "torch"});
        }
        if (launcher == "mpirun" || launcher == "horovodrun" || launcher == "torchrun") {
            // torchrun has no --version; its --help answers only where it can import torch.
            const std::string probe = launcher == "torchrun" ? "--help" : "--version";
            cmds.push_back({builder->onHost(h, {launcher, probe}, true), {}, timeoutMs + 30000});
            checks->push_back({h, "launcher"});
        }
    }
    CommandBatch::run(std::move(cmds), context, [=](std::vector<BatchResult> results) {
        std::vector<PreflightFinding> out;
        std::vector<bool> unreachable(static_cast<std::size_t>(hosts), false);
        for (std::size_t i = 0; i < results.size(); ++i) {
            const Check& c = (*checks)[i];
            const BatchResult& r = results[i];
            PreflightFinding f;
            f.host = builder->hostName(c.host);
            f.check = c.name;
            const std::string why = r.timedOut ? "no answer within the time limit"
                                    : !r.startError.empty()
                                        ? r.startError
                                        : lastLine(r.errors.empty() ? r.output : r.errors);
            if (c.name != "ssh" && unreachable[static_cast<std::size_t>(c.host)]) continue;
            if (c.name == "ssh") {
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
                                 : "container " + campaign.container.name + " is not running (" +
                                       why + "): start it with docker run (methodology section 1)";
            } else if (c.name == "gpus") {
                int n = 0;
                for (char ch : r.output)
                    n += ch == '\n';
                f.ok = r.exitCode == 0 && n >= gpusNeeded;
                f.message = r.exitCode != 0
                                ? "nvidia-smi failed (" + why +
                                      "): install the NVIDIA driver or run in a GPU container"
                                : std::to_string(n) + " GPUs" +
                                      (f.ok ? ""
                                            : ", the campaign needs " + std::to_string(gpusNeeded) +
                                                  " per node");
            } else if (c.name == "torch") {
                f.ok = r.exitCode == 0;
                f.message = f.ok ? "python3 + torch " + lastLine(r.output)
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
            out.push_back(f);
        }
        checkOutput(campaign, profile, context, std::move(out), done);
    });
}

} // namespace sv::launcher
