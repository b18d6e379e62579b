#pragma once
// One run as one Slurm job: the job script (written to the campaign directory; every word from
// the profile or the user goes through shellQuote, once, as the script is the one shell hop)
// and the sbatch argument vector that submits it (no shell: QProcess takes it as it is).

#include "launcher/campaign/plannedrun.h"
#include "launcher/exec/commandbuilder.h"

#include <string>
#include <vector>

namespace sv::launcher {

struct SlurmSubmission {
    std::string scriptPath;    // <outputDir>/slurm/<run>.<tag>.sbatch
    std::string outputPattern; // sbatch --output, with %j
    std::string script;        // the job script's text
    std::vector<std::string> sbatchArgv;
    std::vector<std::string> launchArgv; // srun or mpirun line inside the allocation
    // Where the job's output lands once its id is known.
    std::string outputPath(const std::string& jobId) const;
};

// The srun options pyxis reads, from the campaign's scheduler block (none without an image).
std::vector<std::string> pyxisOptions(const SlurmSettings& settings);

SlurmSubmission slurmSubmission(const CommandBuilder& builder, const PlannedRun& run,
                                const std::string& tag);

} // namespace sv::launcher
