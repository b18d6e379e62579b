#pragma once
// What a check before a campaign found on one host, and the line that heads them all: the words
// every back end's preflight (SSH, Slurm, containers, busy hosts) answers in.

#include <functional>
#include <string>
#include <vector>

namespace sv::launcher {

struct PreflightFinding {
    std::string host;
    std::string check; // "ssh", "container", "gpus", "torch", "launcher", "output",
                       // "busy"
    bool ok = false;
    std::string message;
    bool warning = false; // ok, but worth knowing before the campaign starts (a busy host)
};

// The one line that heads the findings, carrying the worst of them: a failure first, then a
// warning (a busy host), and "all N checks passed" only when nothing below says otherwise.
struct PreflightHeadline {
    std::string text;
    int failures = 0;
    int warnings = 0;
};
PreflightHeadline preflightHeadline(const std::vector<PreflightFinding>& findings);

// How a preflight answers: its findings, from the event loop.
using PreflightDone = std::function<void(std::vector<PreflightFinding>)>;

} // namespace sv::launcher
