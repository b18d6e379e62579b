#pragma once
// What a user's format file says of its values and window, apart from the analyzer that applies
// it, so that the format (core/formats/userformat.h) holds it without the run vocabulary: a
// header Qt's moc reads through the Teach dialog must not reach <compare>, which moc cannot parse.

#include <optional>
#include <string>

namespace sv {

// What a user's format file says of its values and window (core/formats/userformat.h reads and
// checks it): all that the figure needs of the format.
struct UserWindowRule {
    // Rate: the value is the throughput; StepTime: seconds per step (batch x GPUs / time);
    // StepRate: steps per second (tqdm's it/s), times the step's global batch (batch x GPUs).
    enum class Value { Rate, StepTime, StepRate };
    enum class Statistic { Median, Mean };
    std::string id, file, unit, marker; // named in the notes and reasons
    Value value = Value::Rate;
    Statistic statistic = Statistic::Median;
    double dropFirst = 0.1; // the window when no steps are given: the values after this share
    std::optional<int> warmup, iterations; // the window in steps, where the file names one
    std::optional<int> batch; // samples per step and device, for step times and step rates
    bool perGpu = false;      // a rate of one GPU: the run's figure is it times the run's GPUs
};

} // namespace sv
