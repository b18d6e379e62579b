#include "launcher/slurm/slurmpreflight.h"

#include "async/backgroundtask.h"
#include "launcher/exec/commandbatch.h"
#include "launcher/slurm/slurmjobscript.h"
#include "launcher/slurm/slurmstatus.h"

#include <QRandomGenerator>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

namespace sv::launcher {
namespace fs = std::filesystem;

namespace {
constexpr int kQueryMs = 30000;
constexpr int kVisibilityMs = 120000; // the tiny job may wait in the queue

std::vector<std::string> partitionOptions(const SlurmSettings& s) {
    std::vector<std::string> o;
    if (!s.partition.empty()) o.push_back("--partition=" + s.partition);
    if (!s.account.empty()) o.push_back("--account=" + s.account);
    if (!s.qos.empty()) o.push_back("--qos=" + s.qos);
    if (!s.reservation.empty()) o.push_back("--reservation=" + s.reservation);
    return o;
}

} // namespace

std::vector<PreflightFinding> judgeSinfo(const Campaign& c, const std::string& sinfo) {
    const SlurmSettings& s = c.scheduler;
    int nodesNeeded = 1, perNode = 1;
    for (const auto& t : c.topologies) {
        nodesNeeded = std::max(nodesNeeded, t.nodes);
        perNode = std::max(perNode, t.gpusPerNode);
    }
    std::istringstream in(sinfo);
    for (std::string line; std::getline(in, line);) {
        const auto f = splitSlurmFields(line);
        if (f.size() < 5) continue;
        std::string name = f[0];
        const bool isDefault = !name.empty() && name.back() == '*';
        if (isDefault) name.pop_back();
        if (s.partition.empty() ? !isDefault : name != s.partition) continue;
        const std::string where = "partition " + name;
        if (f[1] != "up")
            return {{"slurm", "partition", false, where + " is " + f[1] + ", not up"}};
        const int nodes = std::atoi(f[2].c_str()), cpus = std::atoi(f[3].c_str());
        if (nodes < nodesNeeded)
            return {{"slurm", "partition", false,
                     where + " has " + std::to_string(nodes) + " nodes; the campaign needs " +
                         std::to_string(nodesNeeded)}};
        if (cpus < perNode)
            return {{"slurm", "partition", false,
                     where + " has " + std::to_string(cpus) + " CPUs per node; " +
                         std::to_string(perNode) + " tasks per node need as many"}};
        if (s.gpus && f[4].find("gpu") == std::string::npos)
            return {
                {"slurm", "partition", false,
                 where + " has no gres/gpu (" + f[4] + "); untick GPUs per node or pick another"}};
        return {{"slurm", "partition", true,
                 where + ": up, " + std::to_string(nodes) + " nodes, " + std::to_string(cpus) +
                     " CPUs per node" + (f[4].empty() || f[4] == "(null)" ? "" : ", " + f[4])}};
    }
    return {{"slurm", "partition", false,
             s.partition.empty() ? "sinfo names no default partition: set one"
                                 : "sinfo knows no partition " + s.partition}};
}

void SlurmPreflight::run(const Campaign& campaign, QObject* context, PreflightDone done) {
    const SlurmSettings& s = campaign.scheduler;
    char name[32];
    std::snprintf(name, sizeof name, "preflight-%08x", QRandomGenerator::global()->generate());
    const std::string probe = (fs::absolute(campaign.outputDir) / "slurm" / name).string();
    std::vector<std::string> srun{"srun", "--nodes=1", "--ntasks=1", "--quiet"};
    for (auto& o : partitionOptions(s))
        srun.push_back(std::move(o));
    srun.insert(srun.end(), {"/bin/sh", "-c", "echo visible > \"$1\"", "sh", probe});
    std::vector<BatchCommand> cmds{
        {{"sinfo", "-h", "-o", "%P|%a|%D|%c|%G"}, {}, kQueryMs},
        {{"sacct", "-n", "-X", "-o", "JobID", "-S", "now"}, {}, kQueryMs},
        {{"srun", "--help"}, {}, kQueryMs},
    };
    // The probe's directory must exist before the job writes into it.
    async::runInBackground(
        context,
        [dir = fs::path(probe).parent_path()] {
            std::error_code ec;
            fs::create_directories(dir, ec);
            return ec ? dir.string() + ": " + ec.message() : std::string();
        },
        [campaign, context, cmds, srun, probe, done](std::string dirError) mutable {
            cmds.push_back({srun, {}, kVisibilityMs});
            CommandBatch::run(
                cmds, context,
                [campaign, context, probe, dirError, done](std::vector<BatchResult> r) {
                    auto findings = std::make_shared<std::vector<PreflightFinding>>();
                    if (r[0].exitCode != 0)
                        findings->push_back({"slurm", "sinfo", false,
                                             "sinfo failed: " + r[0].startError + r[0].errors});
                    else
                        for (auto& f : judgeSinfo(campaign, r[0].output))
                            findings->push_back(std::move(f));
                    findings->push_back(
                        {"slurm", "sacct", true,
                         r[1].exitCode == 0
                             ? std::string("sacct answers: job ends come from accounting")
                             : "sacct does not answer (accounting off?): job ends come from "
                               "scontrol, "
                               "which forgets a job MinJobAge after its end"});
                    if (!campaign.scheduler.containerImage.empty()) {
                        const bool pyxis =
                            r[2].output.find("--container-image") != std::string::npos;
                        findings->push_back({"slurm", "pyxis", pyxis,
                                             pyxis ? "srun takes --container-image (pyxis)"
                                                   : "srun --help lists no --container-image: "
                                                     "pyxis is not installed"});
                    }
                    const std::string srunError = r[3].startError + r[3].errors;
                    async::runInBackground(
                        context,
                        [probe] {
                            std::ifstream in(probe);
                            std::string word;
                            in >> word;
                            std::error_code ec;
                            fs::remove(probe, ec);
                            return word == "visible";
                        },
                        [findings, dirError, srunError, probe, done](bool seen) {
                            findings->push_back(
                                {"slurm", "output", seen,
                                 seen ? "the campaign directory is visible from a compute node"
                                      : "a job on a compute node could not write " + probe +
                                            " where this machine reads it" +
                                            (dirError.empty() ? "" : " (" + dirError + ")") +
                                            (srunError.empty() ? "" : ": " + srunError) +
                                            "; the output directory must be on a shared file "
                                            "system"});
                            done(std::move(*findings));
                        });
                });
        });
}

} // namespace sv::launcher
