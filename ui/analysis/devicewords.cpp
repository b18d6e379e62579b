#include "ui/analysis/devicewords.h"

#include <QCoreApplication>

namespace sv::ui {

DeviceWords deviceWords(const Analysis& analysis) {
    DeviceWords words;
    std::optional<WorkloadHeader> common;
    for (const RunLogPtr& log : analysis.logs) {
        // One log that is not the workload's, or says another device or framework: the
        // directory is not one workload's, and the usual words hold.
        if (!log || !log->workload) return words;
        if (common && (common->device != log->workload->device ||
                       common->framework != log->workload->framework))
            return words;
        common = log->workload;
    }
    if (!common) return words;
    words.workload = common;
    if (common->onCpu()) {
        words.one = QCoreApplication::translate("DeviceWords", "rank");
        words.many = QCoreApplication::translate("DeviceWords", "ranks");
    }
    return words;
}

ScalingData chartData(const Analysis& analysis) {
    ScalingData data = analysis.scaling();
    const DeviceWords words = deviceWords(analysis);
    data.device = words.one.toStdString();
    data.devices = words.many.toStdString();
    return data;
}

QString workloadCaption(const DeviceWords& words, const QString& formatFramework) {
    if (!words.workload) return {};
    const WorkloadHeader& w = *words.workload;
    return QCoreApplication::translate("DeviceWords",
                                       "ScaleView's local workload (%1, %2 on %3; logs in %4's "
                                       "line format)")
        .arg(QString::fromStdString(w.model), QString::fromStdString(w.framework),
             w.onCpu() ? QCoreApplication::translate("DeviceWords", "CPU ranks")
                       : QCoreApplication::translate("DeviceWords", "GPUs"),
             formatFramework);
}

} // namespace sv::ui
