#include "runlog.h"

#include "numerics.h"
#include "runanalyzer.h"
#include "runloader.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace sv {

RunLog readRunLog(const LogFile& file, const ParseOptions& options) {
    RunLog log;
    log.file = file;
    LogParser parser(options, [&](const SpeedSample& s) { log.samples.push_back(s); });
    std::string error;
    if (!readLogFile(file.path, parser, &error)) log.readError = error;
    log.counters = parser.counters();
    log.unterminatedTail = parser.pendingBytes() > 0;
    return log;
}

RunResult analyzeRunLog(const RunLog& log, const MeasureOptions& options) {
    RunResult result;
    result.path = log.file.display;
    result.key = log.file.key;
    if (log.readError) {
        result.status = RunStatus::Unreadable;
        result.reason = "cannot be read: " + *log.readError;
        result.counters = log.counters;
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

void IncrementalRunLog::restart() {
    m_log.samples.clear();
    m_log.counters = {};
    m_log.unterminatedTail = false;
    m_log.readError.reset();
    m_offset = 0;
    m_parser = std::make_unique<LogParser>(
        m_options, [this](const SpeedSample& s) { m_log.samples.push_back(s); });
}

bool IncrementalRunLog::update() {
    const int fd = ::open(m_log.file.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        const bool changed = !m_log.readError;
        m_log.readError = std::strerror(errno);
        return changed;
    }
    struct stat st {};
    ::fstat(fd, &st);
    const auto size = static_cast<std::uint64_t>(st.st_size);
    bool changed = false;
    if (m_log.readError || size < m_offset || static_cast<std::uint64_t>(st.st_ino) != m_inode) {
        if (m_offset != 0 || m_log.readError) changed = true;
        restart();
        m_inode = static_cast<std::uint64_t>(st.st_ino);
    }
    if (size > m_offset) {
        ::lseek(fd, static_cast<off_t>(m_offset), SEEK_SET);
        std::vector<char> buffer(std::size_t{1} << 20);
        while (m_offset < size) {
            const auto want =
                static_cast<std::size_t>(std::min<std::uint64_t>(size - m_offset, buffer.size()));
            const ssize_t n = ::read(fd, buffer.data(), want);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            m_parser->feed(std::string_view(buffer.data(), static_cast<std::size_t>(n)));
            m_offset += static_cast<std::uint64_t>(n);
            changed = true;
        }
    }
    ::close(fd);
    m_log.counters = m_parser->counters();
    m_log.unterminatedTail = m_parser->pendingBytes() > 0;
    return changed;
}

} // namespace sv
