#pragma once
// A run as the GUI keeps it: its figures for the window it was read for and its per-iteration
// trace (O(iterations), never the lines), plus where the read stopped so a live view can read
// what is appended. Another window is measured by reading the file again (analyzeRunLog).

#include "core/measure/iterationtrace.h"
#include "core/load/logscan.h"
#include "core/load/workloadheader.h"
#include "core/load/runloader.h"
#include "core/load/runmeter.h"
#include "core/model/runresult.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sv {

struct RunLog {
    LogFile file; // key.format: the format it was read as
    ParseCounters counters;
    bool unterminatedTail = false;
    std::optional<std::string> readError;
    // The file read and how far: a live view compares it with the file now to read what was
    // appended after the load.
    LogPosition position;
    MeasureOptions measure; // the window `result` is measured for
    RunResult result;
    // Does not depend on the window: a run read again for another window shares it when the
    // file is as it was.
    std::shared_ptr<const IterationTrace> trace;
    // What ran, where the log is ScaleView's own workload's (read in NGC MXNet's line format,
    // though PyTorch wrote it, on CPU ranks or GPUs): its header line.
    std::optional<WorkloadHeader> workload;

    // Numbers kept for the run beyond its fixed-size result: what the memory bound is about.
    std::size_t retainedValues() const;
};

RunLog readRunLog(const LogFile& file, const MeasureOptions& measure = {},
                  const ParseOptions& options = {});
// Reads logs in parallel (biggest first), each for measure; results in the order of files.
std::vector<RunLog> readRunLogs(const std::vector<LogFile>& files, const MeasureOptions& measure,
                                int threads = 0);
// The run's figures for measure: those kept when it is the window the log was read for, else
// from reading the file again (so: off the GUI thread).
RunResult analyzeRunLog(const RunLog& log, const MeasureOptions& measure);
IterationTrace traceRunLog(const RunLog& log);

// Reads a growing log from where it stopped last time: the GUI's live view of a campaign in
// progress. A file that shrank or was replaced is read again from the start.
class IncrementalRunLog {
  public:
    explicit IncrementalRunLog(LogFile file, MeasureOptions measure = {},
                               ParseOptions options = {});
    // Reads what was appended; true when anything new arrived.
    bool update();
    // The run as read so far.
    RunLog log() const;
    const MeasureOptions& measure() const { return m_measure; }

  private:
    LogParser& restart();

    ParseOptions m_options;
    MeasureOptions m_measure;
    LogFile m_file;
    const LogFormat* m_format = nullptr;
    bool m_detected = false;                  // m_format came from the log's lines or its key
    std::optional<WorkloadHeader> m_workload; // looked for in the first kWorkloadHeaderBytes
    LogPosition m_position;
    std::optional<std::string> m_readError;
    std::unique_ptr<RunMeter> m_meter;
    std::unique_ptr<IterationTraceBuilder> m_trace;
    std::unique_ptr<LogParser> m_parser;
};

} // namespace sv
