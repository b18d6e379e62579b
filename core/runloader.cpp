#include "runloader.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <thread>
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

LogRead readLogFile(const std::filesystem::path& path, LogParser& parser, LogPosition from,
                    const LogRestart& restart) {
    LogRead out;
    out.position = from;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        out.error = std::strerror(errno);
        return out;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        out.error = std::strerror(errno);
        ::close(fd);
        return out;
    }
    if (!S_ISREG(st.st_mode)) {
        out.error = "not a regular file";
        ::close(fd);
        return out;
    }
    const auto inode = static_cast<std::uint64_t>(st.st_ino);
    const auto size = static_cast<std::uint64_t>(st.st_size);
    LogParser* target = &parser;
    if (from.offset > 0 && (inode != from.inode || size < from.offset)) {
        target = &restart();
        out.restarted = true;
        out.position.offset = 0;
    }
    out.position.inode = inode;
    if (out.position.offset == 0) ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    if (out.position.offset > 0 &&
        ::lseek(fd, static_cast<off_t>(out.position.offset), SEEK_SET) < 0) {
        out.error = std::strerror(errno);
        ::close(fd);
        return out;
    }
    constexpr std::size_t kChunk = std::size_t{1} << 20;
    auto buffer = std::make_unique<char[]>(kChunk);
    while (out.position.offset < size) {
        const auto want =
            static_cast<std::size_t>(std::min<std::uint64_t>(size - out.position.offset, kChunk));
        const ssize_t n = ::read(fd, buffer.get(), want);
        if (n < 0) {
            if (errno == EINTR) continue;
            out.error = std::strerror(errno);
            break;
        }
        if (n == 0) break; // shrank while being read: what was there is parsed
        target->feed(std::string_view(buffer.get(), static_cast<std::size_t>(n)));
        out.position.offset += static_cast<std::uint64_t>(n);
    }
    ::close(fd);
    return out;
}

RunResult loadRun(const LogFile& log, const LoadOptions& options) {
    RunResult result;
    result.path = log.display;
    result.key = log.key;
    RunAnalyzer analyzer(log.key.topology, log.key.batchPerDevice, options.measure);
    LogParser parser(options.parse, [&](const SpeedSample& s) { analyzer.add(s); });
    if (const LogRead read = readLogFile(log.path, parser); read.error) {
        result.status = RunStatus::Unreadable;
        result.reason = "cannot be read: " + *read.error;
        result.counters = parser.counters();
        return result;
    }
    analyzer.finish(result, parser.counters(), parser.pendingBytes() > 0);
    return result;
}

std::vector<RunResult> loadRuns(const std::vector<LogFile>& logs, const LoadOptions& options,
                                const LoadProgress& progress) {
    std::vector<std::optional<RunResult>> slots(logs.size());
    std::atomic<std::size_t> next{0}, done{0};
    std::atomic<bool> cancelled{false};
    auto worker = [&] {
        for (;;) {
            if (cancelled.load()) return;
            const std::size_t i = next.fetch_add(1);
            if (i >= logs.size()) return;
            slots[i] = loadRun(logs[i], options);
            const std::size_t d = done.fetch_add(1) + 1;
            if (progress && !progress(d, logs.size())) cancelled.store(true);
        }
    };
    int threads = options.threads > 0
                      ? options.threads
                      : std::max(2, static_cast<int>(std::thread::hardware_concurrency()));
    threads = std::max(1, std::min<int>(threads, static_cast<int>(logs.size())));
    std::vector<std::jthread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(worker);
    worker();
    pool.clear(); // joins
    std::vector<RunResult> out;
    out.reserve(logs.size());
    for (auto& s : slots)
        if (s) out.push_back(std::move(*s));
    return out;
}

} // namespace sv
