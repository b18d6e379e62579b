#pragma once
// Reads logs into RunResults: one file, or many in parallel with progress and cancel.

#include "core/load/logscan.h"
#include "core/measure/runanalyzer.h"
#include "core/model/runresult.h"
#include "core/parse/logformat.h"
#include "core/parse/logread.h"

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
