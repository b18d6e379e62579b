#pragma once
// What a log is a run of: model, precision, batch size per device, topology and repeat, read
// from DLPerf's layout ".../{N}n{G}g/{model}_b{B}_{precision}_{repeat}.log".

#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sv {

struct Topology {
    int nodes = 0;
    int gpusPerNode = 0;
    int ranks() const { return nodes * gpusPerNode; }
    std::string name() const; // "4n8g"
    auto operator<=>(const Topology&) const = default;
};

// Orders topologies as DLPerf's tables do: by GPU count, then by node count.
bool topologyLess(const Topology& a, const Topology& b);

// The most GPUs a run key holds (nodes times GPUs per node): some ten times the largest clusters
// built, and far from where a count in an int overflows ("65536n65536g" once gave 0 GPUs).
inline constexpr int kMaxRanks = 1 << 20;

// "16n8g" -> {16, 8}; both at least 1, at most kMaxRanks GPUs in all. A name of that shape whose
// counts are out of range is none, with why in *why ("65536n65536g: 4294967296 GPUs, more than
// ..."); *why is left alone for any other name.
std::optional<Topology> parseTopology(std::string_view folderName, std::string* why = nullptr);

// Where a run's key field was read: its log's own parameter dumps, its path (DLPerf's layout,
// "8xV100", "dgx2h_n32"), a scaleview.json beside it, the user in the app, or the user format
// that read it (its "metadata": {"gpus": 8}). Unknown: nowhere; the field shows "?" and the run
// counts only where the field is not needed.
enum class KeySource : unsigned char { Unknown, Log, Path, Sidecar, User, Format };
// "log", "path", "scaleview.json", "user", "format file", "?"
std::string_view keySourceName(KeySource source);

struct KeyOrigins {
    KeySource model = KeySource::Path, precision = KeySource::Path, batch = KeySource::Path,
              topology = KeySource::Path, repeat = KeySource::Path;
    bool nodesUnknown = false; // the GPUs are known, the nodes not: shown as one node
    // The GPUs are the log's rank tags counted, not a total it states: the user may set them (a
    // scaleview.json's count wins over a count).
    bool gpusCounted = false;
    // One line per field that did not come from DLPerf's layout, with its evidence and any
    // disagreement ("batch 296: log, line 6: batch_size : 296 (the path says 128)").
    std::vector<std::string> details;
};

struct RunKey {
    std::string model;     // "r50"
    std::string precision; // "fp32", "fp16" (AMP), "fp16-noamp"
    int batchPerDevice = 0;
    Topology topology;
    int repeat = 0;
    // The log format's id ("ngc-mxnet", "ngc-pytorch-rn50"), detected when the log is read:
    // the framework dimension of a case. Empty until then.
    std::string format = {};
    // Where each field came from (DLPerf's layout: the path), for the Results page's tooltip.
    KeyOrigins origins = {};
    // A run whose GPU count nobody states is a case of its own, not a repeat of every other
    // such log: its folder and name less the repeat's number ("h8/result_.txt" for
    // h8/result_3.txt), so that only its own repeats join it. Empty where the GPUs are known.
    std::string ownCase = {};
};

// A key's field shown to the user: "?" where it is not known (batch 0, no GPUs, model "?").
std::string batchText(const RunKey& key);
std::string topologyText(const RunKey& key);

struct LogName {
    std::string model;
    int batchPerDevice = 0;
    std::string precision;
    int repeat = 0;
};

// "r50_b128_fp32_3.log" -> {r50, 128, fp32, 3}; nullopt with the reason in *why otherwise.
std::optional<LogName> parseLogName(std::string_view fileName, std::string* why = nullptr);

} // namespace sv
