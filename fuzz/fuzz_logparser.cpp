// Fuzzes the log parser with each log format's line parser and analyzer, and format detection:
// it must never crash, never hold more than its line cap, and parsing the same bytes whole or in
// chunks (sizes drawn from the input), or with the general reading alone, must give the same
// samples.

#include "core/measure/formatanalyzer.h"
#include "core/formats/formatregistry.h"
#include "core/parse/logparser.h"
#include "core/measure/ratelineanalyzer.h"
#include "core/measure/runanalyzer.h"
#include "core/measure/steptimeanalyzer.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

struct Result {
    std::vector<sv::SpeedSample> samples;
    sv::ParseCounters counters;
    std::size_t pending = 0;
};

bool same(const sv::SpeedSample& a, const sv::SpeedSample& b) {
    const bool speedSame = a.speed == b.speed || (std::isnan(a.speed) && std::isnan(b.speed));
    return a.line == b.line && a.rank == b.rank && a.epoch == b.epoch &&
           a.batchFirst == b.batchFirst && a.batchLast == b.batchLast && a.hasTime == b.hasTime &&
           a.timeUs == b.timeUs && a.hasSpeed == b.hasSpeed && speedSame &&
           a.hasRounded2 == b.hasRounded2 && a.speedRounded2 == b.speedRounded2 &&
           a.hasIteration == b.hasIteration && a.hasDlperfValue == b.hasDlperfValue &&
           (a.dlperfValue == b.dlperfValue ||
            (std::isnan(a.dlperfValue) && std::isnan(b.dlperfValue)));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    // The first two bytes choose the chunking; a small cap makes the over-long path reachable.
    // The format is the one detected, as summarize does, or else one chosen by the first byte.
    const std::size_t step = 1 + data[0] % 61;
    const std::string_view text(reinterpret_cast<const char*>(data + 2), size - 2);
    const auto formats = sv::logFormats();
    const sv::LogFormat* detected = sv::detectLogFormat(text);
    const sv::LogFormat& format = detected ? *detected : formats[data[0] % formats.size()];
    sv::ParseOptions opt;
    opt.maxLineBytes = 64 + data[1] * 4;
    opt.format = format.message;

    Result whole, chunked;
    const sv::Topology topology{1 + data[0] % 3, 1 + data[1] % 4};
    sv::RunAnalyzer analyzer(topology, 32, {2, 5});
    sv::StepTimeAnalyzer stepAnalyzer(format, topology, 32, {2, 5});
    sv::RateLineAnalyzer rateAnalyzer(format, topology, 32, {2, 5});
    const auto ownAnalyzer =
        format.makeAnalyzer ? format.makeAnalyzer(format, topology, 32, {2, 5}) : nullptr;
    {
        sv::LogParser p(opt, [&](const sv::SpeedSample& s) {
            whole.samples.push_back(s);
            analyzer.add(s);
            stepAnalyzer.add(s);
            rateAnalyzer.add(s);
            if (ownAnalyzer) ownAnalyzer->add(s);
        });
        p.feed(text);
        whole.counters = p.counters();
        whole.pending = p.pendingBytes();
    }
    {
        sv::LogParser p(opt, [&](const sv::SpeedSample& s) { chunked.samples.push_back(s); });
        for (std::size_t pos = 0; pos < text.size(); pos += step) {
            p.feed(text.substr(pos, step));
            if (p.bufferedBytes() > opt.maxLineBytes) std::abort();
        }
        chunked.counters = p.counters();
        chunked.pending = p.pendingBytes();
    }
    // The general reading alone (no reader of the format's usual lines) reads the same.
    Result general;
    {
        sv::ParseOptions plain = opt;
        plain.format.parseUsual = nullptr;
        sv::LogParser p(plain, [&](const sv::SpeedSample& s) { general.samples.push_back(s); });
        p.feed(text);
        general.counters = p.counters();
    }
    if (whole.samples.size() != general.samples.size() ||
        whole.counters.lines != general.counters.lines ||
        whole.counters.markerLines != general.counters.markerLines)
        std::abort();
    for (std::size_t i = 0; i < whole.samples.size(); ++i)
        if (!same(whole.samples[i], general.samples[i])) std::abort();
    if (whole.samples.size() != chunked.samples.size()) std::abort();
    for (std::size_t i = 0; i < whole.samples.size(); ++i)
        if (!same(whole.samples[i], chunked.samples[i])) std::abort();
    if (whole.counters.lines != chunked.counters.lines ||
        whole.counters.markerLines != chunked.counters.markerLines ||
        whole.counters.overlongLines != chunked.counters.overlongLines ||
        whole.pending != chunked.pending)
        std::abort();
    sv::RunResult r, s, t, u;
    analyzer.finish(r, whole.counters, whole.pending > 0);
    stepAnalyzer.finish(s, whole.counters, whole.pending > 0);
    rateAnalyzer.finish(t, whole.counters, whole.pending > 0);
    if (ownAnalyzer) ownAnalyzer->finish(u, whole.counters, whole.pending > 0);
    for (const sv::RunResult* x : {&r, &s, &t, &u})
        if (x->status == sv::RunStatus::Complete &&
            (!x->timeThroughput || !std::isfinite(*x->speedThroughput)))
            std::abort();
    return 0;
}
