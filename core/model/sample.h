#pragma once
// One speedometer line of a training log, as the parser hands it to its consumers.

#include <cstdint>

namespace sv {

struct SpeedSample {
    // Eight-byte fields first and the flags together at the end: 72 bytes, not 96. A sample is
    // made for every line, and GCC cleared the padded layout with a slow `rep stos`.
    std::int64_t line = 0; // 1-based line number in the log
    std::int64_t batchFirst = 0;
    std::int64_t batchLast = 0;
    std::int64_t timeUs = 0;    // wall clock of the logging rank, microseconds since 1970-01-01
    double speed = 0.0;         // samples/s, as printed: float(text), to the bit
    double speedRounded2 = 0.0; // Python's round(float(text), 2), exactly
    // The number DLPerf's own regex reads on the line where it may differ from speed (PyTorch's
    // "Time 12.054" read as 2.054).
    double dlperfValue = 0.0;
    int rank = -1; // from the launcher's tag prefix; -1 when the line is untagged
    int epoch = 0;
    bool hasIteration = false; // formats with one line per iteration: batchFirst is its number
    bool hasTime = false;
    bool hasSpeed = false;       // a number was found; it may still be nan or inf
    bool hasRounded2 = false;    // speedRounded2 was decided from the printed digits
    bool hasDlperfValue = false; // false where DLPerf's regex or float() fails on the line
};

} // namespace sv
