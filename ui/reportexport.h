#pragma once
// File › Export Report…: the directory shown as the report `scaleview-cli report` writes, one
// self-contained HTML page with the throughput and speedup charts inline as SVG.

#include "analysis.h"
#include "reportdocument.h"

#include <QString>

#include <optional>
#include <string>

namespace sv::ui {

class ReportExport {
  public:
    // The document. Charts are drawn here, so on the GUI thread (Qt Charts are scene items);
    // files are the campaign and environment files, read beforehand off the GUI thread.
    static std::string html(const Analysis& analysis, std::vector<ReportFile> files,
                            const QString& label);
    // Writes text to path atomically (QSaveFile); meant for a worker thread.
    static bool write(const std::string& text, const QString& path, QString* error);
};

} // namespace sv::ui
