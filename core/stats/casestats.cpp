#include "core/stats/casestats.h"

#include "core/stats/casewarnings.h"
#include "core/formats/formatregistry.h"
#include "core/model/numerics.h"
#include "core/model/parallel.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>

namespace sv {
namespace {

auto orderKey(const CaseKey& k) {
    return std::make_tuple(k.format, k.model, k.precision, k.batchPerDevice, k.topology.ranks(),
                           k.topology.nodes, k.ownCase);
}

// Iglewicz and Hoaglin's modified z-score; with a zero MAD, the mean absolute deviation scaled
// to the same units stands in.
std::vector<std::size_t> outliers(const std::vector<double>& v) {
    if (v.size() < 3) return {};
    const double med = numpyMedian(v);
    std::vector<double> dev;
    for (double x : v)
        dev.push_back(std::fabs(x - med));
    double scale = numpyMedian(dev) / 0.6745;
    if (scale == 0.0)
        scale = std::accumulate(dev.begin(), dev.end(), 0.0) / static_cast<double>(dev.size()) *
                1.253314;
    std::vector<std::size_t> out;
    if (scale == 0.0) return out;
    for (std::size_t i = 0; i < v.size(); ++i)
        if (std::fabs(v[i] - med) / scale > 3.5) out.push_back(i);
    return out;
}

// Each case draws its own bootstrap resamples, the same wherever and whenever it is computed.
std::string caseSeedText(const CaseKey& k) {
    return k.model + "/" + k.precision + "/" + std::to_string(k.batchPerDevice) + "/" +
           k.topology.name();
}

void fillStatistics(CaseStats& c, Method method) {
    const auto& v = c.values;
    if (v.empty()) return;
    // DLPerf's compute_average adds in order and divides; with the time method the values are
    // Python floats (Python's rounding), with the speed method numpy.float64 (numpy's).
    double total = 0.0;
    for (double x : v)
        total += x;
    const double mean = total / static_cast<double>(v.size());
    c.mean = method == Method::Time ? roundPython2(mean) : roundNumpy2(mean);
    c.median = roundNumpy2(numpyMedian(v)); // round(np.median(list), 2)
    c.min = *std::min_element(v.begin(), v.end());
    c.max = *std::max_element(v.begin(), v.end());
    if (v.size() > 1) {
        double ss = 0.0;
        for (double x : v)
            ss += (x - mean) * (x - mean);
        c.stdev = std::sqrt(ss / static_cast<double>(v.size() - 1));
        if (mean != 0.0) c.cvPct = *c.stdev / mean * 100.0;
    }
    for (std::size_t i : outliers(v))
        c.outlierRepeats.push_back(c.repeats[i]);
}

std::optional<std::string> referenceMismatch(const ReferenceValue& ref, const CaseKey& key) {
    const std::optional<std::string>& precision =
        ref.series && ref.series->precision ? ref.series->precision : ref.table->precision;
    const std::optional<int>& batch = ref.series && ref.series->batchPerDevice
                                          ? ref.series->batchPerDevice
                                          : ref.table->batchPerDevice;
    if ((!precision || *precision == key.precision) && (!batch || *batch == key.batchPerDevice))
        return std::nullopt;
    return "no delta: " + ref.label() + " is " + precision.value_or("?") + " batch " +
           (batch ? std::to_string(*batch) : std::string("?")) + " per GPU, this case " +
           key.precision + " batch " + std::to_string(key.batchPerDevice);
}

// The reference for the case, and the case by the reference's method against it.
void compareWithReference(CaseStats& c, const std::vector<const RunResult*>& used,
                          const SummaryOptions& options, const ReferenceCatalog& references) {
    const std::string topo = c.key.topology.name();
    c.reference = options.reference.empty()
                      ? references.lookup(c.key.precision, c.key.batchPerDevice, topo, c.key.model,
                                          logFormatOf(c.key.format).framework)
                      : references.lookup(options.reference, topo);
    if (!c.reference || !c.median || c.reference->throughput == 0.0) return;
    const Method method = parseMethod(c.reference->table->method).value_or(options.method);
    c.referenceMethod = std::string(methodName(method));
    std::vector<double> values;
    for (const RunResult* r : used)
        if (auto v = r->throughput(method)) values.push_back(*v);
    if (values.empty()) return;
    c.referenceMedian = roundNumpy2(numpyMedian(values));
    // A table of another precision or batch size measures something else: a delta against it
    // would read as a finding.
    if (auto why = referenceMismatch(*c.reference, c.key)) {
        c.deltaNote = *why;
        return;
    }
    c.deltaPct = (*c.referenceMedian - c.reference->throughput) / c.reference->throughput * 100.0;
    if (!c.reference->series) return;
    auto repeats = c.reference->series->repeats.find(topo);
    if (repeats == c.reference->series->repeats.end()) return;
    c.referenceContrast =
        contrastRepeats(repeats->second, c.reference->throughput, values, *c.referenceMedian,
                        "contrast/" + caseSeedText(c.key), "this case", options.contrast);
}

// A case as its runs are sorted into it: the runs its statistics are of, and those the
// monitor's disturbance left out.
struct Building {
    CaseStats stats;
    std::vector<const RunResult*> used;
    std::vector<const RunResult*> leftOutDisturbed;
};
using CaseOrder = decltype(orderKey(CaseKey{}));

// Every run into its case: counted, left out as disturbed, or excluded with its reason.
std::map<CaseOrder, Building> sortIntoCases(const std::vector<RunResult>& runs,
                                            const SummaryOptions& options) {
    std::map<CaseOrder, Building> cases;
    std::vector<const RunResult*> sorted;
    for (const auto& r : runs)
        sorted.push_back(&r);
    // Results do not depend on the order logs were read in.
    std::sort(sorted.begin(), sorted.end(), [](const RunResult* a, const RunResult* b) {
        return std::tie(a->key.repeat, a->path) < std::tie(b->key.repeat, b->path);
    });
    for (const RunResult* r : sorted) {
        if (r->inProgress) continue;
        // A run read before its format was known (an empty id) is NGC MXNet's, as the parser
        // read it: one case with the detected ones, not a case of its own.
        const CaseKey key{r->key.model,
                          r->key.precision,
                          r->key.batchPerDevice,
                          r->key.topology,
                          std::string(logFormatOf(r->key.format).id),
                          r->key.ownCase};
        Building& b = cases[orderKey(key)];
        CaseStats& c = b.stats;
        c.key = key;
        for (const auto& d : r->key.origins.details)
            c.keySources.push_back(r->path + ": " + d);
        const auto value = r->throughput(options.method);
        if (r->usable() && value && r->disturbed && options.excludeDisturbed) {
            c.excluded.push_back({r->path, r->key.repeat, "disturbed: " + r->disturbance});
            b.leftOutDisturbed.push_back(r);
        } else if (r->usable() && value) {
            c.repeats.push_back(r->key.repeat);
            c.values.push_back(*value);
            c.paths.push_back(r->path);
            b.used.push_back(r);
        } else {
            c.excluded.push_back(
                {r->path, r->key.repeat,
                 r->reason.empty() ? std::string(statusName(r->status)) : r->reason});
        }
    }
    return cases;
}

// The case's speedup and efficiency against its 1n1g baseline among cases, or why none.
void fillSpeedup(CaseStats& c, const std::vector<CaseStats>& cases) {
    if (!c.median) {
        c.speedupNote = "no usable run";
        return;
    }
    if (c.key.topology.ranks() <= 0) {
        // A run whose GPUs nobody states (RunKey::origins): its throughput, no speedup.
        c.speedupNote = "GPU count unknown (?): no speedup";
        return;
    }
    if (c.key.batchPerDevice <= 0) {
        c.speedupNote = "batch size unknown (?): no speedup against another GPU count";
        return;
    }
    const auto base = std::find_if(cases.begin(), cases.end(), [&](const CaseStats& b) {
        return b.key.sameGroup(c.key) && b.key.topology == Topology{1, 1};
    });
    if (base == cases.end() || !base->median || *base->median == 0.0) {
        c.speedupNote = "no 1n1g baseline for " + c.key.model + " " + c.key.precision + " batch " +
                        std::to_string(c.key.batchPerDevice);
        return;
    }
    const double ratio = *c.median / *base->median;
    c.speedup = roundNumpy2(ratio);
    c.efficiency = ratio / c.gpus();
    if (&*base == &c) {
        c.speedupCi95 = c.efficiencyCi95 = Interval{1.0, 1.0}; // itself, exactly
    } else if (c.medianCi95 && base->medianCi95 && base->medianCi95->lo > 0.0) {
        // The ratio's extremes over both intervals: wide, never falsely narrow.
        c.speedupCi95 = Interval{c.medianCi95->lo / base->medianCi95->hi,
                                 c.medianCi95->hi / base->medianCi95->lo};
        c.efficiencyCi95 = Interval{c.speedupCi95->lo / c.gpus(), c.speedupCi95->hi / c.gpus()};
    }
}

} // namespace

std::vector<CaseStats> computeCases(const std::vector<RunResult>& runs,
                                    const SummaryOptions& options,
                                    const ReferenceCatalog& references) {
    std::vector<CaseStats> out;
    std::vector<std::vector<const RunResult*>> used, leftOut;
    for (auto& [k, b] : sortIntoCases(runs, options)) {
        out.push_back(std::move(b.stats));
        used.push_back(std::move(b.used));
        leftOut.push_back(std::move(b.leftOutDisturbed));
    }
    // Each case's statistics (its bootstrap above all) depend on no other case's.
    forEachIndex(out.size(), 0, [&](std::size_t i) {
        fillStatistics(out[i], options.method);
        out[i].medianCi95 = bootstrapMedianCi(out[i].values, seedFor(caseSeedText(out[i].key)));
        out[i].energy =
            caseEnergy(used[i], seedFor("energy " + caseSeedText(out[i].key)), &out[i].energyNote);
        return true;
    });
    for (auto& c : out)
        fillSpeedup(c, out);
    forEachIndex(out.size(), 0, [&](std::size_t i) {
        compareWithReference(out[i], used[i], options, references);
        out[i].peak = peakShare(out[i].key.model, out[i].key.precision, out[i].gpus(),
                                out[i].median, options.peak);
        out[i].warnings = caseWarnings(out[i], used[i], options.trust);
        if (auto w = disturbedWarning(leftOut[i], true)) out[i].warnings.push_back(*w);
        return true;
    });
    return out;
}

bool CaseStats::medianCiIsMinMax() const {
    if (!medianCi95 || values.size() < 2) return false;
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    return medianCi95->lo == *lo && medianCi95->hi == *hi;
}

} // namespace sv
