#include "core/load/runmeter.h"

namespace sv {
namespace {

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
    : m_path(log.display), m_key(log.key), m_measure(windowFor(format, measure)),
      m_analyzer(makeAnalyzer(format, log.key, m_measure)) {
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
