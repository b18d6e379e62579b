#include "ui/analysis/figurewords.h"

#include "core/formats/formatregistry.h"
#include "core/measure/steadystateanalyzer.h"

namespace sv::ui {

QString runUnit(const RunResult& run) {
    const std::string_view unit = logFormatOf(run.key.format).unit;
    return unit.empty() ? QStringLiteral("images/s")
                        : QString::fromUtf8(unit.data(), static_cast<qsizetype>(unit.size()));
}

bool runReadsOwnReports(const RunResult& run) {
    return !run.key.format.empty() && readsOwnReports(logFormatOf(run.key.format));
}

QString FigureWords::unitWords() const {
    return oneUnit() ? units.front() : QStringLiteral("each run's own unit");
}

QString FigureWords::methodWords(Method method) const {
    const QString dlperf =
        QString::fromStdString(std::string(methodName(method))) + QStringLiteral(" method");
    if (!ownReports) return dlperf;
    if (!dlperfMethods) return QStringLiteral("the log's own reports");
    return dlperf + QStringLiteral(", or the log's own reports where its format has no DLPerf "
                                   "method");
}

FigureWords figureWordsOf(const std::vector<RunResult>& runs) {
    FigureWords w;
    for (const auto& r : runs) {
        // A run never placed in a format (unreadable, empty) has no unit or method of its own.
        if (r.key.format.empty()) continue;
        const QString unit = runUnit(r);
        if (!w.units.contains(unit)) w.units << unit;
        (runReadsOwnReports(r) ? w.ownReports : w.dlperfMethods) = true;
    }
    if (w.units.isEmpty()) {
        w.units << QStringLiteral("images/s");
        w.dlperfMethods = true;
    }
    return w;
}

} // namespace sv::ui
