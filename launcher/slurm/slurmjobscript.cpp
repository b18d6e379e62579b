#include "launcher/slurm/slurmjobscript.h"

#include "launcher/exec/shellquote.h"
#include "launcher/slurm/srunexecutor.h"

#include <filesystem>

namespace sv::launcher {
namespace fs = std::filesystem;

namespace {

// srun sets SLURM_PROCID and friends; workloads written for torchrun or Open MPI read RANK,
// WORLD_SIZE and LOCAL_RANK. Fixed text: the program's words arrive as "$@", never inside it.
const char* kRankEnvironment =
    "export RANK=$SLURM_PROCID WORLD_SIZE=$SLURM_NTASKS LOCAL_RANK=$SLURM_LOCALID "
    "LOCAL_WORLD_SIZE=${SLURM_NTASKS_PER_NODE:-1} NODE_RANK=$SLURM_NODEID; exec \"$@\"";

// One torchrun per node: its node rank and the rendezvous (static, at the first node of the
// allocation, resolved by the job script) are read in the task, from Slurm's environment. The
// profile's torchrun words arrive as "$@" after the program name, never inside this text.
const char* kTorchrunNode = "l=$1; shift; exec \"$l\" --node_rank \"$SLURM_NODEID\" "
                            "--rdzv_backend static --master_addr \"$MASTER_ADDR\" "
                            "--master_port \"$MASTER_PORT\" \"$@\"";

// The ranks meet at the first node of the allocation, at the address Slurm reaches it by (a
// node name need not resolve), on a port derived from the job id so that two jobs sharing a
// node do not meet each other. Fixed text: it reads only Slurm's own variables.
const char* kRendezvous =
    "first=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1)\n"
    "MASTER_ADDR=$(scontrol show node \"$first\" | sed -n 's/.*NodeAddr=\\([^ ]*\\).*/\\1/p' "
    "| head -n 1)\n"
    "export MASTER_ADDR=\"${MASTER_ADDR:-$first}\" MASTER_PORT=$((20000 + SLURM_JOB_ID % 10000))\n";

// Options of the profile's torchrun line that the job sets itself, per node: dropped, with their
// value, from the profile's words.
bool setPerNode(const std::string& word, bool& takesValue) {
    static const char* const kOwn[] = {
        "--node_rank",   "--node-rank",    "--master_addr",  "--master-addr",   "--master_port",
        "--master-port", "--rdzv_backend", "--rdzv-backend", "--rdzv_endpoint", "--rdzv-endpoint",
        "--rdzv_id",     "--rdzv-id",      "--standalone"};
    const std::string name = word.substr(0, word.find('='));
    for (const char* own : kOwn)
        if (name == own) {
            takesValue = name != "--standalone" && word.find('=') == std::string::npos;
            return true;
        }
    return false;
}

// The profile's launcher words (torchrun and its options), without what setPerNode names.
std::vector<std::string> perNodeLauncher(const CommandBuilder& builder, const PlannedRun& run) {
    const auto whole = builder.workloadArgv(run);
    const auto program = builder.programArgv(run);
    std::vector<std::string> out;
    const std::size_t launcherWords = whole.size() - program.size();
    for (std::size_t i = 0; i < launcherWords; ++i) {
        bool takesValue = false;
        if (!setPerNode(whole[i], takesValue)) {
            out.push_back(whole[i]);
        } else if (takesValue) {
            ++i;
        }
    }
    return out;
}

std::string fileSafe(const std::string& id) {
    std::string s = id;
    for (char& c : s)
        if (c == '/') c = '_';
    return s;
}

} // namespace

std::string SlurmSubmission::outputPath(const std::string& jobId) const {
    std::string s = outputPattern;
    const auto at = s.find("%j");
    if (at != std::string::npos) s.replace(at, 2, jobId);
    return s;
}

std::vector<std::string> pyxisOptions(const SlurmSettings& s) {
    std::vector<std::string> o;
    if (s.containerImage.empty()) return o;
    o.push_back("--container-image=" + s.containerImage);
    if (!s.containerMounts.empty()) {
        std::string m;
        for (const auto& mount : s.containerMounts)
            m += (m.empty() ? "" : ",") + mount;
        o.push_back("--container-mounts=" + m);
    }
    if (!s.containerWorkdir.empty()) o.push_back("--container-workdir=" + s.containerWorkdir);
    return o;
}

SlurmSubmission slurmSubmission(const CommandBuilder& builder, const PlannedRun& run,
                                const std::string& tag) {
    const Campaign& c = builder.campaign();
    const SlurmSettings& s = c.scheduler;
    const Topology& t = run.key.topology;
    const std::string dir = (fs::absolute(c.outputDir) / "slurm").string();
    const std::string name = fileSafe(run.id);
    SlurmSubmission sub;
    sub.scriptPath = dir + "/" + name + "." + tag + ".sbatch";
    // %j: a resubmission never writes over an earlier job's output.
    sub.outputPattern = dir + "/" + name + ".%j.out";

    const auto program = builder.programArgv(run);
    if (s.launch == "mpirun") {
        // Open MPI reads the allocation itself and starts its daemons with srun.
        sub.launchArgv = {
            "mpirun", "--tag-output", "--allow-run-as-root", "-np", std::to_string(t.ranks()),
            "-x",     kRunTagVariable};
        for (const auto& [key, value] : builder.profile().env)
            sub.launchArgv.insert(sub.launchArgv.end(), {"-x", key});
        sub.launchArgv.insert(sub.launchArgv.end(), program.begin(), program.end());
    } else if (builder.perNode()) {
        // No --label: srun's task is a node here, not a rank; the ranks tag their own lines.
        // --kill-on-bad-exit: one node's torchrun failing stops the others at once (torchrun
        // itself would wait at its exit barrier). The step takes every CPU of the node's share.
        sub.launchArgv = {"srun", "--mpi=none", "--kill-on-bad-exit=1",
                          "--nodes=" + std::to_string(t.nodes),
                          // The job's SLURM_NTASKS (nodes x G) would otherwise be the step's.
                          "--ntasks=" + std::to_string(t.nodes), "--ntasks-per-node=1",
                          "--cpus-per-task=" + std::to_string(t.gpusPerNode)};
        for (auto& o : pyxisOptions(s))
            sub.launchArgv.push_back(std::move(o));
        sub.launchArgv.insert(sub.launchArgv.end(),
                              {"/bin/sh", "-c", kTorchrunNode, "scaleview-node"});
        const auto launcher = perNodeLauncher(builder, run);
        sub.launchArgv.insert(sub.launchArgv.end(), launcher.begin(), launcher.end());
        sub.launchArgv.insert(sub.launchArgv.end(), program.begin(), program.end());
    } else {
        sub.launchArgv = {"srun",
                          "--mpi=pmix",
                          "--label",
                          "--kill-on-bad-exit=1",
                          "--nodes=" + std::to_string(t.nodes),
                          "--ntasks-per-node=" + std::to_string(t.gpusPerNode)};
        for (auto& o : pyxisOptions(s))
            sub.launchArgv.push_back(std::move(o));
        sub.launchArgv.insert(sub.launchArgv.end(),
                              {"/bin/sh", "-c", kRankEnvironment, "scaleview-rank"});
        sub.launchArgv.insert(sub.launchArgv.end(), program.begin(), program.end());
    }

    sub.script = "#!/bin/sh\n# ScaleView run " + run.id + " (tag " + tag +
                 "): one Slurm job; every word below is quoted once, for this shell.\n";
    sub.script += "export " + shellQuote(std::string(kRunTagVariable) + "=" + tag) + "\n";
    for (const auto& [key, value] : builder.profile().env)
        sub.script += "export " + shellQuote(key + "=" + value) + "\n";
    sub.script += kRendezvous;
    sub.script += "exec " + shellCommand(sub.launchArgv) + "\n";

    sub.sbatchArgv = {
        "sbatch", "--parsable",
        // A job on a failed node is not run again behind the run's back: its
        // end is the run's (NODE_FAIL), and the campaign goes on.
        "--no-requeue", "--job-name=scaleview-" + tag, "--nodes=" + std::to_string(t.nodes),
        "--ntasks-per-node=" + std::to_string(t.gpusPerNode), "--output=" + sub.outputPattern,
        "--chdir=" + fs::absolute(c.outputDir).string()};
    const auto options = slurmAllocationOptions(c, t.gpusPerNode);
    sub.sbatchArgv.insert(sub.sbatchArgv.end(), options.begin(), options.end());
    sub.sbatchArgv.insert(sub.sbatchArgv.end(), s.extraSbatchArgs.begin(), s.extraSbatchArgs.end());
    sub.sbatchArgv.push_back(sub.scriptPath);
    return sub;
}

} // namespace sv::launcher
