#include "core/compare/comparison.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace sv {
namespace {

auto orderKey(const CaseKey& k) {
    return std::make_tuple(k.model, k.precision, k.batchPerDevice, k.topology.ranks(),
                           k.topology.nodes);
}

// The text casestats seeds a reference's contrast with, so that a reference compared here and in
// a summary draws the same resamples.
std::string seedText(const CaseKey& k) {
    return "contrast/" + k.model + "/" + k.precision + "/" + std::to_string(k.batchPerDevice) +
           "/" + k.topology.name();
}

// A series of one framework (a TensorFlow 2 tree beside an NGC MXNet one) meets the others' cases
// by model, precision, batch and topology: its keys without the format. A series of several
// keeps it, so that its frameworks' cases stay apart.
bool oneFormat(const ComparisonSeries& s) {
    return std::all_of(s.cases.begin(), s.cases.end(), [&](const CaseStats& c) {
        return c.key.format == s.cases.front().key.format;
    });
}

CaseKey matchKey(const CaseKey& k, bool single) {
    CaseKey out = k;
    if (single) out.format.clear();
    return out;
}

const CaseStats* findCase(const ComparisonSeries& s, bool single, const CaseKey& key) {
    for (const auto& c : s.cases)
        if (matchKey(c.key, single) == key) return &c;
    return nullptr;
}

CaseContrast contrast(const CaseStats* a, const CaseStats* b, const CaseKey& key,
                      std::size_t bIndex, const ComparisonOptions& options) {
    CaseContrast out;
    const bool hasA = a && a->median, hasB = b && b->median;
    if (!hasA && !hasB) {
        out.verdict = Verdict::Absent;
        return out;
    }
    if (!hasB) {
        out.verdict = Verdict::OnlyInA;
        return out;
    }
    if (!hasA) {
        out.verdict = Verdict::OnlyInB;
        return out;
    }
    return contrastCase(key, a->values, *a->median, b->values, *b->median,
                        "series " + std::to_string(bIndex + 1), options);
}

// The case's `disturbed` warning, in words; empty where none of its runs was.
std::string disturbedRuns(const CaseStats* c) {
    if (!c) return {};
    for (const auto& w : c->warnings)
        if (w.kind == "disturbed") return w.message;
    return {};
}

// The facts of a case of a series: the series' own, then the case's format and window, then
// what its logs' parameter dumps state.
RecordedFacts sideFacts(const ComparisonSeries& s, const CaseStats* c) {
    RecordedFacts out = *s.recorded;
    if (c) {
        const RecordedFacts own = caseFacts(c->key.format, s.window);
        out.insert(out.end(), own.begin(), own.end());
        const auto i = static_cast<std::size_t>(c - s.cases.data());
        if (i < s.caseRecorded.size())
            out.insert(out.end(), s.caseRecorded[i].begin(), s.caseRecorded[i].end());
    }
    return out;
}

// What differs between a case's records in series a and b; a case missing on one side is
// compared by what the series recorded.
std::vector<EnvironmentChange> changesBetween(const ComparisonSeries& a, const CaseStats* ca,
                                              const ComparisonSeries& b, const CaseStats* cb) {
    if (!a.recorded || !b.recorded) return {};
    const bool both = ca && cb;
    return diffFacts(sideFacts(a, both ? ca : nullptr), sideFacts(b, both ? cb : nullptr));
}

} // namespace

Comparison compareSeries(const std::vector<ComparisonSeries>& series,
                         const ComparisonOptions& options) {
    Comparison out;
    out.options = options;
    for (const auto& s : series) {
        out.labels.push_back(s.label);
        out.sources.push_back(s.source);
        out.methods.push_back(s.method);
    }
    // Every key of every series once, in the cases' usual order.
    std::vector<bool> single;
    for (const auto& s : series)
        single.push_back(oneFormat(s));
    std::vector<CaseKey> keys;
    for (std::size_t i = 0; i < series.size(); ++i)
        for (const auto& c : series[i].cases)
            if (const CaseKey k = matchKey(c.key, single[i]);
                std::find(keys.begin(), keys.end(), k) == keys.end())
                keys.push_back(k);
    std::stable_sort(keys.begin(), keys.end(),
                     [](const CaseKey& x, const CaseKey& y) { return orderKey(x) < orderKey(y); });
    for (const auto& key : keys) {
        CaseComparison cc;
        cc.key = key;
        std::vector<const CaseStats*> found;
        for (std::size_t i = 0; i < series.size(); ++i) {
            const CaseStats* c = findCase(series[i], single[i], key);
            found.push_back(c);
            cc.medians.push_back(c ? c->median : std::nullopt);
            cc.repeats.push_back(c ? c->values.size() : 0);
            cc.disturbed.push_back(disturbedRuns(c));
        }
        for (std::size_t i = 1; i < series.size(); ++i) {
            cc.contrasts.push_back(contrast(found[0], found[i], key, i, options));
            cc.changed.push_back(changesBetween(series[0], found[0], series[i], found[i]));
        }
        out.cases.push_back(std::move(cc));
    }
    return out;
}

CaseContrast contrastCase(const CaseKey& key, const std::vector<double>& a, double medianA,
                          const std::vector<double>& b, double medianB, std::string_view bName,
                          const ComparisonOptions& options) {
    return contrastRepeats(a, medianA, b, medianB, seedText(key), bName, options);
}

std::string_view verdictWords(Verdict v) {
    switch (v) {
    case Verdict::Faster:
        return "faster";
    case Verdict::Slower:
        return "slower";
    case Verdict::NoDifference:
        return "no measurable difference";
    case Verdict::OnlyInA:
        return "only in A";
    case Verdict::OnlyInB:
        return "only in B";
    case Verdict::Absent:
        return "in neither";
    }
    return "?";
}

std::optional<ComparisonSeries> seriesFromReference(const ReferenceCatalog& catalog,
                                                    std::string_view reference) {
    if (!catalog.knows(reference)) return std::nullopt;
    const auto colon = reference.find(':');
    const ReferenceTable* table = catalog.find(reference.substr(0, colon));
    const ReferenceSeries* series = table->primary();
    if (colon != std::string_view::npos)
        for (const auto& s : table->series)
            if (s.name == reference.substr(colon + 1)) series = &s;
    ComparisonSeries out;
    out.label = std::string(reference);
    out.source = table->title.empty() ? table->id : table->title;
    out.method = parseMethod(table->method).value_or(Method::Time);
    const auto precision = series->precision ? series->precision : table->precision;
    const auto batch = series->batchPerDevice ? series->batchPerDevice : table->batchPerDevice;
    for (const auto& [topo, figure] : series->throughput) {
        CaseStats c;
        c.key.model = table->model;
        c.key.precision = precision.value_or("");
        c.key.batchPerDevice = batch.value_or(0);
        c.key.topology = *parseTopology(topo);
        // The tables hold ResNet-50 figures of DLPerf's NGC MXNet runs (the report's other
        // frameworks' series are not told apart yet), so they meet the NGC MXNet cases.
        c.key.format = "ngc-mxnet";
        auto r = series->repeats.find(topo);
        c.values = r != series->repeats.end() ? r->second : std::vector<double>{figure};
        c.median = figure;
        out.cases.push_back(std::move(c));
    }
    return out;
}

} // namespace sv
