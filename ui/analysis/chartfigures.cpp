#include "ui/analysis/chartfigures.h"

#include "ui/analysis/scalingdata.h"

#include "core/compare/rundevice.h"
#include "core/model/numerics.h"
#include "core/report/referencetablewriter.h"
#include "core/stats/casepredictions.h"
#include "core/stats/predictionbacktest.h"
#include "core/stats/probelinkspeed.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace sv::ui {

const DeviceCatalog& userDeviceCatalog() {
    static const DeviceCatalog catalog = [] {
        DeviceCatalog c = DeviceCatalog::builtin();
        const auto user = userReferenceDirectory(std::getenv("XDG_DATA_HOME"), std::getenv("HOME"))
                              .parent_path() /
                          "peak-catalogue.json";
        std::error_code ec;
        std::string error;
        if (std::filesystem::exists(user, ec)) {
            DeviceCatalog withUser = c;
            if (withUser.addFile(user, &error)) c = std::move(withUser);
        }
        return c;
    }();
    return catalog;
}

PeakOptions runPeak(const Summary& summary) {
    PeakOptions o = findRunDevice(summary);
    o.catalog = &userDeviceCatalog();
    return o;
}

std::vector<Topology> nextTopologies(const std::vector<const CaseStats*>& cases) {
    int nodes = 1;
    for (const CaseStats* c : cases)
        nodes = std::max(nodes, c->key.topology.nodes);
    return {Topology{2 * nodes, 0}, Topology{4 * nodes, 0}};
}

PredictionResult predictGroup(const std::vector<const CaseStats*>& cases, const ProbeFile& probes) {
    if (cases.empty()) return {};
    PredictOptions o;
    o.targets = nextTopologies(cases);
    o.catalog = &userDeviceCatalog();
    if (const auto link = probeLinkSpeed(probes)) {
        o.linkBytesPerSecond = link->bytesPerSecond;
        o.linkSource = link->source;
    }
    std::vector<CaseStats> group;
    for (const CaseStats* c : cases)
        group.push_back(*c);
    auto all = predictCases(group, o);
    if (all.empty()) return {};
    return std::move(all.front().result);
}

void addPrediction(ScalingData& d, const PredictionResult& r) {
    if (!r.refused.empty()) {
        d.predictionNote = "no prediction: " + r.refused;
        return;
    }
    if (r.predictions.empty()) return;
    for (const auto& p : r.predictions)
        d.predicted.push_back(PredictedPoint{p.topology, p.topology.ranks(), p.throughput,
                                             p.ci95.lo, p.ci95.hi, p.model});
    d.predictedLabel = "Predicted (ring model, backtest median |error| " +
                       formatFixed(builtinBacktest().medianAbsPct, 1) + " %)";
    d.predictionNote = "predicted: link " + formatFixed(r.linkBytesPerSecond * 8 / 1e9, 1) +
                       " Gbit/s " + r.linkSource;
}

} // namespace sv::ui
