#include "core/load/runloader.h"

#include "core/formats/formatregistry.h"
#include "core/load/runmeter.h"
#include "core/model/parallel.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace sv {

std::optional<std::string> validateMeasureOptions(const MeasureOptions& o) {
    if (o.warmup < 1)
        return "warmup must be at least 1 iteration (the time method needs a start line)";
    if (o.iterations <= o.warmup) return "iterations must be greater than warmup";
    if (o.iterations > kMaxMeasureIterations)
        return "iterations must be at most " + std::to_string(kMaxMeasureIterations);
    return std::nullopt;
}

const LogFormat* detectLogFile(const std::filesystem::path& path, std::string* why) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (why) *why = std::strerror(errno);
        return nullptr;
    }
    // Most logs say what they are within a few lines: read 64 KiB, and more only if needed.
    std::string head;
    const LogFormat* f = nullptr;
    std::size_t got = 0;
    for (std::size_t want = std::size_t{1} << 16; !f && got < kDetectBytes; want *= 4) {
        head.resize(std::min(want, kDetectBytes));
        const std::size_t before = got;
        while (got < head.size()) {
            const ssize_t n = ::read(fd, head.data() + got, head.size() - got);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            got += static_cast<std::size_t>(n);
        }
        f = detectLogFormat(std::string_view(head.data(), got));
        if (got < head.size() || got == before) break; // the whole file is read
    }
    ::close(fd);
    if (!f && why)
        *why = got == 0
                   ? std::string("the file is empty")
                   : "none of its first " + std::to_string(kDetectLines) +
                         " lines is a throughput line of a known format (" + logFormatIds() + ")";
    return f;
}

const LogFormat& chooseLogFormat(const LogFile& log, const LoadOptions& options,
                                 std::string* undetected) {
    if (!options.logFormat.empty())
        if (const LogFormat* f = findLogFormat(options.logFormat)) return *f;
    if (!log.key.format.empty())
        if (const LogFormat* f = findLogFormat(log.key.format)) return *f;
    if (const LogFormat* f = detectLogFile(log.path, undetected)) return *f;
    // A log of no known format is read as NGC MXNet's (whose speed lines may start late), and
    // is reported as empty with the detection's reason if that finds nothing either.
    return ngcMxnetFormat();
}

RunResult loadRun(const LogFile& log, const LoadOptions& options) {
    return loadRun(log, options, {});
}

RunResult loadRun(const LogFile& log, const LoadOptions& options, const SampleObserver& observe,
                  LogRead* readOut) {
    std::string undetected;
    const LogFormat& format = chooseLogFormat(log, options, &undetected);
    RunMeter meter(log, format, options.measure);
    ParseOptions parse = options.parse;
    parse.format = format.message;
    // Without an observer the analyzer is the handler itself: one indirect call per sample.
    LogParser parser(
        parse, observe ? LogParser::SampleHandler([&](const SpeedSample& s) {
            meter.add(s);
            observe(s);
        })
                       : LogParser::SampleHandler([&](const SpeedSample& s) { meter.add(s); }));
    const LogRead read = readLogFile(log.path, parser);
    if (readOut) *readOut = read;
    if (read.error) return meter.unreadable(*read.error, parser.counters());
    // Outside DLPerf's extractors (which read as they read), the file's unterminated last line
    // is read when whole, left out with a note when cut mid-line (LogParser::finishTail).
    const TailRead tail = format.speedScript.empty() && format.timeScript.empty()
                              ? parser.finishTail()
                              : TailRead::None;
    RunResult result = meter.result(parser.counters(), parser.pendingBytes() > 0);
    if (tail != TailRead::None)
        result.notes.push_back(
            "its last line (" + std::to_string(parser.counters().tailLine) + ") has no newline: " +
            (tail == TailRead::Read ? "read, as it ends as the lines before it do"
                                    : "cut off mid-line (it does not end as the lines before it "
                                      "do), left out"));
    if (result.status == RunStatus::Empty && !undetected.empty())
        result.reason += "; " + undetected;
    return result;
}

void forEachLog(const std::vector<LogFile>& logs, int threads,
                const std::function<bool(std::size_t)>& job) {
    // Largest first (longest processing time first): with files of 1, 2 and 4 nodes' ranks
    // sorted by name, the biggest came last and one core read them alone.
    std::vector<std::pair<std::uint64_t, std::size_t>> order;
    order.reserve(logs.size());
    for (std::size_t i = 0; i < logs.size(); ++i) {
        struct stat st {};
        const std::uint64_t size =
            ::stat(logs[i].path.c_str(), &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
        order.emplace_back(size, i);
    }
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    forEachIndex(order.size(), threads, [&](std::size_t n) { return job(order[n].second); });
}

std::vector<RunResult> loadRuns(const std::vector<LogFile>& logs, const LoadOptions& options,
                                const LoadProgress& progress) {
    std::vector<std::optional<RunResult>> slots(logs.size());
    std::atomic<std::size_t> done{0};
    forEachLog(logs, options.threads, [&](std::size_t i) {
        slots[i] = loadRun(logs[i], options);
        const std::size_t d = done.fetch_add(1) + 1;
        return !progress || progress(d, logs.size());
    });
    std::vector<RunResult> out;
    out.reserve(logs.size());
    for (auto& s : slots)
        if (s) out.push_back(std::move(*s));
    return out;
}

} // namespace sv
