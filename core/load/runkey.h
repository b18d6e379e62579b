#pragma once
// What a log is a run of: model, precision, batch size per device, topology and repeat, read
// from DLPerf's layout ".../{N}n{G}g/{model}_b{B}_{precision}_{repeat}.log".

#include <compare>
#include <optional>
#include <string>
#include <string_view>

namespace sv {

struct Topology {
    int nodes = 0;
    int gpusPerNode = 0;
    int ranks() const { return nodes * gpusPerNode; }
    std::string name() const; // "4n8g"
    auto operator<=>(const Topology&) const = default;
};

// Orders topologies as DLPerf's tables do: by GPU count, then by node count.
bool topologyLess(const Topology& a, const Topology& b);

// "16n8g" -> {16, 8}; any number of digits, both at least 1.
std::optional<Topology> parseTopology(std::string_view folderName);

struct RunKey {
    std::string model;     // "r50"
    std::string precision; // "fp32", "fp16" (AMP), "fp16-noamp"
    int batchPerDevice = 0;
    Topology topology;
    int repeat = 0;
    // The log format's id ("ngc-mxnet", "ngc-pytorch-rn50"), detected when the log is read:
    // the framework dimension of a case. Empty until then.
    std::string format = {};
};

struct LogName {
    std::string model;
    int batchPerDevice = 0;
    std::string precision;
    int repeat = 0;
};

// "r50_b128_fp32_3.log" -> {r50, 128, fp32, 3}; nullopt with the reason in *why otherwise.
std::optional<LogName> parseLogName(std::string_view fileName, std::string* why = nullptr);

} // namespace sv
