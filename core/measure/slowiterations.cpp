#include "core/measure/slowiterations.h"

#include "core/model/numerics.h"

#include <algorithm>
#include <cmath>

namespace sv {

std::vector<int> slowIterations(const std::vector<double>& perIteration,
                                const MeasureOptions& window, double pct) {
    const auto begin = static_cast<std::size_t>(std::max(0, window.warmup));
    const auto end = std::min(perIteration.size(), static_cast<std::size_t>(window.iterations));
    std::vector<double> values;
    for (std::size_t k = begin; k < end; ++k)
        if (std::isfinite(perIteration[k])) values.push_back(perIteration[k]);
    if (values.size() < 3) return {};
    const double floor = numpyMedian(values) * (1.0 - pct / 100.0);
    std::vector<int> out;
    for (std::size_t k = begin; k < end; ++k)
        if (std::isfinite(perIteration[k]) && perIteration[k] < floor)
            out.push_back(static_cast<int>(k));
    return out;
}

} // namespace sv
