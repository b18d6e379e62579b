#pragma once
// The runs of one directory as read so far: shared, immutable RunLogs (so a recompute on another
// thread and the Runs view can hold them without copying), plus what the scan reported.

#include "core/load/runlog.h"
#include "core/model/warning.h"

#include <QMetaType>
#include <QString>

#include <filesystem>
#include <memory>
#include <vector>

namespace sv::ui {

using RunLogPtr = std::shared_ptr<const RunLog>;

struct LogSnapshot {
    QString root;
    std::vector<RunLogPtr> logs; // scan order (sorted by display path)
    // The window the logs were measured for as they were read (each log says its own too); the
    // analysis reads again, in the background, a log measured for another.
    MeasureOptions measure;
    std::vector<Warning> scanWarnings;
    std::size_t expected = 0; // logs the scan found; logs.size() while loading
    bool complete = false;    // every log read (or the load was cancelled)
    bool cancelled = false;
    // Logs a campaign is writing right now (the Run panel's current run), absolute.
    std::vector<std::filesystem::path> inProgress;
};

} // namespace sv::ui

Q_DECLARE_METATYPE(sv::ui::LogSnapshot)
