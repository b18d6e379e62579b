#include "core/measure/closing.h"

namespace sv {

void settleRun(RunResult& out, RunStatus status, std::string reason, bool unterminatedTail) {
    out.status = status;
    out.reason = std::move(reason);
    if (status == RunStatus::Incomplete && unterminatedTail) out.reason += kUnterminatedTail;
}

void completeWithOneFigure(RunResult& out, double figure) {
    out.status = RunStatus::Complete;
    out.timeThroughput = out.speedThroughput = figure;
    out.methodDifferencePct = 0.0;
}

std::string noLinesAmong(std::string_view what, std::string_view shown, std::int64_t lines) {
    return "no " + std::string(what) + " lines (\"" + std::string(shown) + "\") among " +
           std::to_string(lines) + " lines";
}

std::string noTimestampAt(std::int64_t line) {
    return "no timestamp at line " + std::to_string(line);
}

std::string timeStandsStill(std::int64_t from, std::int64_t to) {
    return "time does not advance from line " + std::to_string(from) + " to line " +
           std::to_string(to);
}

std::optional<std::string> clockProblem(const ClockedLine& start, const ClockedLine& end) {
    if (!start.hasTime) return noTimestampAt(start.line);
    if (!end.hasTime) return noTimestampAt(end.line);
    if (end.timeUs <= start.timeUs) return timeStandsStill(start.line, end.line);
    return std::nullopt;
}

std::string scriptName(std::string_view path) {
    return std::string(path.substr(path.rfind('/') + 1));
}

std::string scriptStopAt(std::int64_t line, std::string_view why) {
    return "at line " + std::to_string(line) + " (" + std::string(why) + ")";
}

std::string dlperfStops(std::string_view script, std::string_view where) {
    return "DLPerf's " + std::string(script) + " stops with an error " + std::string(where);
}

std::optional<Shortfall> unknownBatchOrGpus(std::string_view lines, int batchPerDevice, int ranks) {
    if (batchPerDevice > 0 && ranks > 0) return std::nullopt;
    // Everything that is missing is named: a log that states neither (DINO's MetricLogger,
    // modded-nanogpt's step_avg) needs both, or the global batch that stands for them.
    const std::string missing =
        batchPerDevice <= 0 && ranks <= 0
            ? "batch size per device and the GPU count (or the global batch size)"
        : batchPerDevice <= 0 ? "batch size per device (or the global batch size)"
                              : "GPU count (or the global batch size)";
    return Shortfall{RunStatus::Unusable,
                     "its lines give " + std::string(lines) + ", and the throughput needs the " +
                         missing +
                         ", which neither the log, its path nor a scaleview.json says (?)"};
}

std::string otherRanksIgnored(std::int64_t lines, std::string_view kind) {
    return std::to_string(lines) + " " + std::string(kind) +
           " lines from ranks other than 0 not counted (each rank prints the same steps; DLPerf's "
           "script counts them all, so its figure differs)";
}

std::string numbersGoBackAt(std::string_view kind, std::int64_t line) {
    return std::string(kind) + " numbers start again at line " + std::to_string(line) +
           ": probably a restarted run appended to this log (write each run to a file of its "
           "own)";
}

} // namespace sv
