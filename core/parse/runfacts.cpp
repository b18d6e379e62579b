#include "core/parse/runfacts.h"

#include "core/model/textscan.h"
#include "core/parse/devicefacts.h"
#include "core/parse/hostfacts.h"
#include "core/parse/lineformat.h"
#include "core/model/outputtext.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <vector>

namespace sv {
namespace {

std::string_view unquote(std::string_view s) {
    s = trimBlanks(s);
    if (s.size() >= 2 && (s.front() == '\'' || s.front() == '"') && s.back() == s.front())
        s = s.substr(1, s.size() - 2);
    return s;
}

std::optional<int> positive(std::string_view s) {
    s = unquote(s);
    int v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || v < 1 || v > (1 << 24))
        return std::nullopt;
    return v;
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool truthy(std::string_view s) {
    const std::string l = lower(unquote(s));
    return l == "true" || l == "1" || l == "yes";
}

// The facts found so far, each kept from its first source of the highest rank.
struct Collector {
    RunFacts facts;
    // Totals (world_size, "Num GPUs") beat processes x devices per process.
    std::optional<RunFact> totalGpus, devicesPerProcess, mlperfGpus, mlperfNodes;
    std::optional<RunFact> mlperfGlobalBatch, mlperfPlatformNodes;
    // A launcher's command line and what the run prints of itself: torchrun's
    // --nproc_per_node x --nnodes, CUDA_VISIBLE_DEVICES (one node's), a stated global batch.
    std::optional<RunFact> nprocPerNode, launcherNodes, visibleDevices, statedGlobalBatch;
    // -b/--batch-size on a printed command line; under the PyTorch ImageNet example's
    // --multiprocessing-distributed it is the node's, which main.py splits over its GPUs.
    std::optional<RunFact> commandBatch;
    bool nodeBatch = false;
    // The ranks the tags show: the tags of one rank (rank 0's lines alone, as Horovod and most
    // launchers print) say nothing of how many ran.
    int maxRank = -1, minRank = -1;
    std::int64_t rankLine = 0;
    std::string rankEvidence;
    bool ampFalse = false, fp16False = false;
    std::optional<int> layers; // MXNet's network='resnet-v1b' with num_layers=50
    std::int64_t ampLine = 0;
    // tf_cnn_benchmarks' "Batch size:  512 global" (the next line says "64 per device").
    std::optional<int> globalBatch;
    // The PyTorch ImageNet example: "Use GPU: 3 for training" per process on this node, and
    // --world-size N (nodes) beside --multiprocessing-distributed.
    int maxUseGpu = -1;
    std::int64_t useGpuLine = 0;
    std::optional<int> exampleNodes;
    HostFacts hosts;
    DeviceFacts devices;

    static void set(std::optional<RunFact>& slot, std::string value, std::int64_t line,
                    std::string_view evidence) {
        if (slot || value.empty()) return;
        std::string e(evidence.substr(0, 80));
        slot = RunFact{std::move(value), line, std::move(e)};
    }

    // One "key value" pair of a parameter dump.
    void keep(std::string_view key, std::string_view value) {
        auto& all = facts.parameters;
        if (key.empty() || key.size() > RunFacts::kMaxParameterKeyBytes ||
            all.size() >= RunFacts::kMaxParameters)
            return;
        for (const auto& [k, v] : all)
            if (k == key) return;
        all.emplace_back(std::string(key), std::string(utf8Prefix(unquote(value), 160)));
    }

