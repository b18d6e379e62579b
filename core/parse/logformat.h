#pragma once
// A row of the table of log formats ScaleView reads (core/formats/formatregistry.h): for one
// DLPerf framework, the lines that carry its throughput, the DLPerf extractor that reads them and
// that extractor's defaults, and how its runs are reduced.

#include "core/parse/lineformat.h"

#include <memory>
#include <string_view>

namespace sv {

class FormatAnalyzer; // core/measure/formatanalyzer.h
struct LogFormat;
struct MeasureOptions;
struct Topology;

// The analyzer a format of FormatFamily::Own brings for one run (core/measure/ has them all).
using MakeFormatAnalyzer = std::unique_ptr<FormatAnalyzer> (*)(const LogFormat& format,
                                                               Topology topology,
                                                               int batchPerDevice,
                                                               MeasureOptions options);

// How a format's runs are reduced to a throughput (one analyzer per family).
enum class FormatFamily {
    MxnetSpeedometer, // every rank's Speed lines: RunAnalyzer (both DLPerf methods)
    StepTimestamps,   // one line per iteration with a wall-clock time: StepTimeAnalyzer
    LoggedRates,      // rank 0's rate per step after unloggedSteps: RateLineAnalyzer
    Own,              // the format's own analyzer (LogFormat::makeAnalyzer)
};

// What DLPerf's script for a format prints: the S1 JSON of the other scripts, or OneFlow's
// Markdown tables (extract_util.py's markdown mode). The report side writes either.
enum class DlperfOutput { Json, MarkdownTables };

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
    // The analyzer of FormatFamily::Own formats.
    MakeFormatAnalyzer makeAnalyzer = nullptr;
    // DLPerf's compute_average rounds the repeats' mean to this many decimals (NGC TF BERT: 4).
    int averageDecimals = 2;
    // The figures DLPerf's *_time.py script records per file are numpy floats (OneFlow
    // InsightFace's round(np.mean(...), 2)), so compute_average's mean of them rounds as numpy
    // does, not as Python does (other time scripts record Python floats).
    bool timeScriptNumpyFigures = false;
    // What `summarize --format dlperf` prints for these logs (core/report/dlperfview.h).
    DlperfOutput dlperfOutput = DlperfOutput::Json;
    // The samples' speed is the line's throughput in this format's unit, so the per-iteration
    // trace can draw it; false where the format's one number is a latency, a step or epoch time,
    // a timestamp or steps/s (its analyzer turns it into a throughput).
    bool speedIsThroughput = true;
    // A format read at run time (a user's format file, core/formats/userformat.h): detect is
    // null and detectWith(context, line) says whether line is one of its lines.
    const void* context = nullptr;
    bool (*detectWith)(const void* context, std::string_view line) = nullptr;
    // Its lines name the steps they average ("between steps A and B"): the per-iteration trace
    // puts each at those steps (IterationTraceBuilder's stepSpans), not at its line's place.
    bool traceStepSpans = false;
};

// How many ranks write throughput lines to one log of the format: every rank for NGC MXNet's
// speedometer, rank 0 alone for the rest (DLPerf's runners tee rank 0; where all ranks share a
// file, their lines carry no throughput). The per-iteration trace cuts untagged lines by it.
int ranksLogging(const LogFormat& format, const Topology& topology);

// The window a log of format is measured over when measure is asked for: measure itself, or,
// when it asks for each format's DLPerf defaults, the format's.
MeasureOptions windowFor(const LogFormat& format, const MeasureOptions& measure);

} // namespace sv
