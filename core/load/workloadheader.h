#pragma once
// ScaleView's own local workload (resources/workloads/rn50_cpu.py) writes NGC MXNet's line
// format, after one header line per rank that says what ran:
//   "ResNet-50 v1.5, PyTorch 1.13.1, CPU, synthetic data 64x64, batch 32 per rank, rank 0 of 2, ..."
// Its logs are therefore read as NGC MXNet's, but the pages must not call them that, nor call a
// CPU process a GPU: this finds the header, so that they can say what really ran.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace sv {

struct WorkloadHeader {
    std::string model;     // "ResNet-50 v1.5"
    std::string framework; // "PyTorch 1.13.1"
    std::string device;    // "CPU" or "CUDA", as the header spells it
    bool onCpu() const { return device == "CPU"; }
};

// The header in head (a log's first lines), if it has one.
std::optional<WorkloadHeader> findWorkloadHeader(std::string_view head);
// How far into a log the header is looked for.
inline constexpr std::size_t kWorkloadHeaderBytes = 16 * 1024;
// The same for a file's first kWorkloadHeaderBytes; nothing when it cannot be read.
std::optional<WorkloadHeader> readWorkloadHeader(const std::filesystem::path& file);

} // namespace sv
