#pragma once
// Reads logs into RunResults: one file, or many in parallel with progress and cancel.

#include "core/parse/logformat.h"
#include "core/load/logscan.h"
#include "core/measure/runanalyzer.h"
#include "core/measure/runresult.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sv {

struct LoadOptions {
    ParseOptions parse;
    MeasureOptions measure;
    int threads = 0; // 0: one per core, at least 2
    // A format id forces every log to be read as that format; empty: each log's own, detected.
    std::string logFormat;
};

// The one bound on warmup and iterations, for every command and the window: far beyond any real
// run, and harmless anyway since RunAnalyzer keeps per-iteration state only for what it has seen.
inline constexpr int kMaxMeasureIterations = 1000000;

// Says what is wrong with the options, if anything (warmup below 1, window empty...).
std::optional<std::string> validateMeasureOptions(const MeasureOptions& options);

// Where a reader of a log stopped: the file it read and the offset after the last byte fed.
struct LogPosition {
    std::uint64_t inode = 0;
    std::uint64_t offset = 0;
    bool operator==(const LogPosition&) const = default;
};

struct LogRead {
    LogPosition position;   // how far the parser has been fed, also after an error
    bool restarted = false; // the file was another or shorter: read again from the start
    std::optional<std::string> error;
};

// The one read loop, for a whole log and for a growing one: feeds the parser the bytes after
// `from` up to the file's size at open (a growing log cannot keep the reader forever). When the
// file is not the one read before (another inode) or is shorter than from.offset, reading starts
// again at 0 with the parser `restart` gives (required when from.offset > 0). An error (cannot
// open, not a regular file, a failed read) says why; what was fed before it stays fed.
using LogRestart = std::function<LogParser&()>;
LogRead readLogFile(const std::filesystem::path& path, LogParser& parser, LogPosition from = {},
                    const LogRestart& restart = {});

// The format of the log at path, from its first lines (logFormats()); nullptr with the reason.
const LogFormat* detectLogFile(const std::filesystem::path& path, std::string* why = nullptr);

// The format a log is read as: the one options force, else the one its key names (read
// before), else the one its first lines show; NGC MXNet's when none does (undetected says why).
const LogFormat& chooseLogFormat(const LogFile& log, const LoadOptions& options,
                                 std::string* undetected = nullptr);

RunResult loadRun(const LogFile& log, const LoadOptions& options);
// The same, also handing every sample to observe (the GUI's trace) and saying where the read
// stopped.
using SampleObserver = std::function<void(const SpeedSample&)>;
RunResult loadRun(const LogFile& log, const LoadOptions& options, const SampleObserver& observe,
                  LogRead* read = nullptr);

// progress(done, total) is called from worker threads; returning false cancels: the runs not
// yet read are left out of the result. Results come back in the order of logs.
using LoadProgress = std::function<bool(std::size_t done, std::size_t total)>;
std::vector<RunResult> loadRuns(const std::vector<LogFile>& logs, const LoadOptions& options,
                                const LoadProgress& progress = {});

// Runs job(i) for every i of logs on `threads` threads (0: one per core, at least 2), the
// biggest files first so that no thread is left alone with a big one at the end; job returns
// false to stop handing out more. Returns when every started job has returned.
void forEachLog(const std::vector<LogFile>& logs, int threads,
                const std::function<bool(std::size_t)>& job);

} // namespace sv