    void pair(std::string_view key, std::string_view value, std::int64_t line) {
        key = trimBlanks(key);
        while (!key.empty() && key.front() == '-')
            key.remove_prefix(1);
        const std::string k = lower(key);
        const std::string evidence = std::string(key) + " " + std::string(trimBlanks(value));
        keep(key, trimBlanks(value));
        if (k == "batch_size" || k == "batch-size" || k == "per_gpu_batch_size" || k == "b" ||
            k == "train_batch_size" || k == "batch_size_per_gpu") {
            if (auto b = positive(value)) set(facts.batch, std::to_string(*b), line, evidence);
        } else if (k == "world_size" || k == "num_gpus_total" || k == "total_gpus") {
            if (auto g = positive(value)) set(totalGpus, std::to_string(*g), line, evidence);
        } else if (k == "nproc_per_node" || k == "nproc-per-node") {
            if (auto g = positive(value)) set(nprocPerNode, std::to_string(*g), line, evidence);
        } else if (k == "nnodes") {
            if (auto g = positive(value)) set(launcherNodes, std::to_string(*g), line, evidence);
        } else if (k == "ntasks" || k == "np" || k == "distributed_world_size" ||
                   k == "world size" || k == "gpus used" || k == "number of gpus") {
            if (auto g = positive(value)) set(totalGpus, std::to_string(*g), line, evidence);
        } else if (k == "global_batch_size" || k == "global-batch-size" ||
                   k == "global batch size") {
            if (auto g = positive(value))
                set(statedGlobalBatch, std::to_string(*g), line, evidence);
        } else if (k == "num_gpus" || k == "ngpus" || k == "num_devices" || k == "n_gpu") {
            if (auto g = positive(value))
                set(devicesPerProcess, std::to_string(*g), line, evidence);
        } else if (k == "gpus") {
            const std::string_view v = unquote(value);
            if (!v.empty() && std::all_of(v.begin(), v.end(), [](char c) {
                    return (c >= '0' && c <= '9') || c == ',';
                })) {
                const auto n = std::count(v.begin(), v.end(), ',') + 1;
                set(devicesPerProcess, std::to_string(n), line, evidence);
            }
        } else if (k == "dtype" || k == "precision" || k == "data_type" || k == "math") {
            set(facts.precision, normalizePrecision(unquote(value)), line, evidence);
        } else if (k == "amp" || k == "use_amp" || k == "use_tf_amp" || k == "fp16" ||
                   k == "use_fp16" || k == "enable_amp") {
            if (truthy(value))
                set(facts.precision, "fp16", line, evidence);
            else if (k == "amp" || k == "fp16" || k == "use_amp" || k == "use_fp16") {
                (k == "amp" || k == "use_amp" ? ampFalse : fp16False) = true;
                ampLine = line;
            }
        } else if (k == "num_layers" || k == "depth") {
            if (auto n = positive(value)) layers = *n;
        } else if (k == "arch" || k == "model" || k == "network" || k == "model_name") {
            const std::string_view v = unquote(value);
            if (!v.empty() && v.size() < 64 && v != "None" && !contains(v, "/"))
                set(facts.model, std::string(v), line, evidence);
        }
    }

    // An srun or mpirun whose own command is an inline snippet (after the launcher: "bash -c
    // 'mpirun -np 65 ...'" wraps a real launch).
    static bool helperStep(std::string_view text) {
        auto launcher = text.find("srun ");
        if (launcher == std::string_view::npos) launcher = text.find("mpirun ");
        if (launcher == std::string_view::npos) return false;
        const std::string_view after = text.substr(launcher);
        for (std::string_view snippet : {" bash -c ", " sh -c ", " python -c ", " python3 -c "})
            if (contains(after, snippet)) return true;
        return false;
    }

    // "DLL ... PARAMETER k : v  k : v ..." (two blanks between pairs).
    void dllParameters(std::string_view text, std::int64_t line) {
        const auto at = text.find("PARAMETER");
        text.remove_prefix(at + 9);
        std::size_t pos = 0;
        while (pos < text.size()) {
            const auto colon = text.find(" : ", pos);
            if (colon == std::string_view::npos) break;
            auto keyStart = text.rfind("  ", colon);
            keyStart = keyStart == std::string_view::npos || keyStart < pos ? pos : keyStart + 2;
            auto next = text.find(" : ", colon + 3);
            std::size_t valueEnd = text.size();
            if (next == std::string_view::npos) {
                // The last pair ends at a double blank: what follows is another line's text
                // (PyTorch's PARAMETER line is followed by " ! Weight decay NOT applied ...").
                const auto start = text.find_first_not_of(' ', colon + 3);
                const auto gap = start == std::string_view::npos ? start : text.find("  ", start);
                if (gap != std::string_view::npos) valueEnd = gap;
            } else {
                const auto sep = text.rfind("  ", next);
                valueEnd = sep == std::string_view::npos || sep < colon + 3 ? next : sep;
            }
            pair(text.substr(keyStart, colon - keyStart),
                 text.substr(colon + 3, valueEnd - (colon + 3)), line);
            pos = valueEnd;
        }
    }

