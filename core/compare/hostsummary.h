#pragma once
// The machines a campaign ran on, from the environment files the launcher captured beside its
// logs: each host once, with its GPUs by model and its CPU count, and the line a summary shows.

#include "core/load/campaignrecords.h"

#include <string>
#include <utility>
#include <vector>

namespace sv {

struct HostEnvironment {
    std::string name;                              // its own hostname, as captured
    std::vector<std::pair<std::string, int>> gpus; // model and how many, as nvidia-smi lists them
    int cpus = 0;                                  // 0: not captured
};

// Each host of the "environment/*.txt" files of capturedFiles() once, in the files' order (a
// host captured by every run has a file per run; the first says what it had).
std::vector<HostEnvironment> summarizeHosts(const std::vector<ReportFile>& files);

// "2 hosts: node-a (8 × Tesla V100-SXM2-16GB), node-b (8 × Tesla V100-SXM2-16GB)",
// "1 host: box (CPU only, 16 cores)"; "" without hosts.
std::string describeHosts(const std::vector<HostEnvironment>& hosts);

} // namespace sv
