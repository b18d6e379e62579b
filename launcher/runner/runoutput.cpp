#include "launcher/runner/runoutput.h"

#include "launcher/runner/rendezvousfailure.h"
#include "launcher/runner/runrecorder.h"

#include <string_view>

namespace sv::launcher {
namespace {
constexpr std::size_t kTailBytes = 16384;
} // namespace

RunOutput::RunOutput(std::unique_ptr<QFile> log, const PlannedRun& run, MeasureOptions measure,
                     std::string failureMarker)
    : m_log(std::move(log)), m_failureMarker(std::move(failureMarker)),
      m_analyzer(run.key.topology, run.key.batchPerDevice, measure),
      m_parser(ParseOptions{}, [this](const SpeedSample& s) {
          if (!m_sinceFirstSample.isValid()) {
              m_sinceFirstSample.start();
              m_sampled = true;
          }
          m_analyzer.add(s);
      }) {}

RunOutput::Read RunOutput::add(const QByteArray& chunk) {
    Read read;
    if (m_log && m_logError.empty() && !RunRecorder::append(*m_log, chunk, &m_logError))
        read.logError = m_logError; // a full disk, a quota, a file size limit
    m_tail.append(chunk.constData(), static_cast<std::size_t>(chunk.size()));
    if (m_tail.size() > kTailBytes) m_tail.erase(0, m_tail.size() - kTailBytes);
    const std::string_view text(chunk.constData(), static_cast<std::size_t>(chunk.size()));
    m_sampled = false;
    m_parser.feed(text);
    read.firstSample = m_sampled;
    read.unreachable = rendezvousFailure(text);
    if (m_analyzer.iterationsDone() != m_lastIteration) {
        m_lastIteration = m_analyzer.iterationsDone();
        read.advanced = true;
    }
    // Chunks hold whole lines, so a marker is never split between two.
    if (const qsizetype at = m_failureMarker.empty()
                                 ? -1
                                 : chunk.indexOf(QByteArray::fromStdString(m_failureMarker));
        at >= 0) {
        const qsizetype from = chunk.lastIndexOf('\n', at) + 1;
        qsizetype to = chunk.indexOf('\n', at);
        if (to < 0) to = chunk.size();
        read.failureLine = chunk.mid(from, to - from).trimmed().toStdString();
    }
    return read;
}

double RunOutput::sinceFirstSample() const {
    return m_sinceFirstSample.isValid() ? static_cast<double>(m_sinceFirstSample.elapsed()) / 1000.0
                                        : -1.0;
}

RunResult RunOutput::result() const {
    RunResult result;
    m_analyzer.finish(result, m_parser.counters(), m_parser.pendingBytes() > 0);
    return result;
}

} // namespace sv::launcher
