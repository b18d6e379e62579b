#include "core/load/runidentity.h"

#include "core/model/modelname.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

namespace sv {
namespace fs = std::filesystem;
namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::optional<int> number(std::string_view s) {
    int v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || v < 0 || v > (1 << 24))
        return std::nullopt;
    return v;
}

// Tokens of a name split at '_', '-', '.', ' '.
std::vector<std::string> tokens(std::string_view name) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : name) {
        if (c == '_' || c == '-' || c == '.' || c == ' ') {
            if (!cur.empty()) out.push_back(std::move(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) out.push_back(std::move(cur));
    return out;
}

void addEvidence(PathHints& h, const std::string& what) {
    h.evidence += (h.evidence.empty() ? "" : ", ") + what;
}

// What follows the x of "8xV100": a GPU model (one to four letters, then one to five digits)
// or "gpu"/"gpus".
bool namesGpus(std::string_view t) {
    if (t == "gpu" || t == "gpus") return true;
    std::size_t letters = 0;
    while (letters < t.size() && std::isalpha(static_cast<unsigned char>(t[letters])))
        ++letters;
    const std::size_t digits = t.size() - letters;
    return letters >= 1 && letters <= 4 && digits >= 1 && digits <= 5 &&
           std::all_of(t.begin() + static_cast<std::ptrdiff_t>(letters), t.end(),
                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// The networks benchmark logs are run with, as a name's word spells them ("bert" of
// bert_base_pretrain.log): a word, never a part of one ("robert" is no BERT).
bool isModelWord(std::string_view t) {
    static constexpr std::array<std::string_view, 17> kModels{
        "bert",     "resnet50",    "rn50",       "resnet101", "resnet152", "vgg16",
        "vgg19",    "inceptionv3", "inception3", "gpt2",      "gpt3",      "ssd",
        "maskrcnn", "transformer", "gnmt",       "dlrm",      "unet3d"};
    return std::find(kModels.begin(), kModels.end(), t) != kModels.end();
}

// A folder's or file's name: 8xV100 (GPUs), dgx2h_n32 / dgx1_n4 (nodes and GPUs per node),
// FP32 / fp16 / AMP (precision).
void readName(std::string_view name, PathHints& h, bool isFile) {
    const std::string l = lower(name);
    const auto parts = tokens(l);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const std::string& t = parts[i];
        // 8xv100, 16xa100, 4xt4, 2xrtx3090, 8xgpu: a GPU model (a few letters, then digits) or
        // "gpu(s)" after the x; a temporary folder's "1XHMvw" is no GPU count.
        if (const auto x = t.find('x');
            x != std::string::npos && x > 0 && namesGpus(t.substr(x + 1))) {
            if (auto g = number(std::string_view(t).substr(0, x)); g && *g > 0 && !h.gpus) {
                h.gpus = *g;
                addEvidence(h, "\"" + std::string(name) + "\"");
            }
        }
        // dgx1 (8 per node), dgx2 / dgx2h (16), dgxa100 / dgxh100 (8), a DGX Station (4, V100 or
        // A100); then n32: nodes
        if (t.rfind("dgx", 0) == 0 && !h.gpusPerNode) {
            const std::string m = t.substr(3);
            if (m == "1" || m == "a100" || m == "h100" || m == "1v")
                h.gpusPerNode = 8;
            else if (m == "2" || m == "2h")
                h.gpusPerNode = 16;
            else if (m == "station" || m == "stationa100")
                h.gpusPerNode = 4;
            if (h.gpusPerNode) {
                addEvidence(h, "\"" + std::string(name) + "\"");
                if (i + 1 < parts.size() && parts[i + 1].size() > 1 && parts[i + 1][0] == 'n')
                    if (auto n = number(std::string_view(parts[i + 1]).substr(1)); n && *n > 0)
                        h.nodes = *n;
            }
        }
        // A model a name spells out as a word of its own: bert_base_pretrain.log, resnet50/.
        if (!h.model && isModelWord(t)) {
            h.model = t;
            addEvidence(h, "\"" + std::string(name) + "\"");
        }
        if (!h.precision && (t == "fp32" || t == "fp16" || t == "amp" || t == "bf16" ||
                             t == "tf32" || t == "float16" || t == "float32"))
            h.precision = t == "amp" || t == "float16" ? "fp16" : t == "float32" ? "fp32" : t;
    }
    // result_3.txt, run-2.log, trial_1.out: the repeat.
    if (isFile && parts.size() >= 2) {
        static const char* kWords[] = {"result", "results", "run", "rep",  "repeat",
                                       "trial",  "seed",    "log", "iter", "attempt"};
        const std::string& stemLast = parts.size() >= 3 ? parts[parts.size() - 2] : parts.back();
        const std::string& word = parts.size() >= 3 ? parts[parts.size() - 3] : parts[0];
        for (const char* w : kWords)
            if (word == w)
                if (auto r = number(stemLast)) {
                    h.repeat = *r;
                    addEvidence(h, "name \"" + std::string(name) + "\"");
                    break;
                }
    }
}

} // namespace

PathHints readPathHints(const fs::path& file, const fs::path& root) {
    PathHints h;
    const std::string name = file.filename().string();
    if (auto n = parseLogName(name)) {
        h.model = n->model;
        h.batch = n->batchPerDevice;
        h.precision = n->precision;
        h.repeat = n->repeat;
        addEvidence(h, "name \"" + name + "\"");
    } else {
        readName(file.stem().string(), h, true);
    }
    // The folders from the file up to (and with) the root: the nearest says first.
    for (fs::path dir = file.parent_path(); !dir.empty(); dir = dir.parent_path()) {
        const std::string d = dir.filename().string();
        if (auto t = parseTopology(d); t && !h.gpus) {
            h.gpus = t->ranks();
            h.nodes = t->nodes;
            h.gpusPerNode = t->gpusPerNode;
            addEvidence(h, "folder \"" + d + "\"");
        } else {
            readName(d, h, false);
        }
        if (dir == root || dir == dir.parent_path() || !dir.has_relative_path()) break;
    }
    return h;
}

namespace {

// One run's identification, field by field: each from the log's own parameters first, then its
// path, then its scaleview.json, with where it came from and any disagreement said.
class Identification {
  public:
    Identification(const RunFacts& facts, const PathHints& path,
                   const std::optional<SidecarEntry>& sidecar, const std::string& display,
                   std::vector<Warning>& warnings)
        : m_facts(facts), m_path(path), m_sidecar(sidecar), m_display(display),
          m_warnings(warnings) {}

    void model();
    void batch();
    void precision();
    void topology();
    void repeat();
    RunKey key() && { return std::move(m_key); }

  private:
    // The log's value wins over the path's or the sidecar's: said as a warning and a detail.
    void disagree(const std::string& field, const std::string& logValue,
                  const std::string& logWhere, const std::string& other,
                  const std::string& otherWhere);
    std::optional<int> gpus(std::string& where);
    std::optional<int> nodes(std::optional<int> gpus, std::string& where) const;
    std::string pathWhere() const { return "path (" + m_path.evidence + ")"; }

    const RunFacts& m_facts;
    const PathHints& m_path;
    const std::optional<SidecarEntry>& m_sidecar;
    const std::string& m_display;
    std::vector<Warning>& m_warnings;
    RunKey m_key;
};

void Identification::disagree(const std::string& field, const std::string& logValue,
                              const std::string& logWhere, const std::string& other,
                              const std::string& otherWhere) {
    const std::string text = field + ": the log says " + logValue + " (" + logWhere + "), " +
                             otherWhere + " says " + other + "; the log's is used";
    m_warnings.push_back({m_display, 0, text});
    m_key.origins.details.push_back(text);
}

void Identification::model() {
    KeyOrigins& o = m_key.origins;
    if (m_facts.model) {
        m_key.model = canonicalModel(m_facts.model->value);
        o.model = KeySource::Log;
        o.details.push_back("model " + m_key.model + ": log, " + m_facts.model->where());
    } else if (m_path.model) {
        m_key.model = canonicalModel(*m_path.model);
        o.model = KeySource::Path;
        o.details.push_back("model " + m_key.model + ": " + pathWhere());
    } else if (m_sidecar && m_sidecar->model) {
        m_key.model = canonicalModel(*m_sidecar->model);
        o.model = KeySource::Sidecar;
        o.details.push_back("model " + m_key.model + ": " + m_sidecar->file);
    } else {
        m_key.model = "?";
        o.model = KeySource::Unknown;
        o.details.push_back("model ?: the log names none (no arch/model/network parameter), nor "
                            "its path or a scaleview.json");
    }
}

// The batch size per device.
void Identification::batch() {
    KeyOrigins& o = m_key.origins;
    if (m_facts.batch) {
        const RunFact& fact = *m_facts.batch;
        m_key.batchPerDevice = std::stoi(fact.value);
        o.batch = KeySource::Log;
        o.details.push_back("batch " + fact.value + ": log, " + fact.where());
        if (m_path.batch && *m_path.batch != m_key.batchPerDevice)
            disagree("batch size", fact.value, fact.where(), std::to_string(*m_path.batch),
                     "its " + pathWhere());
        else if (m_sidecar && m_sidecar->batch && *m_sidecar->batch != m_key.batchPerDevice)
            disagree("batch size", fact.value, fact.where(), std::to_string(*m_sidecar->batch),
                     m_sidecar->file);
    } else if (m_path.batch) {
        m_key.batchPerDevice = *m_path.batch;
        o.batch = KeySource::Path;
        o.details.push_back("batch " + std::to_string(*m_path.batch) + ": " + pathWhere());
    } else if (m_sidecar && m_sidecar->batch) {
        m_key.batchPerDevice = *m_sidecar->batch;
        o.batch = KeySource::Sidecar;
        o.details.push_back("batch " + std::to_string(*m_sidecar->batch) + ": " + m_sidecar->file);
    } else {
        m_key.batchPerDevice = 0;
        o.batch = KeySource::Unknown;
        o.details.push_back("batch ?: the log states no batch size (no batch_size parameter), "
                            "nor its path or a scaleview.json: its throughput counts, no "
                            "comparison across batch sizes");
    }
}

void Identification::precision() {
    KeyOrigins& o = m_key.origins;
    if (m_facts.precision) {
        m_key.precision = m_facts.precision->value;
        o.precision = KeySource::Log;
        o.details.push_back("precision " + m_key.precision + ": log, " +
                            m_facts.precision->where());
        if (m_path.precision && *m_path.precision != m_key.precision)
            disagree("precision", m_key.precision, m_facts.precision->where(), *m_path.precision,
                     "its " + pathWhere());
    } else if (m_path.precision) {
        m_key.precision = *m_path.precision;
        o.precision = KeySource::Path;
        o.details.push_back("precision " + m_key.precision + ": path");
    } else if (m_sidecar && m_sidecar->precision) {
        m_key.precision = *m_sidecar->precision;
        o.precision = KeySource::Sidecar;
        o.details.push_back("precision " + m_key.precision + ": " + m_sidecar->file);
    } else {
        m_key.precision = "?";
        o.precision = KeySource::Unknown;
        o.details.push_back("precision ?: stated by neither the log, its path nor a "
                            "scaleview.json");
    }
}

// The GPU count, with where it was read; its source is the topology's. In order: a total the
// log states (the user format's "gpus" pattern first, then world_size, "Number of GPUs: 8", "on
// 8 GPU(s)", a launcher's flags...), the path, a scaleview.json, the user format's "gpus": N,
// and last a count of the log's rank tags (those of the ranks that printed need not be all).
std::optional<int> Identification::gpus(std::string& where) {
    KeyOrigins& o = m_key.origins;
    const std::optional<RunFact> stated =
        m_facts.gpus && !m_facts.gpus->counted ? m_facts.gpus : std::nullopt;
    const std::optional<RunFact> counted =
        m_facts.gpus && m_facts.gpus->counted ? m_facts.gpus : std::nullopt;
    if (stated) {
        const RunFact& fact = *stated;
        const int gpus = std::stoi(fact.value);
        o.topology = KeySource::Log;
        where = "log, " + fact.where();
        if (m_path.gpus && *m_path.gpus != gpus)
            disagree("GPUs", fact.value, fact.where(), std::to_string(*m_path.gpus),
                     "its " + pathWhere());
        else if (m_sidecar && m_sidecar->gpus && *m_sidecar->gpus != gpus)
            disagree("GPUs", fact.value, fact.where(), std::to_string(*m_sidecar->gpus),
                     m_sidecar->file);
        return gpus;
    }
    std::optional<int> gpus;
    if (m_path.gpus || (m_path.nodes && m_path.gpusPerNode)) {
        o.topology = KeySource::Path;
        where = pathWhere();
        gpus = m_path.gpus ? *m_path.gpus : *m_path.nodes * *m_path.gpusPerNode;
    } else if (m_sidecar && m_sidecar->gpus) {
        o.topology = KeySource::Sidecar;
        where = m_sidecar->file;
        gpus = *m_sidecar->gpus;
    } else if (m_facts.formatGpus) {
        o.topology = KeySource::Format;
        where = "format file, " + m_facts.formatGpus->evidence;
        gpus = std::stoi(m_facts.formatGpus->value);
    } else if (counted) {
        o.topology = KeySource::Log;
        o.gpusCounted = true;
        where = "log, " + counted->where() + " (a count of its rank tags, no total it states)";
        return std::stoi(counted->value);
    }
    // What the log's tags counted, where a statement above it differs: said, not used.
    if (gpus && counted && std::stoi(counted->value) != *gpus) {
        const std::string text = "GPUs: the log's rank tags count " + counted->value + " (" +
                                 counted->where() + "), " + where + " says " +
                                 std::to_string(*gpus) +
                                 "; that is used (tags count the ranks "
                                 "that printed, not a total the log states)";
        m_warnings.push_back({m_display, 0, text});
        o.details.push_back(text);
    }
    return gpus;
}

// The node count, with where it was read: said, or the GPUs over the path's GPUs per node.
std::optional<int> Identification::nodes(std::optional<int> gpus, std::string& where) const {
    if (m_facts.nodes) {
        where = "log, " + m_facts.nodes->where();
        return std::stoi(m_facts.nodes->value);
    }
    if (m_path.nodes) {
        where = "path";
        return *m_path.nodes;
    }
    if (m_sidecar && m_sidecar->nodes) {
        where = m_sidecar->file;
        return *m_sidecar->nodes;
    }
    if (gpus && m_path.gpusPerNode && *gpus % *m_path.gpusPerNode == 0) {
        where = "path (" + m_path.evidence + ": " + std::to_string(*m_path.gpusPerNode) +
                " GPUs per node)";
        return *gpus / *m_path.gpusPerNode;
    }
    return std::nullopt;
}

void Identification::topology() {
    KeyOrigins& o = m_key.origins;
    std::string gpusWhere, nodesWhere;
    const std::optional<int> gpus = this->gpus(gpusWhere);
    const std::optional<int> nodes = this->nodes(gpus, nodesWhere);
    if (gpus && *gpus > kMaxRanks) {
        // A count no cluster has: a misread or corrupted figure, said and not used.
        m_key.topology = Topology{0, 0};
        o.topology = KeySource::Unknown;
        o.details.push_back("GPUs ?: " + gpusWhere + " says " + std::to_string(*gpus) +
                            ", more than " + std::to_string(kMaxRanks) +
                            ": not a GPU count, not used");
    } else if ((!gpus || *gpus <= 0) && m_facts.uncountedDevices) {
        // What the log does say of its devices, where that is no GPU count.
        m_key.topology = Topology{0, 0};
        o.topology = KeySource::Unknown;
        o.details.push_back("GPUs ?: " + m_facts.uncountedDevices->value + " (log, " +
                            m_facts.uncountedDevices->where() +
                            "), and neither its path, a scaleview.json nor its format file "
                            "states a GPU count: its throughput counts, no speedup");
    } else if (!gpus || *gpus <= 0) {
        m_key.topology = Topology{0, 0};
        o.topology = KeySource::Unknown;
        o.details.push_back("GPUs ?: the log states no GPU or rank count (world_size, num_gpus, "
                            "Number of GPUs, the tags of several ranks: one rank's tags are no "
                            "count), nor its path, a scaleview.json or its format file: its "
                            "throughput counts, no speedup");
    } else if (*gpus == 1) {
        // One GPU is one node, whoever says so.
        m_key.topology = Topology{1, 1};
        o.details.push_back("GPUs 1: " + gpusWhere + "; nodes 1: one GPU");
    } else if (nodes && *nodes > 0 && *gpus % *nodes == 0) {
        m_key.topology = Topology{*nodes, *gpus / *nodes};
        o.details.push_back("GPUs " + std::to_string(*gpus) + ": " + gpusWhere + "; nodes " +
                            std::to_string(*nodes) + ": " + nodesWhere);
    } else {
        m_key.topology = Topology{1, *gpus};
        o.nodesUnknown = true;
        o.details.push_back("GPUs " + std::to_string(*gpus) + ": " + gpusWhere +
                            "; nodes: not stated (shown as " + std::to_string(*gpus) + " GPUs)");
    }
}

void Identification::repeat() {
    KeyOrigins& o = m_key.origins;
    if (m_path.repeat) {
        m_key.repeat = *m_path.repeat;
        o.repeat = KeySource::Path;
    } else if (m_sidecar && m_sidecar->repeat) {
        m_key.repeat = *m_sidecar->repeat;
        o.repeat = KeySource::Sidecar;
    } else {
        m_key.repeat = 0;
        o.repeat = KeySource::Unknown;
    }
    if (m_sidecar && m_sidecar->label) o.details.push_back("label: " + *m_sidecar->label);
}

} // namespace

RunKey identifyRun(const RunFacts& facts, const PathHints& path,
                   const std::optional<SidecarEntry>& sidecar, const std::string& display,
                   std::vector<Warning>& warnings) {
    Identification id(facts, path, sidecar, display, warnings);
    id.model();
    id.batch();
    id.precision();
    id.topology();
    id.repeat();
    return std::move(id).key();
}

} // namespace sv
