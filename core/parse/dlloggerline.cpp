#include "core/parse/dlloggerline.h"

#include "core/parse/lineformat.h"

#include <charconv>

namespace sv {

void readDllTime(std::string_view text, SpeedSample& sample) {
    const auto dll = text.find("DLL ");
    std::size_t from = dll == std::string_view::npos ? 0 : dll + 4;
    for (std::size_t i = from; i + 19 <= text.size(); ++i) {
        if (text[i] < '0' || text[i] > '9' || (i > 0 && text[i - 1] >= '0' && text[i - 1] <= '9'))
            continue;
        if (auto t = parseLogTimestamp(text.substr(i), nullptr, '.')) {
            sample.hasTime = true;
            sample.timeUs = *t;
            return;
        }
    }
}

namespace {

// DLPerf's "<label>(.*)<tail>" with int(): the text between must be an integer (Python's int()
// allows surrounding blanks). False when the line does not have that shape: DLPerf stops there.
bool readIteration(std::string_view text, std::string_view label, std::string_view tail,
                   std::int64_t& out) {
    const auto at = text.find(label);
    if (at == std::string_view::npos) return false;
    const auto start = at + label.size();
    const auto end = text.rfind(tail); // greedy (.*): the last occurrence
    if (end == std::string_view::npos || end < start) return false;
    std::string_view digits = text.substr(start, end - start);
    while (!digits.empty() && (digits.front() == ' ' || digits.front() == '\t'))
        digits.remove_prefix(1);
    while (!digits.empty() && (digits.back() == ' ' || digits.back() == '\t'))
        digits.remove_suffix(1);
    if (digits.empty() || digits.size() > 15) return false;
    if (digits.front() == '+') digits.remove_prefix(1);
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), out);
    return ec == std::errc() && p == digits.data() + digits.size();
}

void readMetric(std::string_view text, std::string_view key, SpeedSample& sample) {
    const auto at = text.find(key);
    if (at == std::string_view::npos) return;
    const char* first = text.data() + at + key.size();
    const char* last = text.data() + text.size();
    double v = 0.0;
    auto [p, ec] = std::from_chars(first, last, v);
    if (ec == std::errc()) {
        sample.hasSpeed = true;
        sample.speed = v;
    }
}

void fill(std::string_view text, std::string_view label, std::string_view tail,
          SpeedSample& sample) {
    readDllTime(text, sample);
    std::int64_t iteration = 0;
    if (readIteration(text, label, tail, iteration)) {
        sample.hasIteration = true;
        sample.batchFirst = sample.batchLast = iteration;
    }
}

} // namespace

void parseDllPytorchRn50(std::string_view text, std::size_t, SpeedSample& sample) {
    fill(text, "Iteration: ", "  train.loss :", sample);
    readMetric(text, "train.total_ips : ", sample);
}

void parseDllPytorchBert(std::string_view text, std::size_t, SpeedSample& sample) {
    fill(text, "Training Iteration: ", "  average_loss", sample);
}

void parseDllTfRn50(std::string_view text, std::size_t, SpeedSample& sample) {
    readDllTime(text, sample);
    // The step: "(0, 21)" after the " - ".
    if (const auto open = text.find(" - ("); open != std::string_view::npos) {
        const auto comma = text.find(", ", open);
        const auto close = text.find(')', open);
        std::int64_t step = 0;
        if (comma != std::string_view::npos && close != std::string_view::npos && comma < close) {
            const char* first = text.data() + comma + 2;
            const char* last = text.data() + close;
            auto [p, ec] = std::from_chars(first, last, step);
            if (ec == std::errc() && p == last) {
                sample.hasIteration = true;
                sample.batchFirst = sample.batchLast = step;
            }
        }
    }
    // DLPerf's r' imgs_per_sec \: \d+.\d+ ': digits, any one character, digits, a space.
    constexpr std::string_view key = " imgs_per_sec : ";
    const auto at = text.find(key);
    if (at == std::string_view::npos) return;
    std::size_t i = at + key.size();
    const std::size_t intStart = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9')
        ++i;
    if (i == intStart || i >= text.size()) return;
    const std::size_t fracStart = ++i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9')
        ++i;
    if (i == fracStart || i >= text.size() || text[i] != ' ') return;
    if (text[fracStart - 1] != '.') return; // "12x34" matches the regex, float() rejects it
    double v = 0.0;
    auto [p, ec] = std::from_chars(text.data() + intStart, text.data() + i, v);
    if (ec == std::errc() && p == text.data() + i) {
        sample.hasSpeed = true;
        sample.speed = v;
    }
}

bool isDllTfRn50Line(std::string_view line) {
    return line.find("DLL ") != std::string_view::npos &&
           line.find(" imgs_per_sec : ") != std::string_view::npos;
}

bool isDllPytorchRn50Line(std::string_view line) {
    return line.find("DLL ") != std::string_view::npos &&
           line.find(" Iteration: ") != std::string_view::npos &&
           line.find("train.loss :") != std::string_view::npos &&
           line.find("Training Iteration: ") == std::string_view::npos;
}

bool isDllPytorchBertLine(std::string_view line) {
    return line.find("DLL ") != std::string_view::npos &&
           line.find("Training Epoch: ") != std::string_view::npos &&
           line.find("Training Iteration: ") != std::string_view::npos;
}

} // namespace sv
