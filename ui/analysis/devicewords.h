#pragma once
// What the pages call a "device" of the runs shown: a GPU, or, for ScaleView's own local
// workload on CPU (its logs' header says so), a rank, which is a CPU process on its own share of
// the cores. Its logs are written in NGC MXNet's line format; the pages say what really ran.

#include "ui/analysis/analysis.h"

#include <QString>

#include <optional>

namespace sv::ui {

struct DeviceWords {
    QString one = QStringLiteral("GPU");   // "GPU", "rank"
    QString many = QStringLiteral("GPUs"); // "GPUs", "ranks"
    // Every log of the open directory is the local workload's, and they agree on what ran.
    std::optional<WorkloadHeader> workload;
    bool cpu() const { return workload && workload->onCpu(); }
};

DeviceWords deviceWords(const Analysis& analysis);

// What the throughput and speedup charts draw (on screen and exported): the analysis's scaling
// data with its devices named.
ScalingData chartData(const Analysis& analysis);

// The caption's description of the logs: "ScaleView's local workload (ResNet-50 v1.5, PyTorch
// 1.13.1 on CPU ranks; logs in NGC MXNet's line format)"; empty when the logs are not its.
QString workloadCaption(const DeviceWords& words, const QString& formatFramework);

} // namespace sv::ui
