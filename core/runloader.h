#pragma once
// Reads logs into RunResults: one file, or many in parallel with progress and cancel.

#include "logscan.h"
#include "runanalyzer.h"
#include "runresult.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sv {

struct LoadOptions {
    ParseOptions parse;
    MeasureOptions measure;
    int threads = 0; // 0: one per core, at least 2
};

// Says what is wrong with the options, if anything (warmup below 1, window empty...).
std::optional<std::string> validateMeasureOptions(const MeasureOptions& options);

// Reads a file to its size at open (a growing log cannot keep the reader forever) and feeds the
// parser; sink gets each chunk's samples. False, with the reason, when the file cannot be read.
bool readLogFile(const std::filesystem::path& path, LogParser& parser, std::string* error);

RunResult loadRun(const LogFile& log, const LoadOptions& options);

// progress(done, total) is called from worker threads; returning false cancels: the runs not
// yet read are left out of the result. Results come back in the order of logs.
using LoadProgress = std::function<bool(std::size_t done, std::size_t total)>;
std::vector<RunResult> loadRuns(const std::vector<LogFile>& logs, const LoadOptions& options,
                                const LoadProgress& progress = {});

} // namespace sv
