#include "launcher/slurm/slurmstatus.h"

#include <algorithm>
#include <regex>
#include <sstream>
#include <vector>

namespace sv::launcher {
namespace {

std::string firstLine(const std::string& s) {
    std::istringstream in(s);
    std::string line;
    while (std::getline(in, line))
        if (!line.empty()) return line;
    return {};
}

bool allDigits(const std::string& s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

// "3:0" -> exit 3, signal 0.
void readExitCode(const std::string& text, SlurmJobEnd& end) {
    const auto colon = text.find(':');
    const std::string code = text.substr(0, colon);
    const std::string sig = colon == std::string::npos ? "" : text.substr(colon + 1);
    if (allDigits(code) && code.size() < 6) end.exitCode = std::stoi(code);
    if (allDigits(sig) && sig.size() < 6) end.signal = std::stoi(sig);
}

} // namespace

std::vector<std::string> splitSlurmFields(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string part;
    std::istringstream in(s);
    while (std::getline(in, part, sep))
        out.push_back(part);
    if (!s.empty() && s.back() == sep) out.emplace_back();
    return out;
}

std::optional<std::string> parseSbatchJobId(const std::string& output) {
    const std::string line = firstLine(output);
    const std::string id = line.substr(0, line.find(';'));
    if (!allDigits(id) || id.size() > 18) return std::nullopt;
    return id;
}

std::optional<SlurmQueueState> parseSqueueLine(const std::string& output) {
    const auto f = splitSlurmFields(firstLine(output), '|');
    if (f.size() < 4 || f[0].empty()) return std::nullopt;
    SlurmQueueState s{f[0], f[1], f[2], f[3]};
    if (s.reason == "None" || s.reason == "(null)") s.reason.clear();
    if (s.start == "N/A" || s.start == "Unknown") s.start.clear();
    return s;
}

std::optional<SlurmJobEnd> parseSacct(const std::string& output) {
    const auto f = splitSlurmFields(firstLine(output), '|');
    if (f.size() < 2 || f[0].empty()) return std::nullopt;
    SlurmJobEnd end;
    end.state = f[0].substr(0, f[0].find(' ')); // "CANCELLED by 0"
    readExitCode(f[1], end);
    if (f.size() > 2) end.nodes = f[2];
    if (f.size() > 3) end.timeLimit = f[3];
    return end;
}

std::optional<SlurmJobEnd> parseScontrolJob(const std::string& output) {
    SlurmJobEnd end;
    std::istringstream in(output);
    for (std::string word; in >> word;) {
        const auto eq = word.find('=');
        if (eq == std::string::npos) continue;
        const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
        if (key == "JobState")
            end.state = value;
        else if (key == "ExitCode")
            readExitCode(value, end);
        else if (key == "NodeList" && value != "(null)")
            end.nodes = value;
        else if (key == "Reason" && value != "None")
            end.reason = value;
        else if (key == "TimeLimit")
            end.timeLimit = value;
    }
    if (end.state.empty()) return std::nullopt;
    return end;
}

void readDownNodes(const std::string& sinfo, SlurmJobEnd& end) {
    std::istringstream in(sinfo);
    std::vector<std::string> nodes, whys;
    for (std::string line; std::getline(in, line);) {
        const auto f = splitSlurmFields(line, '|');
        if (f.size() < 2 || f[0].empty()) continue;
        if (std::find(nodes.begin(), nodes.end(), f[0]) == nodes.end()) nodes.push_back(f[0]);
        if (!f[1].empty() && std::find(whys.begin(), whys.end(), f[1]) == whys.end())
            whys.push_back(f[1]);
    }
    auto join = [](const std::vector<std::string>& v, const char* sep) {
        std::string s;
        for (const auto& x : v)
            s += (s.empty() ? "" : sep) + x;
        return s;
    };
    end.failedNodes = join(nodes, ",");
    end.failedWhy = join(whys, "; ");
}

std::optional<SrunTaskFailure> firstFailedTask(const std::string& output) {
    static const std::regex line(
        R"(srun: error: ([A-Za-z0-9_.\-\[\],]+): tasks? ([0-9,\-]+): Exited with exit code (\d{1,5}))");
    std::smatch m;
    if (!std::regex_search(output, m, line)) return std::nullopt;
    return SrunTaskFailure{m[1].str(), m[2].str(), std::stoi(m[3].str()), m[0].str()};
}

std::optional<RunEnd> runEndOfJob(const std::string& jobId, const SlurmJobEnd& j) {
    if (j.state == "COMPLETED") return std::nullopt;
    RunEnd end;
    end.exitCode = j.exitCode;
    end.host = j.nodes;
    const std::string job = "Slurm job " + jobId;
    const std::string on = j.nodes.empty() ? "" : " on " + j.nodes;
    const std::string why = j.reason.empty() ? "" : " (" + j.reason + ")";
    if (j.state == "FAILED") {
        end.state = RunState::Failed;
        end.reason = job + " failed with exit code " + std::to_string(j.exitCode) +
                     (j.signal ? " (signal " + std::to_string(j.signal) + ")" : "") + on + why;
    } else if (j.state == "CANCELLED") {
        end.state = RunState::Cancelled;
        end.reason = job + " was cancelled" + why;
    } else if (j.state == "TIMEOUT" || j.state == "DEADLINE") {
        end.state = RunState::Timeout;
        const bool limit = j.state == "TIMEOUT";
        end.reason = job + " reached its " + (limit ? "time limit" : "deadline") +
                     (limit && !j.timeLimit.empty() ? " of " + j.timeLimit : "") + on;
    } else if (j.state == "NODE_FAIL") {
        end.state = RunState::Failed;
        if (!j.failedNodes.empty()) {
            // The node that failed, not the whole allocation, is the run's host.
            const bool one = j.failedNodes.find(',') == std::string::npos;
            end.host = j.failedNodes;
            end.reason = job + ": " + (one ? "node " : "nodes ") + j.failedNodes + " failed" +
                         (j.failedWhy.empty() ? "" : " (" + j.failedWhy + ")") +
                         (j.nodes.empty() ? "" : "; the job ran on " + j.nodes);
        } else {
            end.reason = job + ": a node failed" + on + why;
        }
    } else if (j.state == "OUT_OF_MEMORY") {
        end.state = RunState::Failed;
        end.reason = job + " ran out of memory" + on;
    } else if (j.state == "PREEMPTED") {
        // Not the run's fault: it runs again on resume.
        end.state = RunState::Interrupted;
        end.reason = job + " was preempted by a job of higher priority" + on;
    } else if (j.state == "UNKNOWN") {
        // Gone from the controller and from accounting: nothing says how it ended.
        end.state = RunState::Interrupted;
        end.reason = job + " is known neither to squeue nor to sacct or scontrol any more" + why;
    } else if (j.state == "BOOT_FAIL") {
        end.state = RunState::Failed;
        end.reason = job + ": its nodes failed to boot" + on;
    } else {
        end.state = RunState::Failed;
        end.reason = job + " ended " + j.state + on + why;
    }
    return end;
}

} // namespace sv::launcher
