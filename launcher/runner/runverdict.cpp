#include "launcher/runner/runverdict.h"

#include "launcher/ssh/sshdiagnosis.h"

#include <regex>

namespace sv::launcher {
namespace {

bool failed(const LaunchExit& e) {
    return !e.startError.empty() || !e.exitCode || *e.exitCode != 0;
}

// The host a failed mpirun/horovodrun names: Open MPI's first failed rank, else the last host
// ssh or mpirun mention, else the launch host.
std::string failingHostInOutput(const CommandBuilder& builder, const PlannedRun& run,
                                const std::string& tail) {
    // Open MPI names the first rank that failed: "Process name: [[1234,1],3]".
    static const std::regex rankLine(R"(Process name:\s*\[\[\d+,\d+\],(\d+)\])");
    std::string rankHost;
    for (auto it = std::sregex_iterator(tail.begin(), tail.end(), rankLine);
         it != std::sregex_iterator(); ++it)
        rankHost = builder.hostOfRank(run, std::stoi((*it)[1].str()));
    if (!rankHost.empty()) return rankHost;
    std::string named;
    std::size_t namedAt = 0;
    for (int h = 0; h < builder.hostCount(run); ++h) {
        const std::string name = builder.hostName(h);
        const auto at = tail.rfind(name);
        if (at != std::string::npos && (named.empty() || at >= namedAt)) {
            named = name;
            namedAt = at;
        }
    }
    return named.empty() ? builder.hostName(0) : named;
}

} // namespace

std::string lastTellingLine(const std::string& tail) {
    // Open MPI closes with boxes between rules of dashes ("mpirun detected that one or more
    // processes exited...", "Exit code: 2"): what the failing program said comes before them.
    auto isRule = [](const std::string& l) {
        return l.size() >= 10 && l.find_first_not_of('-') == std::string::npos;
    };
    std::string boxed; // the last line inside a box, when nothing outside says more
    bool inBox = false;
    std::size_t e = tail.size();
    while (e > 0) {
        const auto b = tail.rfind('\n', e - 1);
        const std::size_t s = b == std::string::npos ? 0 : b + 1;
        std::string line = tail.substr(s, e - s);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
            line.pop_back();
        if (isRule(line)) {
            inBox = !inBox;
        } else if (!line.empty() && line.find("Speed:") == std::string::npos &&
                   line.find_first_not_of("-=* ") != std::string::npos) {
            if (!inBox) return line;
            if (boxed.empty()) boxed = line.substr(line.find_first_not_of(' '));
        }
        if (b == std::string::npos) break;
        e = b;
    }
    return boxed;
}

RunEnd judgeRun(const CommandBuilder& builder, const PlannedRun& run, const RunOutcome& o) {
    RunEnd end;
    end.timeThroughput = o.result.timeThroughput;
    end.speedThroughput = o.result.speedThroughput;
    // The launch that failed: the first to, else any that did.
    int f = o.firstFailure;
    for (std::size_t i = 0; f < 0 && i < o.exits.size(); ++i)
        if (failed(o.exits[i])) f = static_cast<int>(i);
    const bool perNode = o.launches.size() > 1;
    auto hostOf = [&](int launch) {
        return perNode ? builder.hostName(o.launches.at(static_cast<std::size_t>(launch)).host)
                       : failingHostInOutput(builder, run, o.tail);
    };
    if (f >= 0)
        end.exitCode = o.exits.at(static_cast<std::size_t>(f)).exitCode;
    else if (!o.exits.empty())
        end.exitCode = o.exits.front().exitCode;

    if (o.forced) {
        end.state = *o.forced;
        end.reason = o.forcedReason;
        if (end.state == RunState::Timeout) end.host = builder.hostName(0);
        return end;
    }
    if (f >= 0) {
        const LaunchExit& e = o.exits.at(static_cast<std::size_t>(f));
        end.state = RunState::Failed;
        if (!e.startError.empty()) {
            end.host = builder.hostName(o.launches.at(static_cast<std::size_t>(f)).host);
            end.reason = "could not start: " + e.startError;
            return end;
        }
        end.host = hostOf(f);
        if (!o.failureReason.empty()) {
            end.reason = o.failureReason;
            return end;
        }
        if (!e.exitCode) {
            end.reason = "the launcher on " + end.host + " was killed by a signal";
            return end;
        }
        const std::string last = lastTellingLine(o.tail);
        end.reason = "exit code " + std::to_string(*e.exitCode) + " (host " + end.host + ")" +
                     (last.empty() ? "" : ": " + last);
        // ssh could not get onto the host for a reason only a person can fix: say how.
        for (const Host& h : builder.campaign().hosts)
            if (h.name == end.host)
                end.advice = diagnoseSsh(o.tail, h, builder.campaign().sshConfig).advice;
        return end;
    }
    if (o.result.usable()) {
        end.state = RunState::Ok;
    } else {
        end.state = RunState::Incomplete;
        end.reason = "exit code 0 but no usable throughput: " + o.result.reason;
    }
    return end;
}

} // namespace sv::launcher