    // "Namespace(a=1, b='x,y', c=[1, 2])"
    void keywordArguments(std::string_view text, std::int64_t line) {
        std::size_t i = 0;
        while (i < text.size()) {
            while (i < text.size() && (text[i] == ' ' || text[i] == ','))
                ++i;
            const std::size_t keyStart = i;
            while (i < text.size() &&
                   (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_'))
                ++i;
            if (i >= text.size() || text[i] != '=' || i == keyStart) {
                // not key=value: skip to the next comma
                while (i < text.size() && text[i] != ',')
                    ++i;
                continue;
            }
            const std::string_view key = text.substr(keyStart, i - keyStart);
            ++i;
            const std::size_t valueStart = i;
            if (i < text.size() && (text[i] == '\'' || text[i] == '"')) {
                const char q = text[i];
                const auto close = text.find(q, i + 1);
                i = close == std::string_view::npos ? text.size() : close + 1;
            } else if (i < text.size() && (text[i] == '[' || text[i] == '(' || text[i] == '{')) {
                int depth = 0;
                for (; i < text.size(); ++i) {
                    if (text[i] == '[' || text[i] == '(' || text[i] == '{') ++depth;
                    if ((text[i] == ']' || text[i] == ')' || text[i] == '}') && --depth == 0) {
                        ++i;
                        break;
                    }
                }
            } else {
                while (i < text.size() && text[i] != ',' && text[i] != ')')
                    ++i;
            }
            pair(key, text.substr(valueStart, i - valueStart), line);
        }
    }

    // DLLogger's JSON stream: DLLL {"type": "PARAMETER", "data": {"batch_size": 256, "amp":
    // true, ...}} (PyTorch) or {"type": "LOG", "step": "PARAMETER", "data": {"arch": ...}} (TF).
    void jsonParameters(std::string_view text, std::int64_t line) {
        const auto data = text.find("\"data\": {");
        if (data != std::string_view::npos) jsonObject(text, data + 9, line);
    }

    // The pairs of a one-line JSON object from i (after its '{'): DLLogger's "data", NVLOG's
    // "args: {"world_size": 8, "batch_size": 220, ...}".
    void jsonObject(std::string_view text, std::size_t i, std::int64_t line) {
        while (i < text.size() && text[i] != '}') {
            const auto open = text.find('"', i);
            if (open == std::string_view::npos) return;
            const auto close = text.find('"', open + 1);
            if (close == std::string_view::npos || text.substr(close + 1, 2) != ": ") return;
            const std::string_view key = text.substr(open + 1, close - open - 1);
            std::size_t v = close + 3, end = v;
            if (end < text.size() && text[end] == '"') {
                const auto q = text.find('"', end + 1);
                end = q == std::string_view::npos ? text.size() : q + 1;
            } else {
                int depth = 0;
                for (; end < text.size(); ++end) {
                    const char c = text[end];
                    if (c == '[' || c == '{')
                        ++depth;
                    else if ((c == ']' || c == '}') && depth-- == 0)
                        break;
                    else if (c == ',' && depth == 0)
                        break;
                }
            }
            pair(key, text.substr(v, end - v), line);
            i = end;
            while (i < text.size() && (text[i] == ',' || text[i] == ' ' || text[i] == ']'))
                ++i;
        }
    }

    // tf_cnn_benchmarks' info block and the PyTorch ImageNet example's per-process lines.
    void benchmarkLines(std::string_view text, std::int64_t n) {
        if (text.rfind("Batch size:", 0) == 0 && text.size() > 18 &&
            text.substr(text.size() - 7) == " global") {
            globalBatch = positive(trimBlanks(text.substr(11, text.size() - 18)));
            return;
        }
        if (globalBatch && text.size() > 11 && text.substr(text.size() - 11) == " per device") {
            const auto perDevice = positive(trimBlanks(text.substr(0, text.size() - 11)));
            if (perDevice && *globalBatch % *perDevice == 0) {
                const std::string e = "Batch size: " + std::to_string(*globalBatch) + " global, " +
                                      std::to_string(*perDevice) + " per device";
                set(facts.batch, std::to_string(*perDevice), n, e);
                set(totalGpus, std::to_string(*globalBatch / *perDevice), n, e);
            }
            globalBatch.reset();
            return;
        }
        if (text.rfind("Use GPU: ", 0) == 0 && contains(text, " for training")) {
            int g = -1;
            auto [p, ec] = std::from_chars(text.data() + 9, text.data() + text.size(), g);
            if (ec == std::errc() && g > maxUseGpu && g < 4096) {
                maxUseGpu = g;
                useGpuLine = n;
            }
        }
        if (contains(text, "--multiprocessing-distributed")) {
            const auto at = text.find("--world-size");
            if (at != std::string_view::npos && at + 13 < text.size())
                exampleNodes = positive(text.substr(at + 13, text.find(' ', at + 13) - at - 13));
        }
    }

    // A launcher's command line as the run prints it: "python3 main.py --arch resnet50
    // --batch-size 128", "torchrun --nproc_per_node 8 --nnodes 2 ...", "mpirun -np 16 ...",
    // "srun --ntasks=8 ..." (the "--key=value" forms are read with every line's flags).
    void commandLine(std::string_view text, std::int64_t n) {
        static constexpr std::string_view kLaunchers[] = {"python",
                                                          "torchrun",
                                                          "mpirun",
                                                          "srun ",
                                                          "horovodrun",
                                                          "deepspeed ",
                                                          "torch.distributed.launch"};
        if (std::none_of(std::begin(kLaunchers), std::end(kLaunchers),
                         [&](std::string_view w) { return contains(text, w); }))
            return;
        std::vector<std::string_view> words;
        for (std::size_t at = 0; at < text.size();) {
            const auto start = text.find_first_not_of(" \t", at);
            if (start == std::string_view::npos) break;
            const auto end = std::min(text.find_first_of(" \t", start), text.size());
            words.push_back(text.substr(start, end - start));
            at = end;
        }
        for (std::size_t i = 0; i + 1 < words.size(); ++i) {
            const std::string_view flag = words[i];
            if (flag.size() < 2 || flag[0] != '-' || contains(flag, "=") || !positive(words[i + 1]))
                continue;
            std::string_view key = flag.substr(flag[1] == '-' ? 2 : 1);
            if (key == "n" && contains(text, "srun")) key = "ntasks";
            if (key == "n" && contains(text, "mpirun")) key = "np";
            if (key == "batch-size" || key == "batch_size" || key == "b") {
                if (auto b = positive(words[i + 1]))
                    set(commandBatch, std::to_string(*b), n,
                        "command line: " + std::string(flag) + " " + std::string(words[i + 1]));
                nodeBatch = nodeBatch || contains(text, "--multiprocessing-distributed");
                continue;
            }
            if (key == "nproc_per_node" || key == "nproc-per-node" || key == "nnodes" ||
                key == "ntasks" || key == "np" || key == "train_batch_size" ||
                key == "global-batch-size" || key == "global_batch_size")
                pair(key, words[i + 1], n);
        }
    }

    // A total stated over the GPUs: Horovod's "Total img/sec on 8 GPU(s): 1960.8", "on 16
    // GPUs".
    void onGpus(std::string_view text, std::int64_t n) {
        for (auto at = text.find(" on "); at != std::string_view::npos;
             at = text.find(" on ", at + 4)) {
            const std::size_t v = at + 4;
            const auto end = std::min(text.find_first_not_of("0123456789", v), text.size());
            const std::string_view rest = text.substr(end);
            if (end == v || !(rest.rfind(" GPU(s)", 0) == 0 || rest.rfind(" GPUs", 0) == 0))
                continue;
            if (auto g = positive(text.substr(v, end - v)))
                set(totalGpus, std::to_string(*g), n,
                    text.substr(at + 1, end - at - 1 + (rest[4] == '(' ? 7 : 5)));
            return;
        }
    }

    // What a run prints of its size in words: "using world size: 8", "n_gpu: 16", "GPUs used: 1",
    // "Number of GPUs: 8", "global batch size: 256", "CUDA_VISIBLE_DEVICES=0,1,2,3",
    // "Devices: [cuda(id=0), cuda(id=1)]".
    void sizeWords(std::string_view text, std::int64_t n) {
        static constexpr std::string_view kKeys[] = {
            "world size: ", "n_gpu: ", "GPUs used: ", "Number of GPUs: ", "global batch size: "};
        for (std::string_view key : kKeys) {
            const auto at = text.find(key);
            if (at == std::string_view::npos) continue;
            const auto v = text.find_first_not_of(' ', at + key.size());
            if (v == std::string_view::npos) continue;
            const auto end = std::min(text.find_first_not_of("0123456789", v), text.size());
            pair(key.substr(0, key.size() - 2), text.substr(v, end - v), n);
        }
        onGpus(text, n);
        if (const auto at = text.find("CUDA_VISIBLE_DEVICES="); at != std::string_view::npos) {
            const std::size_t v = at + 21;
            const auto end = std::min(text.find_first_not_of("0123456789,", v), text.size());
            const std::string_view list = text.substr(v, end - v);
            if (!list.empty() && isDigit(list.front()))
                set(visibleDevices, std::to_string(std::count(list.begin(), list.end(), ',') + 1),
                    n, text.substr(at, end - at));
        }
        // PyTorch Lightning: "LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0,1,2,3]".
        if (const auto at = text.find("CUDA_VISIBLE_DEVICES: ["); at != std::string_view::npos) {
            const std::size_t v = at + 23;
            const auto end = std::min(text.find_first_not_of("0123456789, ", v), text.size());
            const std::string_view list = text.substr(v, end - v);
            if (end < text.size() && text[end] == ']' && !list.empty() && isDigit(list.front()))
                set(visibleDevices, std::to_string(std::count(list.begin(), list.end(), ',') + 1),
                    n, text.substr(at, end + 1 - at));
        }
        if (const auto at = text.find("Devices: ["); at != std::string_view::npos) {
            const auto close = text.find(']', at);
            const std::string_view list =
                text.substr(at + 10, close == std::string_view::npos ? std::string_view::npos
                                                                     : close - at - 10);
            if (!trimBlanks(list).empty())
                set(totalGpus, std::to_string(std::count(list.begin(), list.end(), ',') + 1), n,
                    text.substr(at, std::min<std::size_t>(list.size() + 11, 80)));
        }
    }

    void line(std::string_view text, std::int64_t n) {
        // Launcher tags: the highest rank is the process count less one.
        int rank = -1;
        hosts.line(text, n);
        std::size_t tagLength = 0;
        if (mayHaveTag(text))
            for (const TagFormat& tag : tagFormats())
                if (tag.match(text, rank, tagLength)) {
                    if (minRank < 0 || rank < minRank) minRank = rank;
                    if (rank > maxRank) {
                        maxRank = rank;
                        rankLine = n;
                        rankEvidence = std::string(text.substr(0, tagLength));
                    }
                    text.remove_prefix(tagLength);
                    break;
                }
        if (const auto node = text.find("Node["); node != std::string_view::npos) {
            int v = -1;
            const char* first = text.data() + node + 5;
            auto [p, ec] = std::from_chars(first, text.data() + text.size(), v);
            if (ec == std::errc() && p < text.data() + text.size() && *p == ']' && v >= 0 &&
                v < (1 << 20) && (minRank < 0 || v < minRank))
                minRank = v;
            if (ec == std::errc() && p < text.data() + text.size() && *p == ']' && v > maxRank &&
                v < (1 << 20)) {
                maxRank = v;
                rankLine = n;
                rankEvidence = "Node[" + std::to_string(v) + "]";
            }
        }
        if (contains(text, "PARAMETER") && contains(text, " : ")) dllParameters(text, n);
        if (contains(text, "DLLL {") && contains(text, "PARAMETER")) jsonParameters(text, n);
        if (const auto args = text.find(") args: {");
            args != std::string_view::npos && contains(text, ":::NVLOG"))
            jsonObject(text, args + 9, n);
        dashedParameter(text, n);
        devices.line(text, n);
        benchmarkLines(text, n);
        if (const auto ns = text.find("Namespace("); ns != std::string_view::npos)
            keywordArguments(text.substr(ns + 10), n);
        // Flags on a command line: --batch_size=256, --num_gpus=8. A launcher's helper step
        // (MLPerf's "srun --ntasks=1 bash -c 'echo Clearing cache ...'", "srun --nodes=1
        // --ntasks=1 --container-name=x python -c ''") runs no training: its flags say nothing
        // of the run's size.
        if (helperStep(text)) return;
        for (std::size_t at = text.find("--"); at != std::string_view::npos;
             at = text.find("--", at + 2)) {
            const auto eq = text.find('=', at);
            const auto sp = text.find_first_of(" \t'\",]", at);
            if (eq == std::string_view::npos || (sp != std::string_view::npos && sp < eq)) continue;
            const auto end = text.find_first_of(" \t'\",]", eq);
            pair(text.substr(at + 2, eq - at - 2),
                 text.substr(eq + 1, (end == std::string_view::npos ? text.size() : end) - eq - 1),
                 n);
        }
        commandLine(text, n);
        sizeWords(text, n);
        // TensorFlow ConvNets' hyper-parameter lines.
        if (text.rfind("Num GPUs ", 0) == 0) pair("world_size", text.substr(9), n);
        if (text.rfind("Per-GPU Batch Size ", 0) == 0) pair("batch_size", text.substr(19), n);
        // Horovod's synthetic benchmarks: "Model: ResNet50", "Batch size: 32" (per GPU, its
        // --batch-size), then "Number of GPUs: 8" (sizeWords).
        if (text.rfind("Model: ", 0) == 0) pair("model", text.substr(7), n);
        if (text.rfind("Batch size: ", 0) == 0) pair("batch_size", text.substr(12), n);
        // timm's train.py: "Model resnet50 created, param count:25557032", "Training in
        // distributed mode with multiple processes, 1 device per process.Process 0, total 8,
        // device cuda:0." ("1 GPU per process. Process 0, total 8." before 0.6), "Training with a
        // single process on 1 device (cuda:0)." ("on 1 GPUs." before).
        if (text.rfind("Model ", 0) == 0)
            if (const auto c = text.find(" created, param count"); c != std::string_view::npos)
                pair("model", text.substr(6, c - 6), n);
        if (contains(text, "Training in distributed mode"))
            if (const auto t = text.find(", total "); t != std::string_view::npos) {
                const auto end = std::min(text.find_first_not_of("0123456789", t + 8), text.size());
                pair("world_size", text.substr(t + 8, end - t - 8), n);
            }
        if (contains(text, "Training with a single process on 1 device"))
            pair("world_size", "1", n);
        // HuggingFace's Trainer: "  Instantaneous batch size per device = 32".
        if (const auto at = text.find("Instantaneous batch size per device = ");
            at != std::string_view::npos)
            pair("batch_size", text.substr(at + 38), n);
        if (text.rfind("dtype <dtype: '", 0) == 0) {
            const auto q = text.find('\'', 15);
            if (q != std::string_view::npos) pair("dtype", text.substr(15, q - 15), n);
        }
        if (contains(text, ":::MLL")) mlperfLine(text, n);
    }

    // MLPerf: 'num_accelerators': '16', 'num_nodes': '1' in submission_entry; :::MLLOG keys.
    void mlperfLine(std::string_view text, std::int64_t n) {
        auto quoted = [&](std::string_view key) -> std::optional<int> {
            const auto at = text.find(key);
            if (at == std::string_view::npos) return std::nullopt;
            const auto start = at + key.size();
            const auto end = text.find('\'', start);
            if (end == std::string_view::npos) return std::nullopt;
            return positive(text.substr(start, end - start));
        };
        if (auto a = quoted("'num_accelerators': '"))
            set(mlperfGpus, std::to_string(*a), n, "num_accelerators " + std::to_string(*a));
        if (auto nn = quoted("'num_nodes': '"))
            set(mlperfNodes, std::to_string(*nn), n, "num_nodes " + std::to_string(*nn));
        if (contains(text, ":::MLLOG {")) mllogKey(text, n);
        mllKey(text, n);
    }

    // MLPerf v0.5-0.6's records: ":::MLL 1558635870.446 submission_platform: {"value": "130xDGX-1
    // with V100", ...}".
    void mllKey(std::string_view text, std::int64_t n) {
        const auto at = text.find(":::MLL ");
        if (at == std::string_view::npos) return;
        const auto keyStart = text.find(' ', at + 7);
        const auto colon = text.find(": {\"value\": ", at + 7);
        if (keyStart == std::string_view::npos || colon == std::string_view::npos ||
            colon < keyStart)
            return;
        const std::string_view key = text.substr(keyStart + 1, colon - keyStart - 1);
        std::string_view value = text.substr(colon + 12);
        value = value.substr(0, value.find_first_of(",}"));
        devices.record(key, value, n);
    }

    // A parameter dump's "- key : value" lines, padded: PaddleNLP's "- world_size
    // :1", Transformer-XL's "    - local_rank : 0". The blank before the colon tells a dump
    // from prose ("epoch 3 - loss: 0.5").
    void dashedParameter(std::string_view text, std::int64_t n) {
        const auto dash = text.find("- ");
        if (dash == std::string_view::npos || (dash > 0 && text[dash - 1] != ' ')) return;
        std::size_t i = dash + 2;
        const std::size_t keyStart = i;
        while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) ||
                                   text[i] == '_' || text[i] == '.'))
            ++i;
        const std::size_t keyEnd = i;
        while (i < text.size() && text[i] == ' ')
            ++i;
        if (keyEnd - keyStart < 2 || i == keyEnd || i >= text.size() || text[i] != ':') return;
        std::string_view value = text.substr(i + 1);
        if (const auto esc = value.find('\x1b'); esc != std::string_view::npos)
            value = value.substr(0, esc);
        if (!trimBlanks(value).empty())
            pair(text.substr(keyStart, keyEnd - keyStart), trimBlanks(value), n);
    }

