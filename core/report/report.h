#pragma once
// Summaries written out: a readable table, CSV, Markdown (the seed README's layout), ScaleView's
// full JSON, and the exact JSON DLPerf's extract scripts write.

#include "core/model/numerics.h" // formatFixed, which the tables use
#include "core/stats/summary.h"

#include <set>
#include <string>

namespace sv {

std::string formatTable(const Summary& summary);
std::string formatCsv(const Summary& summary);
std::string formatMarkdown(const Summary& summary);
std::string formatJson(const Summary& summary, std::string_view toolVersion); // summaryjson.cpp

// DLPerf's {"model": {"NnGg": {"average_speed", "batch_size_per_device", "median_speed",
// "speedup"}}}, as Python's json.dump writes it. Only meaningful for one precision and one
// batch size: mixed() names what is mixed, so the caller can refuse.
std::string formatDlperfJson(const Summary& summary);
struct CaseMix {
    std::set<std::string> precisions;
    std::set<int> batchSizes;
    std::set<std::string> formats; // DLPerf has one script per format
    bool mixed() const {
        return precisions.size() > 1 || batchSizes.size() > 1 || formats.size() > 1;
    }
};
CaseMix caseMix(const Summary& summary);

} // namespace sv
