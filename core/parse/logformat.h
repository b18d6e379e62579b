#pragma once
// The table of log formats ScaleView reads: for each DLPerf framework, the lines that carry its
// throughput, the DLPerf extractor that reads them and that extractor's defaults. A log's format
// is detected from its first lines; adding a framework is adding a row.

#include "core/measure/formatanalyzer.h"
#include "core/parse/lineformat.h"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace sv {

class FormatAnalyzer;
struct MeasureOptions;
struct Summary;
struct Topology;

// How a format's runs are reduced to a throughput (one analyzer per family).
enum class FormatFamily {
    MxnetSpeedometer, // every rank's Speed lines: RunAnalyzer (both DLPerf methods)
    StepTimestamps,   // one line per iteration with a wall-clock time: StepTimeAnalyzer
    LoggedRates,      // rank 0's rate per step after unloggedSteps: RateLineAnalyzer
    Own,              // the format's own analyzer (LogFormat::makeAnalyzer)
};

struct LogFormat {
    std::string_view id;          // "ngc-pytorch-rn50"; --log-format takes it
    std::string_view framework;   // "NGC PyTorch": the Framework column
    std::string_view speedScript; // DLPerf's extractor for --method speed ("" if none)
    std::string_view timeScript;  // and for --method time ("" if none)
    std::string_view unit;        // "images/s", "sequences/s", "samples/s"
    int defaultWarmup = 20;       // the extractor's argparse defaults
    int defaultIterations = 120;
    FormatFamily family = FormatFamily::MxnetSpeedometer;
    MessageFormat message; // the marker the engine scans for and the line parser
    // DLPerf counts only lines whose iteration is above this (NGC PyTorch's "skip_time > 5").
    int skipIterationsThrough = -1;
    // A line of this format (the first such line in a log decides its format).
    bool (*detect)(std::string_view line) = nullptr;
    // The first steps print no line (NGC TensorFlow 1 logs from step 21 on).
    int unloggedSteps = 0;
    // The analyzer of FormatFamily::Own formats (formatanalyzer.h).
    MakeFormatAnalyzer makeAnalyzer = nullptr;
    // DLPerf's compute_average rounds the repeats' mean to this many decimals (NGC TF BERT: 4).
    int averageDecimals = 2;
    // The figures DLPerf's *_time.py script records per file are numpy floats (OneFlow
    // InsightFace's round(np.mean(...), 2)), so compute_average's mean of them rounds as numpy
    // does, not as Python does (other time scripts record Python floats).
    bool timeScriptNumpyFigures = false;
    // DLPerf's output where its script prints no S1 JSON (OneFlow's Markdown tables), from the
    // runs of dlperfView(...).summary; nullptr: the JSON.
    std::string (*dlperfText)(const Summary& dlperfSummary) = nullptr;
    // The samples' speed is the line's throughput in this format's unit, so the per-iteration
    // trace can draw it; false where the format's one number is a latency, a step or epoch time,
    // a timestamp or steps/s (its analyzer turns it into a throughput).
    bool speedIsThroughput = true;
    // A format read at run time (a user's format file, core/parse/userformat.h): detect is
    // null and detectWith(context, line) says whether line is one of its lines.
    const void* context = nullptr;
    bool (*detectWith)(const void* context, std::string_view line) = nullptr;
    // Its lines name the steps they average ("between steps A and B"): the per-iteration trace
    // puts each at those steps (IterationTraceBuilder's stepSpans), not at its line's place.
    bool traceStepSpans = false;
};

std::span<const LogFormat> logFormats();
const LogFormat& ngcMxnetFormat();
const LogFormat* findLogFormat(std::string_view id);
// The format of a run or case key: its id's, or NGC MXNet's for a key read before formats
// existed (an empty id).
const LogFormat& logFormatOf(std::string_view id);
// How many ranks write throughput lines to one log of the format: every rank for NGC MXNet's
// speedometer, rank 0 alone for the rest (DLPerf's runners tee rank 0; where all ranks share a
// file, their lines carry no throughput). The per-iteration trace cuts untagged lines by it.
int ranksLogging(const LogFormat& format, const Topology& topology);

// The window a log of format is measured over when measure is asked for: measure itself, or,
// when it asks for each format's DLPerf defaults, the format's.
MeasureOptions windowFor(const LogFormat& format, const MeasureOptions& measure);

// "ngc-mxnet, ngc-pytorch-rn50, ...": for messages that list what is known.
std::string logFormatIds();

// How many lines of a log's start detection reads, at most (and at most kDetectBytes).
inline constexpr int kDetectLines = 2000;
inline constexpr std::size_t kDetectBytes = std::size_t{1} << 20;

// Formats registered at run time (users' format files, core/parse/userformat.h), tried AFTER
// every built-in format by detectLogFormat; findLogFormat finds them too. The first of an id is
// kept (registering the id again returns it); each LogFormat lives as long as the program.
// Safe to call while other threads read registeredLogFormats(); at most 256.
const LogFormat& registerLogFormat(LogFormat format);
std::span<const LogFormat* const> registeredLogFormats();

// The format of the first line in head that matches one; nullptr when none does.
const LogFormat* detectLogFormat(std::string_view head, std::int64_t* line = nullptr);

} // namespace sv
