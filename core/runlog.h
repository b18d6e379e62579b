#pragma once
// A run kept whole: its samples in file order, so that another warmup or window can be measured
// and its per-iteration trace drawn without reading the file again. The GUI keeps these; the CLI
// streams through RunAnalyzer instead and keeps nothing.

#include "logscan.h"
#include "runloader.h"
#include "runresult.h"
#include "sample.h"

#include <optional>
#include <string>
#include <vector>

namespace sv {

struct RunLog {
    LogFile file;
    std::vector<SpeedSample> samples;
    ParseCounters counters;
    bool unterminatedTail = false;
    std::optional<std::string> readError;
    // The file read and how far: a live view compares it with the file now to read what was
    // appended after the load.
    LogPosition position;
};

RunLog readRunLog(const LogFile& file, const ParseOptions& options = {});
RunResult analyzeRunLog(const RunLog& log, const MeasureOptions& options);

// Throughput per iteration as the ranks reported it: for the rank-tagged lines, iteration k is
// each rank's k-th line; untagged lines are cut into rows of R in file order (as DLPerf does).
struct IterationTrace {
    std::vector<double> median; // per iteration, across ranks (images/s)
    std::vector<double> min;
    std::vector<double> max;
    int ranks = 0;
};
IterationTrace traceRunLog(const RunLog& log);

// Reads a growing log from where it stopped last time: the GUI's live view of a campaign in
// progress. A file that shrank or was replaced is read again from the start.
class IncrementalRunLog {
  public:
    explicit IncrementalRunLog(LogFile file, ParseOptions options = {});
    // Reads what was appended; true when anything new arrived.
    bool update();
    const RunLog& log() const { return m_log; }

  private:
    LogParser& restart();

    ParseOptions m_options;
    RunLog m_log;
    std::unique_ptr<LogParser> m_parser;
};

} // namespace sv
