#pragma once
// What every format's tests ask of a directory read: DLPerf's defaults or a window, the DLPerf
// script's JSON, a run by path, a run's note.

#include "core/report/dlperfview.h"
#include "core/report/report.h"
#include "core/stats/summary.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace sv::test {

// The extractor's own argparse defaults (summarize --format dlperf without --warmup).
inline LoadOptions dlperfDefaults() {
    LoadOptions load;
    load.measure.formatDefaults = true;
    load.threads = 2;
    return load;
}

inline LoadOptions window(int warmup, int iterations) {
    LoadOptions load;
    load.measure = {warmup, iterations};
    load.threads = 2;
    return load;
}

// What the DLPerf script for the method prints (its JSON); its notes where asked.
inline nlohmann::json dlperfJson(const Summary& s, Method m,
                                 std::vector<std::string>* notes = nullptr) {
    const DlperfView view = dlperfView(s, m);
    if (notes) *notes = view.notes;
    return nlohmann::json::parse(formatDlperfJson(view.summary));
}

inline const RunResult* runAt(const Summary& s, const std::string& path) {
    for (const auto& r : s.runs)
        if (r.path == path) return &r;
    return nullptr;
}

inline bool hasNote(const RunResult& r, const std::string& text) {
    for (const auto& n : r.notes)
        if (n.find(text) != std::string::npos) return true;
    return false;
}

} // namespace sv::test
