#include "core/report/predictionreport.h"

#include "core/model/jsontext.h"
#include "core/model/numerics.h"
#include "core/model/outputtext.h"

#include <nlohmann/json.hpp>

namespace sv {

namespace {

std::string caseText(const CaseKey& k) {
    return k.model + " " + k.precision + " batch " + std::to_string(k.batchPerDevice) +
           (k.format.empty() ? "" : " (" + k.format + ")");
}

nlohmann::json caseJson(const CaseKey& k) {
    return {{"model", k.model},
            {"precision", k.precision},
            {"batch_size_per_device", k.batchPerDevice},
            {"format", k.format}};
}

} // namespace

std::string formatPredictionTable(const std::vector<CasePredictions>& all) {
    std::string out;
    for (const auto& p : all) {
        out += caseText(p.group) + "\n";
        if (!p.result.refused.empty()) {
            out += "  no prediction: " + p.result.refused + "\n\n";
            continue;
        }
        for (const auto& x : p.result.predictions)
            out += "  " + x.topology.name() + "  " + formatFixed(x.throughput, 2) +
                   "  95 % interval " + formatFixed(x.ci95.lo, 2) + " - " +
                   formatFixed(x.ci95.hi, 2) + "\n    model: " + x.model + "\n";
        if (!p.result.predictions.empty())
            out += "  backtest: " + p.result.predictions.front().backtest + "\n";
        out += "\n";
    }
    return terminalText(out);
}

std::string formatPredictionJson(const std::vector<CasePredictions>& all) {
    nlohmann::json predictions = nlohmann::json::array(), refused = nlohmann::json::array();
    for (const auto& p : all) {
        if (!p.result.refused.empty())
            refused.push_back({{"case", caseJson(p.group)}, {"why", p.result.refused}});
        for (const auto& x : p.result.predictions)
            predictions.push_back({{"case", caseJson(p.group)},
                                   {"topology", x.topology.name()},
                                   {"throughput", x.throughput},
                                   {"ci95", {x.ci95.lo, x.ci95.hi}},
                                   {"model", x.model},
                                   {"backtest", x.backtest},
                                   {"link_gbps", p.result.linkBytesPerSecond * 8 / 1e9},
                                   {"link_source", p.result.linkSource},
                                   {"residual_s", p.result.residualSeconds}});
    }
    const nlohmann::json doc = {{"predictions", predictions}, {"refused", refused}};
    return jsonText(doc, 2) + "\n";
}

std::string formatBacktestTable(const Backtest& b) {
    std::string out = "| table : series | model | precision | fitted on | target | measured | "
                      "predicted | error | 95 % interval | inside |\n|---|---|---|---|---|---|---|"
                      "---|---|---|\n";
    for (const auto& r : b.rows)
        out += "| " + markdownText(r.table + (r.series.empty() ? "" : " : " + r.series)) + " | " +
               r.model + " | " + r.precision + " | " + r.fittedOn + " | " + r.target + " | " +
               formatFixed(r.measured, 2) + " | " + formatFixed(r.predicted, 2) + " | " +
               formatShown(r.errorPct, 1) + " % | " + formatFixed(r.ci95.lo, 0) + " - " +
               formatFixed(r.ci95.hi, 0) + " | " + (r.inside ? "yes" : "no") + " |\n";
    return out + "\n" + b.summary() + "\n";
}

} // namespace sv
