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

// Reads the "environment/*.txt" files of capturedFiles(); other files are ignored.
EnvironmentSummary summarizeEnvironment(const std::vector<ReportFile>& files);

// "driver 535.104.05, CUDA 12.2, 8x NVIDIA H100 ..." style one-liner; "" when nothing was captured.
std::string describeEnvironment(const EnvironmentSummary& env);

} // namespace sv::history
