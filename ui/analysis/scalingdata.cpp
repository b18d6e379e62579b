#include "ui/analysis/scalingdata.h"

#include "core/measure/steadystateanalyzer.h"
#include "ui/analysis/analysis.h"
#include "core/formats/formatregistry.h"

#include "core/model/numerics.h"
#include "core/stats/peakshare.h"

#include <algorithm>
#include <cctype>

namespace sv::ui {

namespace {

// Fills the legend label, the full name, source and hardware of a "TABLE_ID[:SERIES]" reference;
// its table and series, when the catalog knows them.
std::pair<const ReferenceTable*, const ReferenceSeries*> describe(ReferenceCurve& curve,
                                                                  const ReferenceCatalog& catalog) {
    const auto colon = curve.id.find(':');
    const ReferenceTable* table = catalog.find(curve.id.substr(0, colon));
    const ReferenceSeries* series = nullptr;
    if (table)
        for (const auto& s : table->series)
            if (colon == std::string::npos ? &s == table->primary()
                                           : s.name == curve.id.substr(colon + 1))
                series = &s;
    if (!table || !series) {
        curve.label = curve.fullName = curve.id;
        return {nullptr, nullptr};
    }
    // Legends must stay short (Qt cuts what does not fit in one row): a comparison table's series
    // by its name ("OneFlow 0.2.0"), any other by the table's title up to a comma or bracket
    // ("DLPerf NGC MXNet 20.03"); then always precision and batch, so that two tables of one
    // source never read the same. The full name is the legend's hover text.
    std::string shortTitle = table->title.substr(0, table->title.find_first_of(",("));
    while (!shortTitle.empty() && shortTitle.back() == ' ')
        shortTitle.pop_back();
    // A series named after its precision and batch (NVIDIA's) says nothing the suffix does not.
    curve.label = table->series.size() > 1 && table->precision ? series->name : shortTitle;
    const std::string pb = precisionBatchLabel(series->precision, series->batchPerDevice);
    if (!pb.empty()) curve.label += " (" + pb + ")";
    curve.fullName = table->series.size() <= 1 ? table->title : series->name + " — " + table->title;
    curve.source = table->source;
    curve.hardware = table->hardware;
    curve.precision = series->precision ? series->precision : table->precision;
    curve.batchPerDevice = series->batchPerDevice ? series->batchPerDevice : table->batchPerDevice;
    return {table, series};
}

// "V100-SXM2-16GB FP32", "A100-SXM4-40GB TF32 tensor": a peak's device and number format.
std::string peakName(const PeakShare& p) {
    std::string device = p.device, format = p.precision;
    std::transform(device.begin(), device.end(), device.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    const auto under = format.find('_');
    if (under != std::string::npos) format[under] = ' ';
    std::transform(
        format.begin(), format.begin() + static_cast<long>(std::min(under, format.size())),
        format.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return device + " " + format;
}

// The percent-of-peak axis: the first case with a peak names it.
std::string peakAxisOf(const std::vector<const PeakShare*>& peaks) {
    for (const PeakShare* p : peaks) {
        if (!p->pct) continue;
        if (p->source.rfind("peak stated", 0) == 0)
            return "% of the stated peak (" + formatShown(p->peakTflops, 1) + " TFLOP/s per " +
                   (p->device == "CPU" ? "rank" : "device") + ")";
        return "% of " + peakName(*p) + " peak (dense)";
    }
    return {};
}

} // namespace

std::string precisionBatchLabel(const std::optional<std::string>& precision,
                                std::optional<int> batch) {
    std::string out;
    if (precision) {
        if (*precision == "fp32")
            out = "FP32";
        else if (*precision == "fp16")
            out = "FP16 AMP";
        else if (*precision == "fp16-noamp")
            out = "FP16 no AMP";
        else
            out = *precision;
    }
    if (batch) out += (out.empty() ? "bs " : ", bs ") + std::to_string(*batch);
    return out;
}

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
    auto any = [](const std::vector<ScalingPoint>& ps) {
        return std::any_of(ps.begin(), ps.end(),
                           [](const ScalingPoint& p) { return p.speedup.has_value(); });
    };
    return any(points) || std::any_of(others.begin(), others.end(),
                                      [&](const SeriesCurve& c) { return any(c.points); });
}

namespace {

ScalingPoint pointOf(const CaseStats& c, const ReferenceCatalog& catalog) {
    ScalingPoint p;
    p.topology = c.key.topology;
    p.gpus = c.gpus();
    p.median = c.median;
    p.min = c.min;
    p.max = c.max;
    if (c.medianCi95) {
        p.ciLow = c.medianCi95->lo;
        p.ciHigh = c.medianCi95->hi;
    }
    p.repeats = static_cast<int>(c.values.size());
    p.speedup = c.speedup;
    p.efficiency = c.efficiency;
    p.deltaPct = c.deltaPct;
    p.deltaNote = c.deltaNote;
    p.peakPct = c.peak.pct;
    p.peakUnknown = c.peak.pct ? std::string() : c.peak.unknown;
    if (c.reference && c.reference->table && c.reference->series) {
        ReferenceCurve against;
        against.id = referenceId(*c.reference->table, *c.reference->series);
        describe(against, catalog);
        p.deltaAgainst = against.label;
    }
    return p;
}

void sortPoints(std::vector<ScalingPoint>& points) {
    std::sort(points.begin(), points.end(), [](const ScalingPoint& a, const ScalingPoint& b) {
        return topologyLess(a.topology, b.topology);
    });
}

// The unit all the cases share (their formats'); "throughput units" if they differ.
std::string unitOf(const std::vector<std::string>& formats) {
    std::string unit;
    for (const auto& f : formats) {
        const std::string u(logFormatOf(f).unit);
        if (!unit.empty() && u != unit) return "throughput units";
        unit = u;
    }
    return unit.empty() ? std::string("images/s") : unit;
}

// Every format's figure is the log's own reports (its default window is the steady state's).
bool ownReportsOf(const std::vector<std::string>& formats) {
    return !formats.empty() && std::all_of(formats.begin(), formats.end(), [](const auto& f) {
        return readsOwnReports(logFormatOf(f));
    });
}

void addReferences(ScalingData& d, const std::vector<std::string>& references,
                   const ReferenceCatalog& catalog) {
    const CaseGroup& group = d.group;
    for (const auto& id : references) {
        ReferenceCurve curve;
        curve.id = id;
        const auto [table, series] = describe(curve, catalog);
        if ((curve.precision && *curve.precision != group.precision) ||
            (curve.batchPerDevice && *curve.batchPerDevice != group.batchPerDevice))
            curve.mismatch = "it is " + precisionBatchLabel(curve.precision, curve.batchPerDevice) +
                             ", the case " +
                             precisionBatchLabel(group.precision, group.batchPerDevice);
        for (const auto& p : d.points)
            if (auto v = catalog.lookup(id, p.topology.name())) {
                const std::string topology = p.topology.name();
                curve.throughput[topology] = v->throughput;
                if (table && series) {
                    // The published figure on the same scale as the measured one.
                    const PeakShare peak =
                        referencePeakShare(*table, *series, topology, DeviceCatalog::builtin());
                    if (peak.pct)
                        curve.peakPct[topology] = *peak.pct;
                    else
                        curve.peakUnknown = peak.unknown;
                }
                if (!v->series) continue;
                const auto r = v->series->repeats.find(topology);
                if (r == v->series->repeats.end() || r->second.empty()) continue;
                const auto [lo, hi] = std::minmax_element(r->second.begin(), r->second.end());
                curve.spread[topology] = {*lo, *hi};
            }
        if (auto base = catalog.lookup(id, "1n1g")) curve.baseline = base->throughput;
        d.references.push_back(std::move(curve));
    }
    // Two tables can share a short name (the DGX-1 and DGX-2 series of NVIDIA's examples): a
    // legend must still tell them apart.
    for (auto& c : d.references) {
        const auto same =
            std::count_if(d.references.begin(), d.references.end(),
                          [&](const ReferenceCurve& o) { return o.label == c.label; });
        if (same > 1) c.label += " [" + c.id.substr(0, c.id.find(':')) + "]";
    }
}

} // namespace

ScalingData scalingData(const std::vector<const CaseStats*>& cases, const CaseGroup& group,
                        Method method, const std::vector<std::string>& references,
                        const ReferenceCatalog& catalog) {
    ScalingData d;
    d.group = group;
    d.method = method;
    std::vector<std::string> formats;
    for (const CaseStats* c : cases) {
        if (!group.contains(c->key)) continue;
        d.points.push_back(pointOf(*c, catalog));
        formats.push_back(c->key.format);
    }
    d.unit = unitOf(formats);
    d.ownReports = ownReportsOf(formats);
    sortPoints(d.points);
    std::vector<const PeakShare*> peaks;
    for (const CaseStats* c : cases)
        if (group.contains(c->key)) peaks.push_back(&c->peak);
    d.peakAxis = peakAxisOf(peaks);
    addReferences(d, references, catalog);
    return d;
}

ScalingData scalingData(const std::vector<ComparisonSeries>& series, const CaseGroup& group,
                        Method method, const std::vector<std::string>& references,
                        const ReferenceCatalog& catalog) {
    ScalingData d;
    d.group = group;
    d.method = method;
    std::vector<std::string> formats;
    std::vector<std::vector<ScalingPoint>> each;
    std::vector<Topology> topologies;
    for (const auto& s : series) {
        std::vector<ScalingPoint> points;
        for (const auto& c : s.cases) {
            points.push_back(pointOf(c, catalog));
            // A framework series has its format as its source, its keys none.
            formats.push_back(c.key.format.empty() ? s.source : c.key.format);
            if (std::find(topologies.begin(), topologies.end(), c.key.topology) == topologies.end())
                topologies.push_back(c.key.topology);
        }
        each.push_back(std::move(points));
    }
    std::sort(topologies.begin(), topologies.end(), topologyLess);
    d.unit = unitOf(formats);
    d.ownReports = ownReportsOf(formats);
    // Aligned: one point per topology in every series; where a series lacks it, no figure.
    auto aligned = [&](const std::vector<ScalingPoint>& points) {
        std::vector<ScalingPoint> out;
        for (const auto& t : topologies) {
            auto it = std::find_if(points.begin(), points.end(),
                                   [&](const ScalingPoint& p) { return p.topology == t; });
            if (it != points.end()) {
                out.push_back(*it);
            } else {
                ScalingPoint empty;
                empty.topology = t;
                empty.gpus = t.ranks();
                out.push_back(empty);
            }
        }
        return out;
    };
    for (std::size_t i = 0; i < series.size(); ++i) {
        if (i == 0) {
            d.label = series[i].label;
            d.points = aligned(each[i]);
        } else {
            d.others.push_back(SeriesCurve{series[i].label, aligned(each[i])});
        }
    }
    std::vector<const PeakShare*> peaks;
    for (const auto& s : series)
        for (const auto& c : s.cases)
            peaks.push_back(&c.peak);
    d.peakAxis = peakAxisOf(peaks);
    addReferences(d, references, catalog);
    return d;
}

} // namespace sv::ui
