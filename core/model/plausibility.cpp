#include "core/model/plausibility.h"

#include <cmath>
#include <cstdio>

namespace sv {

std::string quoteFigure(double figure) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", figure);
    return text;
}

std::optional<std::string> implausibleThroughput(double figure, std::string_view unit) {
    const std::string quoted = quoteFigure(figure) + " " + std::string(unit);
    if (std::isnan(figure)) return "its figure is not a number";
    if (std::isinf(figure)) return quoted + " is not a finite number";
    if (figure <= 0) return quoted + " is not above 0";
    if (figure < kMinThroughput) return quoted + " is below 0.001 a second (one in 17 minutes)";
    if (figure > kMaxThroughput) return quoted + " is above 10^12 a second";
    return std::nullopt;
}

} // namespace sv
