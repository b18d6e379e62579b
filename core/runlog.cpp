#include "runlog.h"

#include "formatanalyzer.h"
#include "numerics.h"
#include "runanalyzer.h"
#include "runloader.h"
#include "ratelineanalyzer.h"
#include "steptimeanalyzer.h"

#include <algorithm>
#include <cmath>
#include <memory>

namespace sv {

RunLog readRunLog(const LogFile& file, const ParseOptions& optionsIn) {
    RunLog log;
    log.file = file;
    // The log's own format, unless the caller knows it; NGC MXNet when none is detected.
    ParseOptions options = optionsIn;
    const LogFormat* format =
        file.key.format.empty() ? detectLogFile(file.path) : findLogFormat(file.key.format);
    if (format) options.format = format->message;
    log.file.key.format = std::string(format ? format->id : ngcMxnetFormat().id);
    LogParser parser(options, [&](const SpeedSample& s) { log.samples.push_back(s); });
    const LogRead read = readLogFile(file.path, parser);
    log.readError = read.error;
    log.position = read.position;
    log.counters = parser.counters();
    log.unterminatedTail = parser.pendingBytes() > 0;
    return log;
}

RunResult analyzeRunLog(const RunLog& log, const MeasureOptions& options) {
    RunResult result;
    result.path = log.file.display;
    result.key = log.file.key;
    result.key.format = std::string(logFormatOf(log.file.key.format).id);
    if (log.readError) {
        result.status = RunStatus::Unreadable;
        result.reason = "cannot be read: " + *log.readError;
        result.counters = log.counters;
        return result;
    }
    const LogFormat* format = findLogFormat(log.file.key.format);
    if (format && format->makeAnalyzer) {
        const auto analyzer = format->makeAnalyzer(*format, log.file.key.topology,
                                                   log.file.key.batchPerDevice, options);
        for (const auto& s : log.samples)
            analyzer->add(s);
        analyzer->finish(result, log.counters, log.unterminatedTail);
        return result;
    }
    if (format && format->family == FormatFamily::LoggedRates) {
        RateLineAnalyzer analyzer(*format, log.file.key.topology, log.file.key.batchPerDevice,
                                  options);
        for (const auto& s : log.samples)
            analyzer.add(s);
        analyzer.finish(result, log.counters, log.unterminatedTail);
        return result;
    }
    if (format && format->family == FormatFamily::StepTimestamps) {
        StepTimeAnalyzer analyzer(*format, log.file.key.topology, log.file.key.batchPerDevice,
                                  options);
        for (const auto& s : log.samples)
            analyzer.add(s);
        analyzer.finish(result, log.counters, log.unterminatedTail);
        return result;
    }
    RunAnalyzer analyzer(log.file.key.topology, log.file.key.batchPerDevice, options);
    for (const auto& s : log.samples)
        analyzer.add(s);
    analyzer.finish(result, log.counters, log.unterminatedTail);
    return result;
}

IterationTrace traceRunLog(const RunLog& log) {
    IterationTrace trace;
    const int ranks = std::max(1, log.file.key.topology.ranks());
    trace.ranks = ranks;
    std::vector<std::vector<double>> perIteration;
    std::vector<std::int64_t> seen(static_cast<std::size_t>(ranks), 0);
    std::int64_t untagged = 0;
    for (const auto& s : log.samples) {
        if (!s.hasSpeed || !std::isfinite(s.speed)) continue;
        std::int64_t k;
        if (s.rank >= 0 && s.rank < ranks)
            k = seen[static_cast<std::size_t>(s.rank)]++;
        else if (s.rank < 0)
            k = untagged++ / ranks;
        else
            continue;
        if (static_cast<std::size_t>(k) >= perIteration.size())
            perIteration.resize(static_cast<std::size_t>(k) + 1);
        perIteration[static_cast<std::size_t>(k)].push_back(s.speed);
    }
    for (auto& values : perIteration) {
        if (values.empty()) {
            trace.median.push_back(std::nan(""));
            trace.min.push_back(std::nan(""));
            trace.max.push_back(std::nan(""));
            continue;
        }
        trace.min.push_back(*std::min_element(values.begin(), values.end()));
        trace.max.push_back(*std::max_element(values.begin(), values.end()));
        trace.median.push_back(numpyMedianInPlace(values));
    }
    return trace;
}

IncrementalRunLog::IncrementalRunLog(LogFile file, ParseOptions options)
    : m_options(std::move(options)) {
    m_log.file = std::move(file);
    restart();
}

LogParser& IncrementalRunLog::restart() {
    m_log.samples.clear();
    m_log.counters = {};
    m_log.unterminatedTail = false;
    m_log.position = {};
    m_parser = std::make_unique<LogParser>(
        m_options, [this](const SpeedSample& s) { m_log.samples.push_back(s); });
    return *m_parser;
}

bool IncrementalRunLog::update() {
    const bool hadError = m_log.readError.has_value();
    // After an error nothing read before can be trusted to be the same file: start again.
    if (hadError) restart();
    const LogPosition before = m_log.position;
    const LogRead read = readLogFile(m_log.file.path, *m_parser, m_log.position,
                                     [this]() -> LogParser& { return restart(); });
    m_log.position = read.position;
    m_log.readError = read.error;
    m_log.counters = m_parser->counters();
    m_log.unterminatedTail = m_parser->pendingBytes() > 0;
    return read.restarted || m_log.position != before || hadError != read.error.has_value();
}

} // namespace sv
