#pragma once
// How a run ended, in the journal's words: from how its processes exited, what the parser made
// of its output, the state a timeout or cancel forced, and the output's last bytes (where the
// reason a run failed usually is). Pure: no process, no file.

#include "launcher/campaign/journal.h"
#include "launcher/campaign/plannedrun.h"
#include "launcher/exec/commandbuilder.h"
#include "launcher/exec/launchgroup.h"

#include "core/measure/runanalyzer.h"

#include <optional>
#include <string>
#include <vector>

namespace sv::launcher {

struct RunOutcome {
    std::optional<RunState> forced; // timeout or cancel: the state whatever the exit
    std::string forcedReason;
    std::vector<Launch> launches;  // as started
    std::vector<LaunchExit> exits; // per launch
    int firstFailure = -1;         // the launch that failed first, when one did
    std::string failureReason;     // what that launch said when it failed, when it said it
    std::string tail;              // the output's last bytes
    RunResult result;              // what the parser and analyzer made of the output
};

RunEnd judgeRun(const CommandBuilder& builder, const PlannedRun& run, const RunOutcome& outcome);

// The last line of the output that says something: not empty, not a speed line, not a rule.
std::string lastTellingLine(const std::string& tail);

} // namespace sv::launcher
