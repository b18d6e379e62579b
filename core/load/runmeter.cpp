#include "core/load/runmeter.h"

#include "core/model/plausibility.h"
#include "core/parse/logparser.h"

namespace sv {
namespace {

// A complete run whose figure cannot be a throughput is excluded with the reason, its figures
// withdrawn: no output shows them as figures and no median takes them.
void excludeImplausible(RunResult& r, std::string_view unit) {
    if (r.status != RunStatus::Complete) return;
    for (const Method m : {Method::Time, Method::Speed}) {
        const auto figure = r.throughput(m);
        if (!figure) continue;
        if (auto why = implausibleThroughput(*figure, unit)) {
            r.status = RunStatus::Unusable;
            r.reason = "its throughput by the " + std::string(methodName(m)) +
                       " method cannot be one: " + *why +
                       " (a corrupted or misread line?); not counted";
            r.timeThroughput.reset();
            r.speedThroughput.reset();
            r.methodDifferencePct.reset();
            r.methodsDisagree = false;
            return;
        }
    }
}

// A read the format's line reader stopped part-way (its time per file spent) gives no figure:
// the lines it did not read could change it.
void excludeCutRead(RunResult& r, const ParseCounters& counters) {
    if (counters.budgetLine == 0) return;
    r.status = RunStatus::Unusable;
    r.reason = "the format's line pattern took more than " + quoteFigure(counters.budgetSeconds) +
               " s over this log: reading stopped at line " + std::to_string(counters.budgetLine) +
               " of " + std::to_string(counters.lines) +
               " (a pattern slow on every line?); not counted";
    r.timeThroughput.reset();
    r.speedThroughput.reset();
    r.methodDifferencePct.reset();
    r.methodsDisagree = false;
}

// Lines skipped for their length are said by every analyzer's run, with where and why: a
// figure or an empty run without them would not say that part of the log was never read.
void sayOverlongLines(RunResult& r, const ParseCounters& counters, std::size_t maxLineBytes) {
    if (counters.overlongLines == 0) return;
    if (r.reason.find("over-long") != std::string::npos) return;
    for (const auto& note : r.notes)
        if (note.find("over-long") != std::string::npos) return;
    const std::string said = std::to_string(counters.overlongLines) +
                             " over-long lines skipped (first at line " +
                             std::to_string(counters.firstOverlongLine) + ": longer than " +
                             std::to_string(maxLineBytes >> 20) + " MiB, not read)";
    if (r.status == RunStatus::Complete)
        r.notes.push_back(said);
    else
        r.reason += (r.reason.empty() ? "" : "; ") + said;
}

// A file of bytes without one line break (a 5 GB file of NUL bytes once showed as "empty"):
// not a text log, said with its size. Only past the longest line read, so that a live log whose
// first line is still being written stays an empty run.
void sayNoLineBreak(RunResult& r, const ParseCounters& counters, std::size_t maxLineBytes) {
    if (r.status != RunStatus::Empty || counters.lines > 0 ||
        counters.bytes <= static_cast<std::int64_t>(maxLineBytes))
        return;
    r.status = RunStatus::Unusable;
    r.reason = std::to_string(counters.bytes) +
               " bytes without a line break: not a text log (binary, or NUL bytes?); not read "
               "as one";
}

using Analyzer = std::variant<RunAnalyzer, RateLineAnalyzer, StepTimeAnalyzer>;

Analyzer makeAnalyzer(const LogFormat& f, const RunKey& key, const MeasureOptions& m) {
    switch (f.family) {
    case FormatFamily::LoggedRates:
        return Analyzer(std::in_place_type<RateLineAnalyzer>, f, key.topology, key.batchPerDevice,
                        m);
    case FormatFamily::StepTimestamps:
        return Analyzer(std::in_place_type<StepTimeAnalyzer>, f, key.topology, key.batchPerDevice,
                        m);
    case FormatFamily::MxnetSpeedometer:
    case FormatFamily::Own:
        break;
    }
    return Analyzer(std::in_place_type<RunAnalyzer>, key.topology, key.batchPerDevice, m);
}

} // namespace

RunMeter::RunMeter(const LogFile& log, const LogFormat& format, const MeasureOptions& measure)
    : m_path(log.display), m_unit(format.unit), m_key(log.key),
      m_measure(windowFor(format, measure)), m_analyzer(makeAnalyzer(format, log.key, m_measure)) {
    m_key.format = std::string(format.id);
    if (format.id == log.key.format) m_detection = log.detection;
    if (format.makeAnalyzer)
        m_own = format.makeAnalyzer(format, log.key.topology, log.key.batchPerDevice, m_measure);
}

RunResult RunMeter::base() const {
    RunResult r;
    r.path = m_path;
    r.key = m_key;
    r.window = m_measure;
    return r;
}

RunResult RunMeter::result(const ParseCounters& counters, bool unterminatedTail) const {
    RunResult r = base();
    // DLPerf's methods read every rank of a known topology: a DLPerf log copied out of its
    // <N>n<G>g folder has none, and says so rather than a rank count.
    if (!m_own && m_key.topology.ranks() <= 0 && m_key.origins.topology == KeySource::Unknown) {
        r.status = RunStatus::Unusable;
        r.counters = counters;
        r.reason = "its topology is unknown (?): DLPerf's methods need the nodes and GPUs of every "
                   "rank's lines, and this log outside an <N>n<G>g folder does not say them (a "
                   "scaleview.json beside it can)";
        if (!m_detection.empty()) r.notes.push_back(m_detection);
        return r;
    }
    if (m_own)
        m_own->finish(r, counters, unterminatedTail);
    else
        std::visit([&](const auto& a) { a.finish(r, counters, unterminatedTail); }, m_analyzer);
    if (!m_detection.empty()) r.notes.insert(r.notes.begin(), m_detection);
    excludeImplausible(r, m_unit);
    excludeCutRead(r, counters);
    sayOverlongLines(r, counters, ParseOptions{}.maxLineBytes);
    sayNoLineBreak(r, counters, ParseOptions{}.maxLineBytes);
    return r;
}

RunResult RunMeter::unreadable(const std::string& error, const ParseCounters& counters) const {
    RunResult r = base();
    r.status = RunStatus::Unreadable;
    r.reason = "cannot be read: " + error;
    r.counters = counters;
    return r;
}

} // namespace sv
