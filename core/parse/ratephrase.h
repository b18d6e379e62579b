#pragma once
// One line's throughput in words, whatever the framework: a number joined to a throughput unit
// ("N samples/sec", "speed: N [imgs/sec]", "wps=N", "tok/s N", "'seq/s': N", "\"throughput\": N",
// "train_samples_per_second: N", "N it/s", K/M suffixes), or a step time
// ("elapsed time per iteration (ms): N", "step_avg:Nms", "ms/batch N", "step_time: N"). The
// general reader (core/formats/generalreader.h) builds on it; a line's template (its text with
// the numbers masked) is what tells one series of reports from another.

#include <optional>
#include <string>
#include <string_view>

namespace sv {

struct RatePhrase {
    enum class Kind {
        Rate,        // value is a throughput in unit
        StepSeconds, // value is the seconds one step took
        StepRate,    // value is steps per second (tqdm's it/s): throughput = batch x value
    };
    Kind kind = Kind::Rate;
    double value = 0.0;       // K/M applied; ms turned into seconds
    std::string_view token;   // the words as the line writes them ("wps=", "samples/sec")
    std::string_view unit;    // "samples/s", "tokens/s" ... ("" for step times)
    std::size_t tokenPos = 0; // where token starts in the line
    bool unitPrinted = true;  // false for a bare "throughput": N (MLPerf's, NVLOG's)
    bool evaluation = false;  // the line is an evaluation's or validation's, not training's
};

// The first throughput phrase of line (rates before step times); nullopt when none.
std::optional<RatePhrase> findRatePhrase(std::string_view line);

// line with every number masked as '#', blank runs as one blank, ANSI escapes and the ends'
// blanks dropped: the template that the reports of one series share.
std::string maskNumbers(std::string_view line);

// Whether line holds words that make its rate an evaluation's ("eval", "valid", "Translated",
// "inference", "test").
bool isEvaluationLine(std::string_view line);

} // namespace sv
