#pragma once
// The words an analyzer closes a run with: a log cut at its last line, a window line without a
// clock or with one that stands still, a DLPerf script that stops with an error, the lines of
// other ranks. Every analyzer says them alike, so a user (and a test) meets one wording.

#include "core/model/runresult.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sv {

// What an incomplete run's reason ends with when its file ends in a cut line: the log may still
// be being written.
inline constexpr std::string_view kUnterminatedTail =
    ", and an unterminated last line (still being written?)";

// Why a run is not complete: its status and the reason, naming lines and counts.
struct Shortfall {
    RunStatus status = RunStatus::Incomplete;
    std::string reason;
};

// Sets the run's status and reason; an incomplete run's reason says its unterminated last line.
void settleRun(RunResult& out, RunStatus status, std::string reason, bool unterminatedTail);
inline void settleRun(RunResult& out, Shortfall shortfall, bool unterminatedTail) {
    settleRun(out, shortfall.status, std::move(shortfall.reason), unterminatedTail);
}

// Both methods are this one figure: the format has one DLPerf script, or its lines one number.
void completeWithOneFigure(RunResult& out, double figure);

// "no step lines (\"MARKER\") among N lines": a log without one line of the format.
std::string noLinesAmong(std::string_view what, std::string_view shown, std::int64_t lines);

// A line that starts or ends the measured window, with its clock.
struct ClockedLine {
    std::int64_t line = 0;
    bool hasTime = false;
    std::int64_t timeUs = 0;
};
// "no timestamp at line N".
std::string noTimestampAt(std::int64_t line);
// "time does not advance from line A to line B".
std::string timeStandsStill(std::int64_t from, std::int64_t to);
// Why the window's two lines cannot time it (a missing clock, a clock that does not advance);
// nullopt when they can.
std::optional<std::string> clockProblem(const ClockedLine& start, const ClockedLine& end);

// A DLPerf script's file name, from its path in the DLPerf tree.
std::string scriptName(std::string_view path);
// Where a DLPerf script stops reading a log: "at line N (why)".
std::string scriptStopAt(std::int64_t line, std::string_view why);
// "DLPerf's SCRIPT stops with an error WHERE" (scriptStopAt's, or its assert's "(...)").
std::string dlperfStops(std::string_view script, std::string_view where);

// Why a run whose lines give steps and their times (or seconds per step) has no throughput: the
// figure is the global batch over the time, and the batch per device or the GPU count is unknown
// (?). nullopt when both are known. `lines` says what the lines give: "seconds per step".
std::optional<Shortfall> unknownBatchOrGpus(std::string_view lines, int batchPerDevice, int ranks);

// "N KIND lines of ranks other than 0 ignored (DLPerf counts them)".
std::string otherRanksIgnored(std::int64_t lines, std::string_view kind);
// "KIND numbers go back at line N (a restarted run appended to the log?)".
std::string numbersGoBackAt(std::string_view kind, std::int64_t line);

} // namespace sv
