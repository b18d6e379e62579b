#pragma once
// How one benchmark is launched: the launcher's arguments (horovodrun or mpirun), the program,
// per-precision flags, the environment, and the {placeholders} filled per run. Built-in profiles
// are JSON compiled into the binary (resources/workloads); a campaign may also name a file.

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sv::launcher {

// How a run's processes are started: one launcher command that reaches every node itself
// (mpirun, horovodrun), or one per node, started at once on each (torchrun).
struct LauncherTemplate {
    std::vector<std::string> argv;
    bool perNode = false; // {node_rank} is then the node's index
    // Per-node: a line with this, from one node's launcher, says that node's workers failed.
    // The run then ends at once, naming that node, rather than when the launcher's own exit
    // barrier gives up on the other nodes (torchrun waits 300 s).
    std::string failureMarker;
};

struct WorkloadProfile {
    std::string name;
    std::string label;   // what is measured, in words shown to the user
    std::string model;   // log name prefix: "r50"
    std::string logRoot; // under the output directory: "logs/ngc/mxnet/resnet50"
    std::string needs;   // "gpu" (nvidia-smi) or "torch" (python3 + torch) for preflight
    std::string defaultLauncher;
    std::map<std::string, LauncherTemplate> launchers;
    std::vector<std::pair<std::string, std::string>> env; // in order
    std::vector<std::string> program;
    std::map<std::string, std::vector<std::string>> precisionArgs;
    std::vector<std::string> args;
    std::map<std::string, std::string> variables; // defaults of the {placeholders}
    // `docker run` options of the containers the launcher starts (--net=host, --shm-size, ...);
    // empty: kDefaultContainerArgs.
    std::vector<std::string> containerArgs;
    // What the Run panel offers for this profile: the seed's image and data mount (SRC:DST[:ro]).
    std::string containerImage;
    std::vector<std::string> containerMounts;
    std::string scriptName; // a compiled-in workload written beside the logs as {script}
    std::string scriptText;
};

std::vector<std::string> builtinProfileNames();
// A built-in name, or else a path to a profile JSON file; nullopt with the reason.
std::optional<WorkloadProfile> loadProfile(const std::string& nameOrPath, std::string* error);
std::optional<WorkloadProfile> profileFromJson(const std::string& text, std::string* error);

} // namespace sv::launcher
