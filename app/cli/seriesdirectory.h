#pragma once
// One directory of a comparison or a report: read over its own campaign's window unless the
// command line sets one, its warnings said on standard error, and its name as a series.

#include "core/load/campaignwindow.h"
#include "app/cli/measurearguments.h"
#include "core/stats/summary.h"

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

namespace sv::cli {

struct SeriesDirectory {
    std::optional<Summary> summary; // nullopt: *usage, or why it failed was said (exit 2)
    std::optional<std::string> usage;
};

inline SeriesDirectory readSeriesDirectory(const std::string& dir, LoadOptions load,
                                           const SummaryOptions& options,
                                           const MeasureArguments& window, bool quiet,
                                           const char* command) {
    SeriesDirectory out;
    const CampaignWindowLookup found = findCampaignWindow(dir);
    if (found.error && !quiet) std::fprintf(stderr, "warning: %s\n", found.error->c_str());
    // The rule the desktop app applies to the directories added to a comparison, too.
    const SeriesWindow chosen = seriesWindow(found, window.warmup, window.iterations);
    load.measure = chosen.measure;
    if (auto bad = validateMeasureOptions(load.measure)) {
        out.usage = *bad;
        return out;
    }
    Summary s = summarizeDirectory(dir, load, options);
    s.windowSource = chosen.source;
    if (s.error) {
        std::fprintf(stderr, "scaleview-cli %s: %s\n", command, s.error->c_str());
        return out;
    }
    if (!quiet)
        for (const auto& w : s.warnings)
            std::fprintf(stderr, "warning: %s: %s\n", dir.c_str(), w.text().c_str());
    if (s.runs.empty()) {
        std::fprintf(stderr, "scaleview-cli %s: no throughput logs in %s\n", command, dir.c_str());
        return out;
    }
    out.summary = std::move(s);
    return out;
}

// The directory's own name ("campaign-2026-11" for ".../campaign-2026-11/"), as the GUI names
// it; "(N)" after a name an earlier series has.
template <typename Series>
std::string seriesLabel(const std::string& dir, const std::string& given, std::size_t index,
                        const std::vector<Series>& earlier) {
    std::string name = given;
    if (name.empty()) {
        std::filesystem::path p(dir);
        if (!p.has_filename()) p = p.parent_path();
        name = p.filename().string();
        if (name.empty() || name == ".")
            name = std::filesystem::absolute(p).lexically_normal().string();
    }
    for (const auto& other : earlier)
        if (other.label == name) name += " (" + std::to_string(index + 1) + ")";
    return name;
}

} // namespace sv::cli
