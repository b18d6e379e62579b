#pragma once
// File › Export Report…: the directories shown (the open one and those added to compare with it)
// as the report `scaleview-cli report` writes, one self-contained HTML page with the throughput
// and speedup charts inline as SVG and, with several directories, their comparison.

#include "ui/analysis/analysis.h"
#include "ui/analysis/bundleprovenance.h"
#include "core/compare/comparison.h"
#include "core/report/reportdocument.h"

#include <QString>

#include <optional>
#include <string>

namespace sv::ui {

class ReportExport {
  public:
    // What the report holds beside the charts, gathered on a worker thread: each directory's
    // campaign and environment files (the open one's first, then analysis.others'), and with
    // added directories the comparison of all their cases, each against the open one's.
    struct Content {
        std::vector<std::vector<ReportFile>> files;
        std::optional<Comparison> comparison;
    };
    static Content gather(const Analysis& analysis);
    // The document. Charts are drawn here, so on the GUI thread (Qt Charts are scene items).
    static std::string html(const Analysis& analysis, Content content, const QString& label);
    // The document with the bundle's verdict as a banner at the top of its page: red and every
    // reason for one that is not verified, the origin for one that is; unchanged for a folder.
    static std::string withProvenance(std::string html, const BundleProvenance& provenance);
    // Writes text to path atomically (core/model/atomicfile.h); meant for a worker thread.
    static bool write(const std::string& text, const QString& path, QString* error);
};

} // namespace sv::ui
