#pragma once
// What the machines of a campaign were, in a line: the hosts, NVIDIA driver, CUDA, GPU model,
// container image, framework and MPI read from the environment files the launcher captures
// beside the logs; and what differs between two sides' records, for every verdict (the
// history's and compare's).

#include "core/load/campaignrecords.h"

#include <string>
#include <vector>

namespace sv {

struct EnvironmentSummary {
    std::vector<std::string> hosts; // each host's own hostname, as captured
    // Empty when not captured (no nvidia-smi, no container); several hosts that differ give
    // every distinct value, joined by " / ": a mixed cluster must not read as uniform.
    std::string driver, cuda, gpuModel, containerImage;
    // The framework's version where the launcher asked for it ("torch 2.1.0") and the first
    // line of `mpirun --version`. The history does not store these two.
    std::string framework, mpi;
    bool empty() const {
        return hosts.empty() && driver.empty() && cuda.empty() && gpuModel.empty() &&
               containerImage.empty() && framework.empty() && mpi.empty();
    }
};

// One thing recorded that differs between two sides: what ("driver", "cuda", "gpu_model",
// "container_image", "framework", "mpi", "hosts", the campaign's own settings "profile",
// "warmup", "iterations", ..., a log's "format"), its value in a and in b ("" where it was not
// recorded).
struct EnvironmentChange {
    std::string what, a, b;
    bool operator==(const EnvironmentChange&) const = default;
};

// One thing recorded about a side, by name.
struct RecordedFact {
    std::string what, value;
    bool operator==(const RecordedFact&) const = default;
};
using RecordedFacts = std::vector<RecordedFact>;

// The summary's facts, in the order driver, cuda, gpu_model, container_image, framework, mpi,
// hosts (the hosts joined by a blank); every one, recorded or not ("").
RecordedFacts environmentFacts(const EnvironmentSummary& env);

// What differs from a to b: a's names in a's order, then those only b has; a name missing on a
// side is "" there. Empty when nothing recorded differs.
std::vector<EnvironmentChange> diffFacts(const RecordedFacts& a, const RecordedFacts& b);

// diffFacts of the two summaries' environmentFacts.
std::vector<EnvironmentChange> diffEnvironments(const EnvironmentSummary& a,
                                                const EnvironmentSummary& b);

// "driver 535.104.05 -> 550.54.14; hosts node1 -> node2" or "nothing recorded changed".
std::string describeChanges(const std::vector<EnvironmentChange>& changes);

// Reads the "environment/*.txt" files of capturedFiles(); other files are ignored.
EnvironmentSummary summarizeEnvironment(const std::vector<ReportFile>& files);

// A captured "key : value" line ("    Driver Version        : 535.104.05"): the value, trimmed,
// when the key matches.
bool capturedValue(const std::string& line, const char* key, std::string* value);

// "driver 535.104.05, CUDA 12.2, 8x NVIDIA H100 ..." style one-liner; "" when nothing was captured.
std::string describeEnvironment(const EnvironmentSummary& env);

} // namespace sv
