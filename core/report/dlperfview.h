#pragma once
// A summary as DLPerf's extraction script for its format sees the same logs: each run carries
// the script's own figure (quirks and all) where that differs in kind from ScaleView's, so that
// `summarize --format dlperf` prints what the script prints.

#include "core/stats/summary.h"

#include <string>
#include <vector>

namespace sv {

struct DlperfView {
    Summary summary;                   // runs with DLPerf's figures, cases recomputed
    const LogFormat* format = nullptr; // the one format of its runs (nullptr: none read)
    std::string script;                // the DLPerf script whose output this is
    std::vector<std::string> notes;    // for standard error: the script chosen, runs it fails on
};

// Requires the runs of one format (caseMix(...).formats.size() <= 1); method picks the
// script (`*_time.py` or the other), or the format's only one with a note.
DlperfView dlperfView(const Summary& summary, Method method);

// What DLPerf's script prints for the view, as its format's row says (LogFormat::dlperfOutput):
// the S1 JSON, or OneFlow's Markdown tables.
std::string dlperfText(const DlperfView& view);

} // namespace sv
