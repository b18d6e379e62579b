#pragma once
// A log directory summarized: its runs, their case statistics, and every warning on the way.

#include "core/stats/casestats.h"
#include "core/load/runloader.h"
#include "core/load/workloadheader.h"
#include "core/model/warning.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sv {

struct LogFormat;

struct CaseFilter {
    std::optional<std::string> model, precision;
    std::optional<int> batchPerDevice;
    bool accepts(const RunKey& k) const {
        return (!model || *model == k.model) && (!precision || *precision == k.precision) &&
               (!batchPerDevice || *batchPerDevice == k.batchPerDevice);
    }
};

struct Summary {
    std::string root;
    LoadOptions load;
    SummaryOptions options;
    std::vector<RunResult> runs;
    std::vector<CaseStats> cases;
    std::vector<Warning> warnings;    // scan problems, then each run that does not count
    std::size_t skippedFiles = 0;     // log-like files the scan left out
    std::optional<std::string> error; // nothing could be summarized at all
    // Where load.measure came from: "dlperf" (its defaults), "campaign" (campaignFile's window)
    // or "command line"; exports say so, since the same logs read otherwise give other figures.
    // Empty: not known to whoever summarized (exported as null).
    std::string windowSource;
    std::string campaignFile;
    bool cancelled = false;
    // The scan in one line: "read 312 files: 15 throughput logs, 297 other files skipped".
    std::string scanLine;
    // ScaleView's local workload, where every run's log starts with its header and all say the
    // same framework and device: the runs are PyTorch's on CPU ranks (or CUDA), whatever log
    // format they print, and every output says so (as the app's pages do).
    std::optional<WorkloadHeader> workload;
    bool onCpuRanks() const { return workload && workload->onCpu(); }
};

// The framework the summary's cases ran: the local workload's ("PyTorch 1.13.1 on CPU"), else
// the log format's ("NGC MXNet").
std::string frameworkText(const Summary& s, const LogFormat& format);

Summary summarizeDirectory(const std::filesystem::path& root, const LoadOptions& load,
                           const SummaryOptions& options, const CaseFilter& filter = {},
                           const LoadProgress& progress = {});

// The same for what a user names: one folder or file (as summarizeDirectory), or several
// files and folders (summarize FILE...).
Summary summarizePaths(const std::vector<std::filesystem::path>& paths, const LoadOptions& load,
                       const SummaryOptions& options, const CaseFilter& filter = {},
                       const LoadProgress& progress = {});

// Sets what the runs ran on and each case's percent of peak from it (no other figure changes).
void setPeak(Summary& summary, const PeakOptions& peak);

// Recomputes cases and run warnings from runs already read (another method or reference).
void recomputeCases(Summary& summary);

// The runs whose figures the cases use: usable, with a figure by the method, finished, and not
// left out as disturbed (SummaryOptions::excludeDisturbed). What a status line calls "used".
std::size_t runsUsed(const Summary& summary);

// A window the runs were measured over, and the formats whose runs were (in run order). One
// for all, unless load.measure asked for each format's DLPerf defaults and they differ.
struct WindowUse {
    MeasureOptions window;
    std::vector<std::string> formats;
};
std::vector<WindowUse> windowsUsed(const Summary& summary);
// "warmup 20, iterations 120", or each window with its formats: "warmup 100, iterations 600
// (tf2-rn50); warmup 20, iterations 120 (ngc-mxnet)".
std::string windowText(const Summary& summary);
std::string windowText(const std::vector<WindowUse>& windows);

} // namespace sv
