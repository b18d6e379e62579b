#pragma once
// The options several commands read the same way: DLPerf's method, the measured window, the
// reader threads and the comparison threshold, with the same words when a value is wrong.

#include "app/cli/arguments.h"
#include "core/stats/casestats.h"
#include "core/load/runloader.h"

#include <cstdlib>
#include <optional>

namespace sv::cli {

struct MeasureArguments {
    std::optional<int> warmup, iterations; // as given; the caller applies them to its window
};

// --method into *method (left as it is when absent), --warmup, --iterations and, when load is
// given, --threads; a malformed value is a usage error on args.
inline MeasureArguments readMeasureArguments(Arguments& args, Method* method,
                                             LoadOptions* load = nullptr) {
    if (auto m = args.value("method")) {
        if (auto parsed = parseMethod(*m))
            *method = *parsed;
        else
            args.fail("--method must be time or speed, not '" + *m + "'");
    }
    MeasureArguments out;
    out.warmup = args.integer("warmup", 1, kMaxMeasureIterations - 1);
    out.iterations = args.integer("iterations", 2, kMaxMeasureIterations);
    if (load)
        if (auto t = args.integer("threads", 1, 256)) load->threads = *t;
    return out;
}

// --threshold PCT into *pct (left as it is when absent).
inline void readThreshold(Arguments& args, double* pct) {
    auto t = args.value("threshold");
    if (!t) return;
    char* end = nullptr;
    const double v = std::strtod(t->c_str(), &end);
    if (t->empty() || *end != '\0' || !(v >= 0.0 && v < 100.0))
        args.fail("--threshold must be a percentage from 0 to below 100, not '" + *t + "'");
    else
        *pct = v;
}

} // namespace sv::cli
