#pragma once
// Where a campaign's runs are scheduled: on this machine or SSH hosts (no scheduler), or as one
// Slurm job per run, with the job's sbatch options and an optional pyxis container. Every value
// that reaches sbatch or srun is checked here, before anything is submitted.

#include <string>
#include <vector>

namespace sv::launcher {

struct SlurmSettings {
    std::string type = "none"; // "none" or "slurm"
    std::string partition, account, qos, reservation, constraint;
    std::string timeLimit; // Slurm's forms: minutes, MM:SS, HH:MM:SS, D-HH[:MM[:SS]]
    bool exclusive = false;
    bool gpus = false;           // --gpus-per-node G (the partition has gres/gpu)
    std::string launch = "srun"; // "srun" (srun --mpi=pmix --label) or "mpirun" (inside it)
    std::vector<std::string> extraSbatchArgs; // each one "--name" or "--name=value"
    // pyxis: none when the image is empty.
    std::string containerImage;
    std::vector<std::string> containerMounts; // "src:dst[:flags]"
    std::string containerWorkdir;

    bool enabled() const { return type == "slurm"; }
    // Every problem, each naming its field ("scheduler.partition: ..."); empty when valid.
    std::vector<std::string> validate() const;
};

// A Slurm name (partition, account, qos, reservation): letters, digits, '_', '.', '-', not
// starting with '-', at most 64 bytes.
bool isValidSlurmName(const std::string& name);
// A --constraint expression: features joined by & | , and grouped by [] (), with *count.
bool isValidSlurmConstraint(const std::string& constraint);
bool isValidSlurmTimeLimit(const std::string& limit);

} // namespace sv::launcher
