#include "core/formats/oneflow.h"

#include "core/measure/oneflowanalyzer.h"

#include <charconv>
#include <cmath>

namespace sv {
namespace {

// line.split(' ')[i], or false when there are not that many fields.
bool field(std::string_view text, int index, std::string_view& out) {
    std::size_t start = 0;
    for (int i = 0; i < index; ++i) {
        const auto sp = text.find(' ', start);
        if (sp == std::string_view::npos) return false;
        start = sp + 1;
    }
    const auto sp = text.find(' ', start);
    out = text.substr(start, sp == std::string_view::npos ? std::string_view::npos : sp - start);
    return true;
}

std::string_view strip(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

// Python's int() on a short decimal: optional sign, digits, surrounding blanks.
bool pythonInt(std::string_view s, std::int64_t& out) {
    s = strip(s);
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    if (s.empty() || s.size() > 15) return false;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size();
}

// Python's float() on the last field: the timestamp, in speed (hasSpeed false: float() raises).
void readStamp(std::string_view text, SpeedSample& sample) {
    const auto sp = text.rfind(' ');
    std::string_view last = strip(sp == std::string_view::npos ? text : text.substr(sp + 1));
    if (!last.empty() && last.front() == '+') last.remove_prefix(1);
    double v = 0.0;
    auto [p, ec] = std::from_chars(last.data(), last.data() + last.size(), v);
    if (!last.empty() && ec == std::errc() && p == last.data() + last.size()) {
        sample.hasSpeed = true;
        sample.speed = v;
    }
}

// A header line ("num_nodes = 2"): epoch says which key, batchFirst holds int(ss[2]) when
// hasIteration; hasSpeed says ss[2] exists (else DLPerf's script raises IndexError there).
bool readHeader(std::string_view text, SpeedSample& sample) {
    std::string_view key;
    field(text, 0, key);
    int code = 0;
    if (key == "num_nodes")
        code = kOneflowNodes;
    else if (key == "gpu_num_per_node")
        code = kOneflowGpus;
    else if (key == "batch_size_per_device")
        code = kOneflowBatch;
    else if (key != "model")
        return false;
    sample.batchLast = kOneflowHeader;
    sample.epoch = code; // 0 for "model", which only the CNN script reads, and never uses
    std::string_view value;
    if (!field(text, 2, value)) return true;
    sample.hasSpeed = true;
    std::int64_t v = 0;
    if (code != 0 && pythonInt(value, v)) {
        sample.hasIteration = true;
        sample.batchFirst = v;
    }
    return true;
}

// A data line: the iteration int(ss[index][:-1]) (hasIteration), the timestamp float(ss[-1]).
void readData(std::string_view text, int index, SpeedSample& sample) {
    sample.batchLast = kOneflowData;
    std::string_view it;
    std::int64_t v = 0;
    if (field(text, index, it) && !it.empty() && pythonInt(it.substr(0, it.size() - 1), v)) {
        sample.hasIteration = true;
        sample.batchFirst = v;
    }
    readStamp(text, sample);
}

void parseCnnLine(std::string_view text, std::size_t, SpeedSample& sample) {
    if (readHeader(text, sample)) return;
    if (text.substr(0, 7) == "train: ") readData(text, 4, sample);
}

void parseBertLine(std::string_view text, std::size_t, SpeedSample& sample) {
    if (text.substr(0, 6) == "model ") return; // no key of the BERT script
    if (readHeader(text, sample)) return;
    if (text.substr(0, 6) == "step: ") readData(text, 1, sample);
}

bool isOneflowCnnLine(std::string_view line) {
    return line.substr(0, 13) == "train: epoch " &&
           line.find(", iter ") != std::string_view::npos &&
           line.find(" samples/s: ") != std::string_view::npos;
}

bool isOneflowBertLine(std::string_view line) {
    return line.substr(0, 6) == "step: " && line.find(", total_loss: ") != std::string_view::npos &&
           line.find(" throughput: ") != std::string_view::npos;
}

std::unique_ptr<FormatAnalyzer> makeOneflowAnalyzer(const LogFormat& format, Topology topology,
                                                    int batch, MeasureOptions options) {
    return std::make_unique<OneflowAnalyzer>(format, topology, batch, options);
}

} // namespace

LogFormat oneflowCnnFormat() {
    return {.id = "oneflow-cnn",
            .framework = "OneFlow",
            .speedScript = "",
            .timeScript = "OneFlow/Classification/ConvNets/resnet50v1.5/extract_cnn_result.py",
            .unit = "images/s",
            .defaultWarmup = 20,
            .defaultIterations = 120,
            .family = FormatFamily::Own,
            .message = MessageFormat{"oneflow-cnn", " ", &parseCnnLine},
            .detect = &isOneflowCnnLine,
            .makeAnalyzer = &makeOneflowAnalyzer,
            .dlperfOutput = DlperfOutput::MarkdownTables,
            .speedIsThroughput = false};
}

LogFormat oneflowBertFormat() {
    return {.id = "oneflow-bert",
            .framework = "OneFlow",
            .speedScript = "",
            .timeScript = "OneFlow/LanguageModeling/BERT/extract_bert_result.py",
            .unit = "sequences/s",
            .defaultWarmup = 19,
            .defaultIterations = 119,
            .family = FormatFamily::Own,
            .message = MessageFormat{"oneflow-bert", " ", &parseBertLine},
            .detect = &isOneflowBertLine,
            .makeAnalyzer = &makeOneflowAnalyzer,
            .dlperfOutput = DlperfOutput::MarkdownTables,
            .speedIsThroughput = false};
}

} // namespace sv