    // MLPerf's JSON records: :::MLLOG {..., "key": "number_of_ranks", "value": 16, ...}; the
    // ranks are the GPUs, "submission_platform": "4xDGX-A100" names N nodes of a system.
    void mllogKey(std::string_view text, std::int64_t n) {
        const auto k = text.find("\"key\": \"");
        const auto v = text.find("\"value\": ");
        if (k == std::string_view::npos || v == std::string_view::npos) return;
        const auto kEnd = text.find('"', k + 8);
        if (kEnd == std::string_view::npos) return;
        const std::string_view key = text.substr(k + 8, kEnd - k - 8);
        std::string_view value = text.substr(v + 9);
        value = value.substr(0, value.find_first_of(",}"));
        const std::string evidence = std::string(key) + " " + std::string(trimBlanks(value));
        devices.record(key, value, n);
        if (key == "number_of_ranks" || key == "world_size") {
            if (auto g = positive(value)) set(totalGpus, std::to_string(*g), n, evidence);
        } else if (key == "number_of_nodes" || key == "num_nodes") {
            if (auto g = positive(value)) set(mlperfNodes, std::to_string(*g), n, evidence);
        } else if (key == "global_batch_size") {
            if (auto g = positive(value)) set(mlperfGlobalBatch, std::to_string(*g), n, evidence);
        } else if (key == "submission_platform") {
            const std::string_view name = unquote(value);
            const auto x = name.find('x');
            if (x != std::string_view::npos && x > 0 && x + 1 < name.size())
                if (auto g = positive(name.substr(0, x)))
                    set(mlperfPlatformNodes, std::to_string(*g), n, evidence);
        }
    }

