#include "launcher/campaign/journal.h"

#include <QDateTime>
#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace sv::launcher {

using nlohmann::json;

namespace {
std::string now() {
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs).toStdString();
}
} // namespace

bool Journal::append(const std::string& line, std::string* error) {
    // O_APPEND + one write per record + fsync: a record is whole on disk before the run starts.
    const int fd = ::open(m_path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        if (error) *error = "cannot open journal " + m_path + ": " + std::strerror(errno);
        return false;
    }
    const std::string record = line + "\n";
    // A short write (the disk filled mid-record) is retried for the rest, which then fails with
    // the reason (ENOSPC, EFBIG) in errno.
    std::size_t done = 0;
    bool ok = true;
    while (ok && done < record.size()) {
        const ssize_t n = ::write(fd, record.data() + done, record.size() - done);
        if (n < 0 && errno == EINTR) continue;
        ok = n > 0;
        if (n == 0) errno = ENOSPC;
        done += ok ? static_cast<std::size_t>(n) : 0;
    }
    const char* step = "write";
    if (ok && ::fsync(fd) != 0) {
        ok = false;
        step = "fsync";
    }
    if (!ok && error)
        *error = std::string("cannot ") + step + " journal " + m_path + ": " + std::strerror(errno);
    ::close(fd);
    return ok;
}

bool Journal::appendStart(const std::string& id, const std::string& tag,
                          const std::vector<std::vector<std::string>>& commands,
                          const std::vector<std::string>& hosts, const std::string& logPath,
                          std::string* error) {
    json j{{"event", "start"}, {"id", id},       {"tag", tag},
           {"time", now()},    {"hosts", hosts}, {"log", logPath}};
    j["command"] = commands.empty() ? json::array() : json(commands.front());
    if (commands.size() > 1) j["commands"] = commands;
    return append(j.dump(-1, ' ', false, json::error_handler_t::replace), error);
}

bool Journal::appendJob(const std::string& id, const std::string& tag, const std::string& jobId,
                        std::string* error) {
    json j{{"event", "job"}, {"id", id}, {"tag", tag}, {"time", now()}, {"jobId", jobId}};
    return append(j.dump(-1, ' ', false, json::error_handler_t::replace), error);
}

bool Journal::appendEnd(const std::string& id, const std::string& tag, const std::string& logPath,
                        const RunEnd& end, std::string* error) {
    json j{{"event", "end"},
           {"id", id},
           {"tag", tag},
           {"time", now()},
           {"state", std::string(runStateName(end.state))},
           {"log", logPath}};
    j["exitCode"] = end.exitCode ? json(*end.exitCode) : json(nullptr);
    if (!end.host.empty()) j["host"] = end.host;
    if (!end.reason.empty()) j["reason"] = end.reason;
    if (!end.advice.empty()) j["advice"] = end.advice;
    j["timeThroughput"] = end.timeThroughput ? json(*end.timeThroughput) : json(nullptr);
    j["speedThroughput"] = end.speedThroughput ? json(*end.speedThroughput) : json(nullptr);
    j["leftover"] = end.leftover;
    if (end.monitor) {
        j["disturbed"] = !end.monitor->evidence.empty();
        j["evidence"] = end.monitor->evidence;
        j["monitor"] = json::parse(end.monitor->summary, nullptr, false);
    } else if (end.disturbed) {
        j["disturbed"] = true;
        j["evidence"] = end.evidence;
    }
    return append(j.dump(-1, ' ', false, json::error_handler_t::replace), error);
}

bool Journal::appendContainer(const std::string& action, const std::string& host,
                              const std::string& name, const std::vector<std::string>& command,
                              std::string* error) {
    json j{
        {"event", "container"}, {"id", name}, {"action", action}, {"time", now()}, {"host", host}};
    if (!command.empty()) j["command"] = command;
    return append(j.dump(-1, ' ', false, json::error_handler_t::replace), error);
}

bool Journal::appendProbes(const std::string& caseId, const std::string& state,
                           const std::string& summary, const std::vector<std::string>& errors,
                           std::string* error) {
    json j{{"event", "probes"}, {"id", caseId},       {"time", now()},
           {"state", state},    {"summary", summary}, {"errors", errors}};
    return append(j.dump(-1, ' ', false, json::error_handler_t::replace), error);
}

bool Journal::appendExclusion(const std::string& node, const std::string& reason,
                              std::string* error) {
    json j{{"event", "exclude"}, {"id", node}, {"time", now()}, {"reason", reason}};
    return append(j.dump(-1, ' ', false, json::error_handler_t::replace), error);
}

bool Journal::appendSlowNodeSearch(const std::string& verdict, const std::string& node,
                                   const std::string& why, int probeRuns, std::string* error) {
    json j{{"event", "slow-node"}, {"id", node.empty() ? std::string("-") : node},
           {"time", now()},        {"verdict", verdict},
           {"why", why},           {"probeRuns", probeRuns}};
    return append(j.dump(-1, ' ', false, json::error_handler_t::replace), error);
}

namespace {

// The string at key, or why not. Absent is fine for optional fields (nullopt, no error).
std::optional<std::string> text(const json& j, const char* key, bool required, std::string* why) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) {
        if (required) *why = std::string("no \"") + key + "\"";
        return std::nullopt;
    }
    if (!it->is_string()) {
        *why = std::string("\"") + key + "\" is " + it->type_name() + ", not a string";
        return std::nullopt;
    }
    return it->get<std::string>();
}

std::optional<double> number(const json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_number() ? std::optional<double>(it->get<double>())
                                            : std::nullopt;
}

