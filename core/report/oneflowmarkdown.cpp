#include "core/report/oneflowmarkdown.h"
#include "core/model/numerics.h"

#include "core/stats/summary.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

namespace sv {
namespace {

// mode_print(lst) in markdown mode: print('|', ' | '.join(...), '|').
std::string row(const std::vector<std::string>& cells) {
    std::string out = "|";
    for (std::size_t i = 0; i < cells.size(); ++i)
        out += (i ? " | " : " ") + cells[i];
    return out + " |\n";
}

// statistics.median: the middle value, or the mean of the two middle values.
double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

} // namespace

std::string formatOneflowMarkdown(const Summary& summary) {
    using Key = std::tuple<int, int, int>; // nodes, GPUs per node, batch per device
    std::vector<std::pair<Key, std::vector<double>>> groups; // in first-seen order, as a dict
    std::string out = "## All Results\n";
    out += row({"num_nodes", "gpu_num_per_node", "batch_size_per_device", "throughput"});
    out += row(std::vector<std::string>(4, "--------"));
    std::vector<const RunResult*> runs;
    for (const auto& r : summary.runs)
        if (r.status == RunStatus::Complete && r.timeThroughput) runs.push_back(&r);
    // sorted(glob(...)): by path.
    std::stable_sort(runs.begin(), runs.end(),
                     [](const RunResult* a, const RunResult* b) { return a->path < b->path; });
    for (const RunResult* r : runs) {
        const Key key{r->key.topology.nodes, r->key.topology.gpusPerNode, r->key.batchPerDevice};
        out += row({std::to_string(std::get<0>(key)), std::to_string(std::get<1>(key)),
                    std::to_string(std::get<2>(key)), formatFixed(*r->timeThroughput, 2)});
        auto it = std::find_if(groups.begin(), groups.end(),
                               [&](const auto& g) { return g.first == key; });
        if (it == groups.end())
            groups.push_back({key, {*r->timeThroughput}});
        else
            it->second.push_back(*r->timeThroughput);
    }
    out += "\n## Filtered Result `median value`\n";
    out += row({"num_nodes", "gpu_num_per_node", "batch_size_per_device", "throughput", "speedup"});
    out += row(std::vector<std::string>(5, "--------"));
    struct Final {
        Key key;
        double median, speedup;
    };
    std::vector<Final> rows;
    for (const auto& [key, values] : groups) {
        const Key single{1, 1, std::get<2>(key)};
        const auto base = std::find_if(groups.begin(), groups.end(),
                                       [&](const auto& g) { return g.first == single; });
        const double m = median(values);
        rows.push_back({key, m, base == groups.end() ? 0.0 : m / median(base->second)});
    }
    // sorted(key=lambda x: (-x[2], x[0], x[1])): stable, batch descending, then nodes, GPUs.
    std::stable_sort(rows.begin(), rows.end(), [](const Final& a, const Final& b) {
        const auto& [an, ag, ab] = a.key;
        const auto& [bn, bg, bb] = b.key;
        return std::tuple{-ab, an, ag} < std::tuple{-bb, bn, bg};
    });
    for (const Final& f : rows)
        out += row({std::to_string(std::get<0>(f.key)), std::to_string(std::get<1>(f.key)),
                    std::to_string(std::get<2>(f.key)), formatFixed(f.median, 2),
                    formatFixed(f.speedup, 2)});
    return out;
}

} // namespace sv