    RunFacts finish() {
        // "resnet-v1b" and num_layers=50: "resnet50-v1b", as the log says it in two parameters.
        if (facts.model && layers) {
            std::string& m = facts.model->value;
            const auto at = lower(m).find("resnet");
            if (at != std::string::npos &&
                (at + 6 >= m.size() || m[at + 6] < '0' || m[at + 6] > '9')) {
                m.insert(at + 6, std::to_string(*layers));
                facts.model->evidence += ", num_layers " + std::to_string(*layers);
            }
        }
        if (!facts.precision && (ampFalse || fp16False))
            facts.precision = RunFact{"fp32", ampLine, "amp/fp16 False"};
        chooseGpus();
        chooseBatch();
        if (!facts.nodes) facts.nodes = hosts.nodes(facts.gpus ? std::stoi(facts.gpus->value) : 0);
        if (!facts.gpus) facts.uncountedDevices = devices.notCounted();
        return facts;
    }

    // The GPUs and nodes, from the highest of the sources that state them.
    void chooseGpus() {
        // Tags of two ranks or more: the highest is the process count less one. The tags of one
        // rank are no count (a log of rank 0's lines is any number of GPUs' run).
        const int processes = minRank >= 0 && minRank < maxRank ? maxRank + 1 : 0;
        // A total stated as systems or per node (MLPerf's platform, accelerators_per_node).
        if (!totalGpus) totalGpus = devices.gpus(mlperfNodes);
        if (totalGpus) {
            facts.gpus = totalGpus;
        } else if (nprocPerNode) {
            // torchrun's processes: one per GPU of each of --nnodes nodes.
            const int nodes = launcherNodes ? std::stoi(launcherNodes->value) : 1;
            facts.gpus =
                RunFact{std::to_string(std::stoi(nprocPerNode->value) * nodes), nprocPerNode->line,
                        "command line: " + nprocPerNode->evidence +
                            (launcherNodes ? " x " + launcherNodes->evidence : "")};
        } else if (processes > 0) {
            const int per = devicesPerProcess ? std::stoi(devicesPerProcess->value) : 1;
            std::string evidence = std::to_string(processes) + " ranks (" + rankEvidence + ")";
            if (devicesPerProcess) evidence += " x " + devicesPerProcess->evidence;
            facts.gpus = RunFact{std::to_string(processes * per), rankLine, evidence, true};
        } else if (devicesPerProcess && maxRank < 0) {
            facts.gpus = devicesPerProcess; // one process, untagged
            facts.nodes = RunFact{"1", devicesPerProcess->line, "one process"};
        }
        if (!facts.gpus && maxUseGpu >= 0) {
            // One process per GPU of this node; --world-size counts the nodes.
            const int nodes = exampleNodes.value_or(1);
            facts.gpus =
                RunFact{std::to_string((maxUseGpu + 1) * nodes), useGpuLine,
                        "Use GPU: 0.." + std::to_string(maxUseGpu) + " for training" +
                            (exampleNodes ? " x --world-size " + std::to_string(nodes) : "")};
            if (exampleNodes)
                facts.nodes = RunFact{std::to_string(nodes), useGpuLine,
                                      "--world-size " + std::to_string(nodes)};
        }
        if (!facts.gpus && mlperfGpus) {
            const int nodes = mlperfNodes ? std::stoi(mlperfNodes->value) : 1;
            facts.gpus = RunFact{std::to_string(std::stoi(mlperfGpus->value) * nodes),
                                 mlperfGpus->line, mlperfGpus->evidence};
        }
        if (!facts.gpus && visibleDevices) {
            // One process's view of its node: the GPUs it may use.
            facts.gpus = visibleDevices;
            facts.nodes = RunFact{"1", visibleDevices->line, "one node's CUDA_VISIBLE_DEVICES"};
        }
        if (!facts.nodes && launcherNodes) facts.nodes = launcherNodes;
        if (!facts.nodes && mlperfNodes) facts.nodes = mlperfNodes;
        if (!facts.nodes && mlperfPlatformNodes) facts.nodes = mlperfPlatformNodes;
    }

