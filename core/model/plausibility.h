#pragma once
// What a figure must be to be a throughput: one rule for every run, whatever its format or
// analyzer (core/load/runmeter.cpp applies it to each run's result, a user format's preview to
// its figure). A figure outside it (1.8e17 images/s from a corrupted line, two 1e308 values whose
// median is inf, 1e-320 that would print as 0.00, a negative rate) comes from a misread or broken
// line, never from a run: the run is excluded with this reason, and never reaches a median.

#include <optional>
#include <string>
#include <string_view>

namespace sv {

// Per second. The floor is one sample in about 17 minutes; the ceiling is some 10^5 times the
// rate of the largest training runs known (a few million tokens a second).
inline constexpr double kMinThroughput = 1e-3;
inline constexpr double kMaxThroughput = 1e12;

// nullopt where figure (in unit, per second) can be a throughput; otherwise why not, in words
// that quote it ("1.8e+17 images/s is above 10^12 a second").
std::optional<std::string> implausibleThroughput(double figure, std::string_view unit);

// A number as messages quote a figure that may be absurd: up to 6 significant digits, never
// rounded to 0 nor printed as a wall of digits ("1.8e+17", "1e-320", "-5", "inf").
std::string quoteFigure(double figure);

} // namespace sv
