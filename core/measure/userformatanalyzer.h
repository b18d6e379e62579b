#pragma once
// The figure of a log read with a user's format file (core/formats/userformat.h): the values of
// its lines (rank 0's, or untagged), as rates, over the format's window: the steps after warmup
// up to iterations where the file or the command line names them, else every value after the
// first tenth (drop_first); their median or mean.

#include "core/measure/formatanalyzer.h"
#include "core/measure/userwindowrule.h"
#include "core/model/runresult.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sv {

struct UserWindowValue {
    std::int64_t line = 0;
    std::int64_t step = -1; // -1: the line names no step
    double value = 0;       // the rate, in the format's unit
};

struct UserWindowFigure {
    RunStatus status = RunStatus::Empty;
    std::optional<double> figure;
    std::string rule;    // which values, in words ("median of lines 12-96 (76 values) ...")
    std::string problem; // why there is no figure
    std::int64_t count = 0;
};

// steps: the window in steps (warmup, iterations) where one is asked for; nullopt: the format's.
UserWindowFigure userWindowFigure(const UserWindowRule& rule,
                                  const std::vector<UserWindowValue>& values,
                                  std::optional<std::pair<int, int>> steps);

// The rate of a step-time value: global batch / seconds; nullopt where batch or ranks are unknown.
std::optional<double> userStepRate(double seconds, int batchPerDevice, int ranks);

// The analyzer of a run read with the format whose rule this is (which must outlive it).
std::unique_ptr<FormatAnalyzer> makeUserWindowAnalyzer(const UserWindowRule& rule,
                                                       Topology topology, int batchPerDevice,
                                                       MeasureOptions options);

} // namespace sv
