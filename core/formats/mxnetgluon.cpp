#include "core/formats/mxnetgluon.h"
#include "core/model/textscan.h"

#include "core/measure/gluonanalyzer.h"

#include <charconv>

namespace sv {
namespace {

// "[step 150]" or "Batch[20]": the integer that follows label, up to ']'.
void readStep(std::string_view text, std::string_view label, SpeedSample& sample) {
    const auto at = text.find(label);
    if (at == std::string_view::npos) return;
    const char* first = text.data() + at + label.size();
    const char* last = text.data() + text.size();
    std::int64_t step = 0;
    auto [p, ec] = std::from_chars(first, last, step);
    if (ec == std::errc() && p < last && *p == ']' && step >= 0) {
        sample.hasIteration = true;
        sample.batchFirst = sample.batchLast = step;
    }
}

// gluon-cv: the line's rate, in samples/s (DLPerf's r'Speed: (\d+.\d+) samples/sec').
void parseGluoncvLine(std::string_view text, std::size_t, SpeedSample& sample) {
    readStep(text, "Epoch[0] Batch[", sample);
    double v = 0.0;
    if (readDlperfDecimal(text, "Speed: ", " samples/sec", v)) {
        sample.hasSpeed = true;
        sample.speed = v;
    }
}

// gluon-nlp: the rank's step latency in ms (r'latency=(\d+.\d+) ms\/batch'), held in speed: the
// line's one number, which the analyzer turns into a throughput with the batch and the ranks.
void parseGluonnlpLine(std::string_view text, std::size_t, SpeedSample& sample) {
    readStep(text, "[step ", sample);
    double v = 0.0;
    if (readDlperfDecimal(text, "latency=", " ms/batch", v)) {
        sample.hasSpeed = true;
        sample.speed = v;
    }
}

bool isGluoncvLine(std::string_view line) {
    const auto at = line.find("Epoch[0] Batch[");
    return at != std::string_view::npos && line.find("\tSpeed: ", at) != std::string_view::npos &&
           line.find(" samples/sec", at) != std::string_view::npos;
}

bool isGluonnlpLine(std::string_view line) {
    const auto at = line.find("[step ");
    return at != std::string_view::npos && line.find("throughput=", at) != std::string_view::npos &&
           line.find("latency=", at) != std::string_view::npos &&
           line.find(" ms/batch", at) != std::string_view::npos;
}

std::unique_ptr<FormatAnalyzer> makeGluoncv(const LogFormat& format, Topology topology, int batch,
                                            MeasureOptions options) {
    return std::make_unique<GluonAnalyzer>(format, GluonAnalyzer::Kind::RatePerStep, topology,
                                           batch, options);
}

std::unique_ptr<FormatAnalyzer> makeGluonnlp(const LogFormat& format, Topology topology, int batch,
                                             MeasureOptions options) {
    return std::make_unique<GluonAnalyzer>(format, GluonAnalyzer::Kind::LatencyPerRank, topology,
                                           batch, options);
}

} // namespace

bool readDlperfDecimal(std::string_view text, std::string_view prefix, std::string_view suffix,
                       double& value, bool* matched) {
    if (matched) *matched = false;
    for (auto at = text.find(prefix); at != std::string_view::npos;
         at = text.find(prefix, at + 1)) {
        // \d+ . \d+ then suffix: digits, any one character, digits (backtracking lets a run of
        // three or more digits match too, its middle digit taking the '.').
        const std::size_t start = at + prefix.size();
        std::size_t i = start;
        while (i < text.size() && isDigit(text[i]))
            ++i;
        if (i == start || i >= text.size()) continue;
        std::size_t end = std::string_view::npos;
        if (text.substr(i, suffix.size()) == suffix && i - start >= 3) {
            end = i; // all digits
        } else if (text[i] != '\n') {
            std::size_t j = i + 1;
            while (j < text.size() && isDigit(text[j]))
                ++j;
            if (j > i + 1 && text.substr(j, suffix.size()) == suffix) end = j;
        }
        if (end == std::string_view::npos) continue;
        if (matched) *matched = true;
        // float(): digits, or digits '.' digits; "12x34" or "12 34" raise ValueError.
        if (i < end && text[i] != '.') return false;
        auto [p, ec] = std::from_chars(text.data() + start, text.data() + end, value);
        return ec == std::errc() && p == text.data() + end;
    }
    return false;
}

LogFormat mxnetGluoncvRn50Format() {
    return {.id = "mxnet-gluoncv-rn50",
            .framework = "MXNet gluon-cv",
            .speedScript = "MxNet/Classification/RN50v1b/extract_mxnet_logs.py",
            .timeScript = "",
            .unit = "images/s",
            .defaultWarmup = 20,
            .defaultIterations = 120,
            .family = FormatFamily::Own,
            .message = MessageFormat{"gluoncv-speed", "Epoch[0] Batch[", &parseGluoncvLine},
            .detect = &isGluoncvLine,
            .makeAnalyzer = &makeGluoncv};
}

LogFormat mxnetGluonnlpBertFormat() {
    return {.id = "mxnet-gluonnlp-bert",
            .framework = "MXNet gluon-nlp",
            .speedScript = "MxNet/BERT/extract_mxnet_logs.py",
            .timeScript = "",
            .unit = "sequences/s",
            .defaultWarmup = 100,
            .defaultIterations = 200,
            .family = FormatFamily::Own,
            .message = MessageFormat{"gluonnlp-latency", "throughput=", &parseGluonnlpLine},
            .detect = &isGluonnlpLine,
            .makeAnalyzer = &makeGluonnlp,
            .speedIsThroughput = false};
}

} // namespace sv
