#pragma once
// What the pages call a run's figure: its unit (its log format's: images/s, tokens/s, samples/s)
// and whether it is DLPerf's time or speed method or the log's own reports; for the runs one page
// shows at once, what they share, or that they differ, so that no page picks one for all.

#include "core/model/runresult.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace sv::ui {

// The run's throughput unit, from its log's format ("images/s" for DLPerf's).
QString runUnit(const RunResult& run);
// The run's figure is its log's own reports, not a DLPerf method over a window of iterations.
bool runReadsOwnReports(const RunResult& run);

struct FigureWords {
    QStringList units;          // the runs' units, in run order; one where they share it
    bool ownReports = false;    // some run's figure is its log's own reports
    bool dlperfMethods = false; // some run's figure is by DLPerf's time and speed methods
    bool oneUnit() const { return units.size() == 1; }
    // "tokens/s", or "each run's own unit" where they differ.
    QString unitWords() const;
    // "time method", "the log's own reports", or both with which runs are which.
    QString methodWords(Method method) const;
};

// Runs the load could not place (no format: unreadable, empty) say nothing; none at all reads as
// DLPerf's images/s by the time method.
FigureWords figureWordsOf(const std::vector<RunResult>& runs);

} // namespace sv::ui
