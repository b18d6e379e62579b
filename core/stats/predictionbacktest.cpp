#include "core/stats/predictionbacktest.h"

#include "core/model/numerics.h"
#include "core/model/runkey.h"
#include "core/stats/topologyprediction.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace sv {

namespace {

double percentile90(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    // Linear between order statistics, as numpy's default.
    const double at = 0.9 * (v.size() - 1);
    const auto i = static_cast<std::size_t>(at);
    return i + 1 < v.size() ? v[i] + (at - i) * (v[i + 1] - v[i]) : v[i];
}

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// One series backtested: the largest node count predicted from the smaller ones.
std::optional<BacktestRow> backtestSeries(const ReferenceTable& t, const ReferenceSeries& s,
                                          const DeviceCatalog& catalog) {
    std::vector<ScalingPoint> points;
    std::set<int> nodes;
    for (const auto& [name, x] : s.throughput)
        if (auto topo = parseTopology(name)) {
            points.push_back({*topo, x, std::nullopt});
            nodes.insert(topo->nodes);
        }
    if (nodes.size() < 3) return std::nullopt;
    const int largest = *nodes.rbegin();
    const ScalingPoint* target = nullptr;
    for (const auto& p : points)
        if (p.topology.nodes == largest) target = &p;
    std::vector<ScalingPoint> fit;
    std::string fittedOn;
    for (const auto& p : points)
        if (p.topology.nodes < largest && p.topology.gpusPerNode == target->topology.gpusPerNode) {
            fit.push_back(p);
            fittedOn += (fittedOn.empty() ? "" : " ") + p.topology.name();
        }
    const std::string precision = s.precision.value_or(t.precision.value_or(""));
    const ModelFlops* model = catalog.findModel(t.model);
    const int batch = s.batchPerDevice.value_or(t.batchPerDevice.value_or(0));
    if (!model || batch <= 0) return std::nullopt;
    PredictionInput in;
    in.points = fit;
    in.batchPerDevice = batch;
    in.gradientBytes = gradientBytes(*model, precision);
    in.linkBytesPerSecond = kDlperfLinkBytesPerSecond;
    in.linkSource = "DLPerf's InfiniBand EDR";
    const auto r = predictTopologies(in, {target->topology});
    if (r.predictions.empty()) return std::nullopt;
    BacktestRow row;
    row.table = t.id;
    row.series = t.series.size() > 1 ? s.name : "";
    row.model = t.model;
    row.precision = precision;
    row.target = target->topology.name();
    row.fittedOn = fittedOn;
    row.measured = target->throughput;
    row.predicted = r.predictions[0].throughput;
    row.errorPct = 100.0 * (row.predicted / row.measured - 1.0);
    return row;
}

} // namespace

double gradientBytes(const ModelFlops& model, const std::string& precision) {
    return model.parameters * (precision == "fp16-noamp" ? 2.0 : 4.0);
}

std::string Backtest::summary() const {
    if (rows.empty()) return "no published series with three node counts";
    return std::to_string(rows.size()) + " published series: median |error| " +
           formatFixed(medianAbsPct, 1) + " %, 90th percentile " + formatFixed(p90AbsPct, 1) +
           " %, max " + formatFixed(maxAbsPct, 1) + " %; the calibrated interval held " +
           std::to_string(inside) + " of " + std::to_string(rows.size());
}

Backtest backtestPublished(const ReferenceCatalog& tables, const DeviceCatalog& catalog) {
    Backtest out;
    // A comparison table repeats its frameworks' own tables (often at fewer topologies): each
    // series counted once, by the figures its backtest uses.
    std::set<std::pair<std::string, std::vector<double>>> seen;
    for (const auto& t : tables.tables())
        for (const auto& s : t.series) {
            auto row = backtestSeries(t, s, catalog);
            if (!row) continue;
            std::vector<double> used{row->measured};
            for (const auto& [name, x] : s.throughput)
                if (row->fittedOn.find(name) != std::string::npos) used.push_back(x);
            if (seen.insert({row->fittedOn + " " + row->target, used}).second)
                out.rows.push_back(*row);
        }
    std::vector<double> abs;
    for (const auto& r : out.rows)
        abs.push_back(std::fabs(r.errorPct));
    for (std::size_t i = 0; i < out.rows.size(); ++i) {
        std::vector<double> others = abs;
        others.erase(others.begin() + static_cast<std::ptrdiff_t>(i));
        const double h = percentile90(others) / 100.0;
        auto& r = out.rows[i];
        r.ci95 = Interval{r.predicted * (1.0 - h), r.predicted * (1.0 + h)};
        r.inside = r.measured >= r.ci95.lo && r.measured <= r.ci95.hi;
        out.inside += r.inside ? 1 : 0;
    }
    out.medianAbsPct = median(abs);
    out.p90AbsPct = percentile90(abs);
    out.maxAbsPct = abs.empty() ? 0.0 : *std::max_element(abs.begin(), abs.end());
    return out;
}

const Backtest& builtinBacktest() {
    static const Backtest b =
        backtestPublished(ReferenceCatalog::builtin(), DeviceCatalog::builtin());
    return b;
}

} // namespace sv
