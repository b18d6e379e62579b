#pragma once
// What the machines of a campaign were, in a line: the hosts, NVIDIA driver, CUDA, GPU model and
// container image read from the environment files the launcher captures beside the logs.

#include "core/report/reportdocument.h"

#include <string>
#include <vector>

namespace sv::history {

struct EnvironmentSummary {
    std::vector<std::string> hosts; // each host's own hostname, as captured
    // Empty when not captured (no nvidia-smi, no container); several hosts that differ give
    // every distinct value, joined by " / ": a mixed cluster must not read as uniform.
    std::string driver, cuda, gpuModel, containerImage;
    bool empty() const {
        return hosts.empty() && driver.empty() && cuda.empty() && gpuModel.empty() &&
               containerImage.empty();
    }
};

// One thing recorded that differs between two campaigns: what ("driver", "cuda", "gpu_model",
// "container_image", "hosts", and the campaign's own settings "method", "warmup",
// "iterations"), its value in a and in b ("" where it was not recorded).
struct EnvironmentChange {
    std::string what, a, b;
    bool operator==(const EnvironmentChange&) const = default;
};

// What the launcher recorded that differs from a to b, in the order above; empty when nothing
// recorded differs.
std::vector<EnvironmentChange> diffEnvironments(const EnvironmentSummary& a,
                                                const EnvironmentSummary& b);

// "driver 535.104.05 -> 550.54.14; hosts node1 -> node2" or "nothing recorded changed".
std::string describeChanges(const std::vector<EnvironmentChange>& changes);

// Reads the "environment/*.txt" files of capturedFiles(); other files are ignored.
EnvironmentSummary summarizeEnvironment(const std::vector<ReportFile>& files);

// "driver 535.104.05, CUDA 12.2, 8x NVIDIA H100 ..." style one-liner; "" when nothing was captured.
std::string describeEnvironment(const EnvironmentSummary& env);

} // namespace sv::history
