#pragma once
// What a run is, as its log says it: model, batch size per device, precision, GPUs and nodes,
// read from the parameter dumps real logs carry in their first lines:
//   DLLogger's "DLL ... PARAMETER ... batch_size : 296 ... world_size : 8 ... amp : False" (also
//   wrapped over several lines), Python's "Namespace(batch_size=208, ..., dtype='float16',
//   gpus='0,1,2,3', num_gpus=8, model='resnet50_v1b')", absl/argparse "--batch_size=256",
//   TensorFlow's "Num GPUs 8" / "Per-GPU Batch Size 256", Open MPI's rank tags "[1,15]<stdout>:",
//   MXNet's "Node[15]", MLPerf's ":::MLL"/":::MLLOG" keys (num_accelerators, num_nodes,
//   global_batch_size).
// Each fact keeps where it was found ("line 6: batch_size : 296"), for the run's tooltip.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sv {

struct RunFact {
    std::string value;     // "296", "fp16", "resnet50"
    std::int64_t line = 0; // 1-based line of the log it was read from
    std::string evidence;  // the text it was read from, short ("batch_size : 296")
    // A count the log implies rather than states (its ranks' tags counted): a scaleview.json's
    // figure wins over it, since the tags of the ranks that printed need not be every GPU's.
    bool counted = false;
    std::string where() const { return "line " + std::to_string(line) + ": " + evidence; }
};

struct RunFacts {
    std::optional<RunFact> model, batch, precision, gpus, nodes;
    // The GPUs a user format says of every log it reads ("metadata": {"gpus": 8}): below what
    // the log, its path and a scaleview.json state, above a count of the log's rank tags.
    std::optional<RunFact> formatGpus;
    // What the log states of its devices that gives no GPU count ("its devices are TPU cores, not
    // GPUs", a system of unknown make-up): said as the reason where the GPUs stay "?".
    std::optional<RunFact> uncountedDevices;
    // Every "key = value" the parameter dumps state, as written (the first of a key wins; at
    // most kMaxParameters): what a log from elsewhere recorded about how it ran, compared as
    // its environment (core/compare/recordedfacts.h).
    std::vector<std::pair<std::string, std::string>> parameters;
    static constexpr std::size_t kMaxParameters = 256;
    // A longer "key" is text that happens to hold a '=' or ':', not a parameter's name: not kept.
    static constexpr std::size_t kMaxParameterKeyBytes = 64;
    bool empty() const { return !model && !batch && !precision && !gpus && !nodes; }
};

// The facts of head (a log's first lines; bounded by the caller).
RunFacts readRunFacts(std::string_view head);

// DLPerf's precision names from a log's spelling: float16/fp16/half/amp -> "fp16", float32/fp32
// -> "fp32", bfloat16/bf16 -> "bf16", tf32 -> "tf32"; empty when unknown.
std::string normalizePrecision(std::string_view text);

// Facts a user format's metadata patterns found fill what the log's dumps did not; its GPU
// count, where it found one, wins over the log's built-in readings (the user taught where the
// log states it).
void mergeFacts(RunFacts& into, const RunFacts& from);

} // namespace sv