    // The batch per device, where the log states it only as a global batch or on a command line.
    void chooseBatch() {
        if (!facts.batch && mlperfGlobalBatch && facts.gpus) {
            const int global = std::stoi(mlperfGlobalBatch->value);
            const int gpus = std::stoi(facts.gpus->value);
            if (global % gpus == 0)
                facts.batch =
                    RunFact{std::to_string(global / gpus), mlperfGlobalBatch->line,
                            mlperfGlobalBatch->evidence + " / " + std::to_string(gpus) + " GPUs"};
        }
        if (!facts.batch && commandBatch) {
            const int b = std::stoi(commandBatch->value);
            const int perNode = maxUseGpu + 1;
            if (!nodeBatch)
                facts.batch = commandBatch;
            else if (perNode > 0 && b % perNode == 0)
                facts.batch = RunFact{std::to_string(b / perNode), commandBatch->line,
                                      commandBatch->evidence + " / " + std::to_string(perNode) +
                                          " GPUs of the node (--multiprocessing-distributed)"};
        }
        if (!facts.batch && statedGlobalBatch && facts.gpus) {
            const int global = std::stoi(statedGlobalBatch->value);
            const int gpus = std::stoi(facts.gpus->value);
            if (global % gpus == 0)
                facts.batch =
                    RunFact{std::to_string(global / gpus), statedGlobalBatch->line,
                            statedGlobalBatch->evidence + " / " + std::to_string(gpus) + " GPUs"};
        }
    }
};

} // namespace