// One record, or why it cannot be one.
bool apply(const json& j, std::map<std::string, JournalEntry>& out, std::string* why) {
    if (!j.is_object()) {
        *why = "not a JSON object";
        return false;
    }
    const auto id = text(j, "id", true, why);
    const auto event = text(j, "event", true, why);
    if (!id || !event) return false;
    if (*event == "start") {
        const auto tag = text(j, "tag", false, why);
        if (!why->empty()) return false;
        JournalEntry& e = out[*id];
        e.id = *id;
        ++e.starts;
        e.tag = tag.value_or("");
        e.jobId.clear();
        e.end.reset();
        return true;
    }
    if (*event == "case") return true; // a case's stop record: readCaseStops reads those
    if (*event == "job") {
        const auto jobId = text(j, "jobId", true, why);
        if (!jobId) return false;
        JournalEntry& e = out[*id];
        e.id = *id;
        e.jobId = *jobId;
        return true;
    }
    // Not a run's: a container, a case's probes, a node left out, a slow-node search.
    if (*event == "container" || *event == "probes" || *event == "exclude" || *event == "slow-node")
        return true;
    if (*event != "end") {
        *why = "unknown event '" + *event + "'";
        return false;
    }
    RunEnd end;
    const auto state = text(j, "state", true, why);
    if (!state) return false;
    const auto parsed = parseRunState(*state);
    if (!parsed) {
        *why = "unknown state '" + *state + "'";
        return false;
    }
    end.state = *parsed;
    if (auto it = j.find("exitCode"); it != j.end() && it->is_number_integer()) {
        const auto code = it->get<std::int64_t>();
        if (code >= INT_MIN && code <= INT_MAX) end.exitCode = static_cast<int>(code);
    }
    // Optional words: a wrong type there loses the words, not the record.
    std::string ignored;
    end.host = text(j, "host", false, &ignored).value_or("");
    end.reason = text(j, "reason", false, &ignored).value_or("");
    end.advice = text(j, "advice", false, &ignored).value_or("");
    end.timeThroughput = number(j, "timeThroughput");
    end.speedThroughput = number(j, "speedThroughput");
    if (auto it = j.find("disturbed"); it != j.end() && it->is_boolean())
        end.disturbed = it->get<bool>();
    if (auto it = j.find("evidence"); it != j.end() && !it->is_null()) {
        // The monitor writes a list of sentences; one text, "; " between them.
        if (it->is_string()) {
            end.evidence = it->get<std::string>();
        } else if (it->is_array()) {
            for (const auto& item : *it)
                end.evidence +=
                    (end.evidence.empty() ? "" : "; ") +
                    (item.is_string() ? item.get<std::string>()
                                      : item.dump(-1, ' ', false, json::error_handler_t::replace));
        } else {
            end.evidence = it->dump(-1, ' ', false, json::error_handler_t::replace);
        }
    }
    JournalEntry& e = out[*id];
    e.id = *id;
    e.end = end;
    return true;
}

} // namespace

bool RunEnd::isDisturbed() const {
    return disturbed || (monitor && !monitor->evidence.empty());
}

std::string RunEnd::disturbanceWhy() const {
    if (!isDisturbed()) return {};
    std::string why = evidence;
    if (why.empty() && monitor)
        for (const auto& e : monitor->evidence)
            why += (why.empty() ? "" : "; ") + e;
    return why;
}

int disturbedOkRuns(const std::map<std::string, JournalEntry>& journal) {
    int n = 0;
    for (const auto& [id, entry] : journal)
        n += entry.end && entry.end->state == RunState::Ok && entry.end->isDisturbed();
    return n;
}

bool Journal::appendCaseStop(const CaseStop& stop, std::string* error) {
    json j{{"event", "case"},
           {"id", stop.caseId},
           {"time", now()},
           {"repeats", stop.counted},
           {"reason", stop.reason}};
    j["ci95Pct"] = stop.ciPct ? json(*stop.ciPct) : json(nullptr);
    return append(j.dump(-1, ' ', false, json::error_handler_t::replace), error);
}

std::map<std::string, CaseStop> Journal::readCaseStops() const {
    std::map<std::string, CaseStop> out;
    std::ifstream in(m_path, std::ios::binary);
    std::string line;
    while (std::getline(in, line)) {
        const json j = json::parse(line, nullptr, false);
        if (!j.is_object() || j.value("event", json()) != "case") continue;
        std::string why;
        const auto id = text(j, "id", true, &why);
        if (!id) continue; // read() says so for every malformed line
        CaseStop& s = out[*id];
        s.caseId = *id;
        if (auto it = j.find("repeats"); it != j.end() && it->is_number_integer())
            s.counted =
                static_cast<int>(std::clamp<std::int64_t>(it->get<std::int64_t>(), 0, INT_MAX));
        s.ciPct = number(j, "ci95Pct");
        s.reason = text(j, "reason", false, &why).value_or("");
    }
    return out;
}

std::map<std::string, JournalEntry> Journal::read(std::vector<std::string>* warnings) const {
    std::map<std::string, JournalEntry> out;
    std::ifstream in(m_path, std::ios::binary);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        const bool last = in.peek() == std::char_traits<char>::eof();
        if (line.empty()) continue;
        json j = json::parse(line, nullptr, false);
        std::string why;
        if (j.is_discarded()) {
            // A torn last line is what a crash mid-write leaves: expected, not worth a warning.
            if (last) continue;
            why = "not JSON";
        }
        try {
            if (why.empty() && apply(j, out, &why)) continue;
        } catch (const std::exception& ex) { // defence in depth: a record never throws out
            why = ex.what();
        }
        if (warnings)
            warnings->push_back(m_path + " line " + std::to_string(number) + ": " + why +
                                "; record skipped");
    }
    return out;
}

} // namespace sv::launcher
