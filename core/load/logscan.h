#pragma once
// Finds the runs below a folder. A file in DLPerf's layout ("<model>_b<B>_<precision>_<repeat>.log"
// below a folder named "<N>n<G>g") is a run as DLPerf reads it, whatever it holds. Every other
// regular file, whatever its name or extension, is a run when its CONTENT is a throughput log:
// its first 64 KiB (up to kDetectLines lines, 1 MiB) show lines of a known format
// (detectAnyLogFormat); binaries are skipped after their first bytes. What it is a run of comes
// from the log's own parameter dumps, then its path, then a scaleview.json (runidentity.h).
// Files that are not logs are counted, not warned about one by one (ScanResult::summaryLine).
// Symlink loops are entered once.

#include "core/model/runkey.h"
#include "core/model/warning.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sv {

struct LogFile {
    std::filesystem::path path;
    std::string display; // relative to the scanned root, e.g. "bz128/1n8g/r50_b128_fp32_3.log"
    RunKey key;
    // How its format was chosen (outside DLPerf's layout): "read as mxnet-speedometer: line 343
    // is one of its lines ...". Empty in DLPerf's layout.
    std::string detection = {};
};

// A file skipped as no log although it holds rate-like lines: what the user may teach
// ScaleView to read (the app's Teach ScaleView this log…), with its best candidate line.
struct NotReadLog {
    std::string display;
    std::filesystem::path path;
    std::int64_t line = 0; // 1-based
    std::string text;      // the candidate line, at most 300 bytes
};

struct ScanResult {
    std::vector<LogFile> logs;       // sorted by display path
    std::vector<NotReadLog> notRead; // also a warning each, naming the candidate line
    std::vector<Warning> warnings;
    std::optional<std::string> error; // the root itself could not be read
    std::size_t filesRead = 0;        // regular files looked at
    std::size_t otherFiles = 0;       // not throughput logs: skipped, counted here
    std::size_t binaryFiles = 0;      // of those, binaries (skipped after their first bytes)
    // A launcher campaign's own records beside its logs (campaign.json, the journal, the
    // environment captures, the monitor's samples, the workload script, probes.json): known,
    // not read as logs, and not "other files" either.
    std::size_t campaignFiles = 0;
    // "read 312 files: 15 throughput logs, 297 other files skipped"; a campaign directory's
    // records are said as such ("6 of the campaign's own records").
    std::string summaryLine() const;
};

// root may be a folder or one file (a single log: an error if it is not one).
ScanResult scanLogDirectory(const std::filesystem::path& root);
// Single logs (summarize FILE..., File > Open File, drag and drop): each must be a throughput
// log; display is the path as given.
ScanResult scanLogFiles(const std::vector<std::filesystem::path>& files);

// What a file outside DLPerf's layout is: a LogFile when its content is a throughput log
// (nullopt otherwise, *binary set for a binary). root: where path hints and scaleview.json stop.
class Sidecars;
std::optional<LogFile> sniffLogFile(const std::filesystem::path& path, const std::string& display,
                                    const std::filesystem::path& root, Sidecars& sidecars,
                                    std::vector<Warning>& warnings, bool* binary = nullptr,
                                    std::string* whyNot = nullptr, NotReadLog* notRead = nullptr);

} // namespace sv