std::string normalizePrecision(std::string_view text) {
    const std::string l = lower(trimBlanks(text));
    if (l == "float16" || l == "fp16" || l == "half" || l == "amp" || l == "mixed" ||
        l == "mixed_float16" || l == "o1" || l == "o2" || l == "torch.float16")
        return "fp16";
    if (l == "float32" || l == "fp32" || l == "float" || l == "single" || l == "torch.float32")
        return "fp32";
    if (l == "bfloat16" || l == "bf16" || l == "mixed_bfloat16") return "bf16";
    if (l == "tf32") return "tf32";
    return {};
}

RunFacts readRunFacts(std::string_view head) {
    Collector c;
    std::int64_t n = 0;
    std::string joined;
    while (!head.empty() && n < 2000) {
        auto nl = head.find('\n');
        std::string_view text = head.substr(0, nl);
        ++n;
        const std::int64_t lineNo = n;
        head.remove_prefix(nl == std::string_view::npos ? head.size() : nl + 1);
        if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
        // A DLLogger PARAMETER line wrapped by the terminal (TensorFlow's, at ~150 columns):
        // the lines after it that do not start a record of their own continue it.
        if (contains(text, "PARAMETER") && text.size() >= 100) {
            joined.assign(text);
            std::size_t last = text.size();
            for (int k = 0; k < 20 && !head.empty() && last >= 100; ++k) {
                nl = head.find('\n');
                std::string_view more = head.substr(0, nl);
                if (more.rfind("DLL", 0) == 0 || more.empty()) break;
                if (more.back() == '\r') more.remove_suffix(1);
                joined += more;
                last = more.size();
                ++n;
                head.remove_prefix(nl == std::string_view::npos ? head.size() : nl + 1);
            }
            c.line(joined, lineNo);
            continue;
        }
        if (text.size() > 1 << 16) text = text.substr(0, 1 << 16);
        c.line(text, lineNo);
    }
    return c.finish();
}

void mergeFacts(RunFacts& into, const RunFacts& from) {
    if (!into.model) into.model = from.model;
    if (!into.batch) into.batch = from.batch;
    if (!into.precision) into.precision = from.precision;
    if (from.gpus) into.gpus = from.gpus;
    if (!into.formatGpus) into.formatGpus = from.formatGpus;
    if (!into.nodes) into.nodes = from.nodes;
}

} // namespace sv
