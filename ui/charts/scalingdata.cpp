#include "scalingdata.h"

#include <algorithm>

namespace sv::ui {

std::optional<double> ReferenceCurve::speedupAt(const Topology& t) const {
    auto it = throughput.find(t.name());
    if (it == throughput.end() || !baseline || *baseline <= 0) return std::nullopt;
    return it->second / *baseline;
}

int ScalingData::maxGpus() const {
    int m = 1;
    for (const auto& p : points)
        m = std::max(m, p.gpus);
    return m;
}

bool ScalingData::hasSpeedup() const {
    return std::any_of(points.begin(), points.end(),
                       [](const ScalingPoint& p) { return p.speedup.has_value(); });
}

ScalingData scalingData(const std::vector<const CaseStats*>& cases, const CaseGroup& group,
                        Method method, const std::vector<std::string>& references,
                        const ReferenceCatalog& catalog) {
    ScalingData d;
    d.group = group;
    d.method = method;
    for (const CaseStats* c : cases) {
        if (!group.contains(c->key)) continue;
        ScalingPoint p;
        p.topology = c->key.topology;
        p.gpus = c->gpus();
        p.median = c->median;
        p.min = c->min;
        p.max = c->max;
        p.repeats = static_cast<int>(c->values.size());
        p.speedup = c->speedup;
        p.efficiency = c->efficiency;
        d.points.push_back(p);
    }
    std::sort(d.points.begin(), d.points.end(), [](const ScalingPoint& a, const ScalingPoint& b) {
        return topologyLess(a.topology, b.topology);
    });
    for (const auto& id : references) {
        ReferenceCurve curve;
        curve.id = id;
        for (const auto& p : d.points)
            if (auto v = catalog.lookup(id, p.topology.name())) {
                curve.throughput[p.topology.name()] = v->throughput;
                if (curve.label.empty() && v->table && v->series) {
                    // Legends must stay short: a one-series table by its title up to the first
                    // comma ("DLPerf NGC MXNet 20.03"), a series by its name and table id.
                    const std::string& title = v->table->title;
                    curve.label = v->table->series.size() <= 1
                                      ? title.substr(0, title.find(','))
                                      : v->series->name + " · " + v->table->id;
                    curve.source = v->table->source;
                    curve.hardware = v->table->hardware;
                }
            }
        if (auto base = catalog.lookup(id, "1n1g")) curve.baseline = base->throughput;
        if (curve.label.empty()) curve.label = id; // no figure at any measured topology
        d.references.push_back(std::move(curve));
    }
    return d;
}

} // namespace sv::ui
