#include "core/load/runlog.h"

#include "core/formats/userformat.h"
#include "core/measure/steadystateanalyzer.h"

#include <atomic>

namespace sv {
namespace {

// The trace as the run's throughput. A format file's per-GPU values (Horovod's "Iter #3: 245.3
// img/sec per GPU"), and the general reader's where the line says "per GPU", are one GPU's: each
// is drawn times the run's GPUs, as the run's figure is (userformatanalyzer.cpp,
// steadystateanalyzer.cpp), so that the trace's axis, titled with the run's figure, does not
// show 245 under "1960.80 images/s". Where the GPUs are unknown the run has no figure and the
// values stay as read.
std::shared_ptr<const IterationTrace> runTrace(IterationTrace trace, const LogFormat& format,
                                               const RunResult& result) {
    const UserFormat* user = userFormatOf(format);
    const int gpus = result.key.topology.ranks();
    const bool perGpu =
        (user && user->perGpu()) || format.makeAnalyzer == &makePerDeviceRateAnalyzer;
    if (perGpu && gpus > 0)
        for (std::vector<double>* values : {&trace.median, &trace.min, &trace.max})
            for (double& v : *values)
                v *= gpus;
    return std::make_shared<const IterationTrace>(std::move(trace));
}

} // namespace

std::size_t RunLog::retainedValues() const {
    return trace ? trace->median.size() + trace->min.size() + trace->max.size() : 0;
}

RunLog readRunLog(const LogFile& file, const MeasureOptions& measure, const ParseOptions& options) {
    RunLog log;
    log.file = file;
    log.measure = measure;
    LoadOptions load;
    load.parse = options;
    load.measure = measure;
    // Only a format whose lines carry their throughput has a per-iteration trace to draw. The
    // format found here is the one loadRun reads with (not detected a second time), unless none
    // was found: then loadRun says why.
    std::string undetected;
    const LogFormat& format = chooseLogFormat(file, load, &undetected);
    IterationTraceBuilder trace(ranksLogging(format, file.key.topology), format.traceStepSpans);
    LogFile known = file;
    if (undetected.empty()) known.key.format = std::string(format.id);
    LogRead read;
    log.result = loadRun(
        known, load,
        [&](const SpeedSample& s) {
            if (format.speedIsThroughput) trace.add(s);
        },
        &read);
    log.file.key.format = log.result.key.format;
    log.readError = read.error;
    log.position = read.position;
    log.counters = log.result.counters;
    log.unterminatedTail = log.result.unterminatedTail;
    log.trace = runTrace(trace.trace(), format, log.result);
    log.workload = readWorkloadHeader(file.path);
    return log;
}

std::vector<RunLog> readRunLogs(const std::vector<LogFile>& files, const MeasureOptions& measure,
                                int threads) {
    std::vector<RunLog> out(files.size());
    forEachLog(files, threads, [&](std::size_t i) {
        out[i] = readRunLog(files[i], measure);
        return true;
    });
    return out;
}

RunResult analyzeRunLog(const RunLog& log, const MeasureOptions& measure) {
    if (sameMeasure(log.measure, measure)) return log.result;
    return readRunLog(log.file, measure).result;
}

IterationTrace traceRunLog(const RunLog& log) {
    if (log.trace) return *log.trace;
    IterationTrace none;
    none.ranks = std::max(1, log.file.key.topology.ranks());
    return none;
}

IncrementalRunLog::IncrementalRunLog(LogFile file, MeasureOptions measure, ParseOptions options)
    : m_options(std::move(options)), m_measure(measure), m_file(std::move(file)) {
    restart();
}

LogParser& IncrementalRunLog::restart() {
    // The log's format, from its key or its first lines; a log too young to tell is read as
    // NGC MXNet's until its lines say otherwise (update() looks again).
    LoadOptions load;
    load.measure = m_measure;
    std::string undetected;
    m_format = &chooseLogFormat(m_file, load, &undetected);
    m_detected = !m_file.key.format.empty() || undetected.empty();
    m_position = {};
    m_meter = std::make_unique<RunMeter>(m_file, *m_format, m_measure);
    m_trace = std::make_unique<IterationTraceBuilder>(ranksLogging(*m_format, m_file.key.topology),
                                                      m_format->traceStepSpans);
    ParseOptions parse = m_options;
    parse.format = m_format->message;
    m_parser = std::make_unique<LogParser>(parse, [this](const SpeedSample& s) {
        m_meter->add(s);
        if (m_format->speedIsThroughput) m_trace->add(s);
    });
    return *m_parser;
}

bool IncrementalRunLog::update() {
    const bool hadError = m_readError.has_value();
    // After an error nothing read before can be trusted to be the same file: start again. So
    // too while the format is a guess and the log may now say what it is.
    if (hadError || (!m_detected && detectLogFile(m_file.path))) restart();
    const LogPosition before = m_position;
    const LogRead read = readLogFile(m_file.path, *m_parser, m_position,
                                     [this]() -> LogParser& { return restart(); });
    m_position = read.position;
    m_readError = read.error;
    // The header is among the first lines: looked for until they have all been read once.
    if (!m_workload && before.offset < kWorkloadHeaderBytes)
        m_workload = readWorkloadHeader(m_file.path);
    return read.restarted || m_position != before || hadError != read.error.has_value();
}

RunLog IncrementalRunLog::log() const {
    RunLog log;
    log.file = m_file;
    log.file.key.format = std::string(m_format->id);
    log.counters = m_parser->counters();
    log.unterminatedTail = m_parser->pendingBytes() > 0;
    log.readError = m_readError;
    log.position = m_position;
    log.measure = m_measure;
    log.result = m_readError ? m_meter->unreadable(*m_readError, log.counters)
                             : m_meter->result(log.counters, log.unterminatedTail);
    log.trace = runTrace(m_trace->trace(), *m_format, log.result);
    log.workload = m_workload;
    return log;
}

} // namespace sv
