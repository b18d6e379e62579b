#include "core/stats/casepredictions.h"

#include "core/stats/predictionbacktest.h"

namespace sv {

std::vector<CasePredictions> predictCases(const std::vector<CaseStats>& cases,
                                          const PredictOptions& options) {
    const DeviceCatalog& catalog = options.catalog ? *options.catalog : DeviceCatalog::builtin();
    const Backtest& backtest = builtinBacktest();
    std::vector<CasePredictions> out;
    for (std::size_t i = 0; i < cases.size();) {
        std::size_t end = i;
        PredictionInput in;
        while (end < cases.size() && cases[end].key.sameGroup(cases[i].key)) {
            const auto& c = cases[end++];
            if (c.median && c.gpus() > 0)
                in.points.push_back({c.key.topology, *c.median, c.medianCi95});
        }
        const CaseKey& key = cases[i].key;
        in.batchPerDevice = key.batchPerDevice;
        if (const ModelFlops* m = catalog.findModel(key.model))
            in.gradientBytes = gradientBytes(*m, key.precision);
        in.linkBytesPerSecond = options.linkBytesPerSecond;
        in.linkSource = options.linkSource;
        in.calibratedHalfWidth = backtest.p90AbsPct / 100.0;
        in.backtest = backtest.summary() + " (docs/prediction.md)";
        CasePredictions p{key, predictTopologies(in, options.targets)};
        if (p.result.refused.empty() && p.result.predictions.empty())
            p.result.refused = "no topology asked has the measured " +
                               std::to_string(p.result.gpusPerNode) + " devices per node";
        out.push_back(std::move(p));
        i = end;
    }
    return out;
}

} // namespace sv
