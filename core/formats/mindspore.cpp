#include "core/formats/mindspore.h"
#include "core/model/textscan.h"

#include "core/measure/mindsporeanalyzer.h"

#include <charconv>

namespace sv {
namespace {

// re.findall(r"(?<=" + label + r"\s)\d+", line)[0]: the digits after the first label followed
// by a blank and a digit.
bool readAfter(std::string_view text, std::string_view label, std::int64_t& out) {
    for (auto at = text.find(label); at != std::string_view::npos; at = text.find(label, at + 1)) {
        std::size_t i = at + label.size();
        if (i + 1 >= text.size() || (text[i] != ' ' && text[i] != '\t') || !isDigit(text[i + 1]))
            continue;
        ++i;
        std::size_t end = i;
        while (end < text.size() && isDigit(text[end]))
            ++end;
        if (end - i > 15) return false; // beyond what an int64 holds exactly: not a step
        auto [p, ec] = std::from_chars(text.data() + i, text.data() + end, out);
        return ec == std::errc();
    }
    return false;
}

// r"(?<=epoch\stime:\s)\d+.\d{3}": digits, any one character, three digits; then float().
bool readEpochTime(std::string_view text, double& ms) {
    for (std::size_t at = text.find("epoch"); at != std::string_view::npos;
         at = text.find("epoch", at + 1)) {
        std::size_t i = at + 5;
        if (i >= text.size() || (text[i] != ' ' && text[i] != '\t')) continue;
        if (text.substr(i + 1, 6) != "time: " && text.substr(i + 1, 6) != "time:\t") continue;
        i += 7;
        std::size_t end = i;
        while (end < text.size() && isDigit(text[end]))
            ++end;
        // Backtracking: the match is the longest "\d+.\d{3}" from i.
        std::size_t matchEnd = std::string_view::npos;
        if (end + 4 <= text.size() && end > i && isDigit(text[end + 1]) && isDigit(text[end + 2]) &&
            isDigit(text[end + 3]))
            matchEnd = end + 4; // d+ <char> ddd
        else if (end - i >= 5)
            matchEnd = end; // a digit run of 5 or more: its tail is ".ddd" with a digit for '.'
        if (matchEnd == std::string_view::npos) continue;
        const std::size_t stop = matchEnd;
        if (stop == end + 4 && text[end] != '.') return false; // float("12x345") raises
        auto [p, ec] = std::from_chars(text.data() + i, text.data() + stop, ms);
        return ec == std::errc() && p == text.data() + stop;
    }
    return false;
}

// The sample of a line holding "epoch": a step line (DLPerf's "epoch:" and "step:"), with its
// epoch and step (hasIteration false when the script's regexes find none: it raises there), or
// an "epoch time:" line with its milliseconds in speed (hasSpeed false: the script raises).
void parseMindsporeLine(std::string_view text, std::size_t, SpeedSample& sample) {
    if (text.find("epoch:") != std::string_view::npos &&
        text.find("step:") != std::string_view::npos) {
        sample.batchLast = kMindsporeStep;
        std::int64_t epoch = 0, step = 0;
        if (readAfter(text, "epoch:", epoch) && readAfter(text, "step:", step) &&
            epoch <= 1'000'000'000) {
            sample.hasIteration = true;
            sample.epoch = static_cast<int>(epoch);
            sample.batchFirst = step;
        }
    } else if (text.find("epoch time:") != std::string_view::npos) {
        sample.batchLast = kMindsporeTime;
        double ms = 0.0;
        if (readEpochTime(text, ms)) {
            sample.hasSpeed = true;
            sample.speed = ms;
        }
    }
}

bool isMindsporeRn50Line(std::string_view line) {
    const auto at = line.find("epoch: ");
    return at != std::string_view::npos && line.find(" step: ", at) != std::string_view::npos &&
           line.find(", loss is ", at) != std::string_view::npos;
}

bool isMindsporeBertLine(std::string_view line) {
    const auto at = line.find("epoch: ");
    return at != std::string_view::npos &&
           line.find("current epoch percent: ", at) != std::string_view::npos &&
           line.find(" step: ", at) != std::string_view::npos &&
           line.find("outputs are", at) != std::string_view::npos;
}

std::unique_ptr<FormatAnalyzer> makeRn50(const LogFormat& format, Topology topology, int batch,
                                         MeasureOptions options) {
    return std::make_unique<MindsporeAnalyzer>(format, false, topology, batch, options);
}

std::unique_ptr<FormatAnalyzer> makeBert(const LogFormat& format, Topology topology, int batch,
                                         MeasureOptions options) {
    return std::make_unique<MindsporeAnalyzer>(format, true, topology, batch, options);
}

} // namespace

LogFormat mindsporeRn50Format() {
    return {.id = "mindspore-rn50",
            .framework = "MindSpore",
            .speedScript = "",
            .timeScript = "MindSpore/resnet50v1.5/extract_mindspore_logs_time.py",
            .unit = "images/s",
            .defaultWarmup = 20,
            .defaultIterations = 120,
            .family = FormatFamily::Own,
            .message = MessageFormat{"mindspore-rn50", "epoch", &parseMindsporeLine},
            .detect = &isMindsporeRn50Line,
            .makeAnalyzer = &makeRn50,
            .speedIsThroughput = false};
}

LogFormat mindsporeBertFormat() {
    return {.id = "mindspore-bert",
            .framework = "MindSpore",
            .speedScript = "",
            .timeScript = "MindSpore/bert/extract_mindspore_logs_time.py",
            .unit = "sequences/s",
            .defaultWarmup = 20,
            .defaultIterations = 120,
            .family = FormatFamily::Own,
            .message = MessageFormat{"mindspore-bert", "epoch", &parseMindsporeLine},
            .detect = &isMindsporeBertLine,
            .makeAnalyzer = &makeBert,
            .speedIsThroughput = false};
}

} // namespace sv
