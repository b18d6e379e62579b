#include "slurmjobscript.h"

#include "shellquote.h"

#include <filesystem>

namespace sv::launcher {
namespace fs = std::filesystem;

namespace {

// srun sets SLURM_PROCID and friends; workloads written for torchrun or Open MPI read RANK,
// WORLD_SIZE and LOCAL_RANK. Fixed text: the program's words arrive as "$@", never inside it.
const char* kRankEnvironment =
    "export RANK=$SLURM_PROCID WORLD_SIZE=$SLURM_NTASKS LOCAL_RANK=$SLURM_LOCALID "
    "LOCAL_WORLD_SIZE=${SLURM_NTASKS_PER_NODE:-1} NODE_RANK=$SLURM_NODEID; exec \"$@\"";

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
    sub.script += "exec " + shellCommand(sub.launchArgv) + "\n";

    sub.sbatchArgv = {"sbatch",
                      "--parsable",
                      "--job-name=scaleview-" + tag,
                      "--nodes=" + std::to_string(t.nodes),
                      "--ntasks-per-node=" + std::to_string(t.gpusPerNode),
                      "--output=" + sub.outputPattern,
                      "--chdir=" + fs::absolute(c.outputDir).string()};
    if (s.gpus) sub.sbatchArgv.push_back("--gpus-per-node=" + std::to_string(t.gpusPerNode));
    auto option = [&sub](const char* flag, const std::string& value) {
        if (!value.empty()) sub.sbatchArgv.push_back(std::string(flag) + "=" + value);
    };
    option("--partition", s.partition);
    option("--account", s.account);
    option("--qos", s.qos);
    option("--reservation", s.reservation);
    option("--constraint", s.constraint);
    option("--time", s.timeLimit);
    if (s.exclusive) sub.sbatchArgv.push_back("--exclusive");
    sub.sbatchArgv.insert(sub.sbatchArgv.end(), s.extraSbatchArgs.begin(), s.extraSbatchArgs.end());
    sub.sbatchArgv.push_back(sub.scriptPath);
    return sub;
}

} // namespace sv::launcher
