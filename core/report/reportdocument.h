#pragma once
// One shareable report of one or more summarized directories: a self-contained HTML page
// (inline SVG charts, every table, warnings, excluded runs with reasons, the comparison, the
// captured environment, the campaign file, the method, the version) or Markdown in DLPerf's
// README shape with the charts as image files beside it.

#include "core/compare/comparison.h"
#include "core/load/campaignrecords.h"
#include "core/stats/summary.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sv {

struct ReportSeries {
    std::string label;
    Summary summary;
    std::vector<ReportFile> files; // the campaign file and the captured environment
    // Per chart: its title and either its SVG text (HTML) or the image file's relative path
    // (Markdown). Empty with chartNote saying why when charts could not be drawn.
    std::vector<std::pair<std::string, std::string>> charts;
    std::string chartNote;
};

struct ReportInput {
    std::vector<ReportSeries> series;
    std::optional<Comparison> comparison; // with two or more series
    std::string version;                  // ScaleView's
    std::string generated;                // when, as text
};

// XHTML (well-formed XML, so any browser and any XML parser read it), no external resource.
std::string formatHtmlReport(const ReportInput& input);
std::string formatMarkdownReport(const ReportInput& input);

} // namespace sv
