#include "journal.h"

#include <QDateTime>
#include <cerrno>
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
    const bool ok =
        ::write(fd, record.data(), record.size()) == static_cast<ssize_t>(record.size()) &&
        ::fsync(fd) == 0;
    if (!ok && error) *error = "cannot write journal " + m_path + ": " + std::strerror(errno);
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
    return append(j.dump(-1, ' ', false, json::error_handler_t::replace), error);
}

std::map<std::string, JournalEntry> Journal::read() const {
    std::map<std::string, JournalEntry> out;
    std::ifstream in(m_path, std::ios::binary);
    std::string line;
    while (std::getline(in, line)) {
        json j = json::parse(line, nullptr, false);
        if (j.is_discarded() || !j.is_object() || !j.contains("id")) continue;
        JournalEntry& e = out[j["id"].get<std::string>()];
        e.id = j["id"].get<std::string>();
        const std::string event = j.value("event", "");
        if (event == "start") {
            ++e.starts;
            e.tag = j.value("tag", "");
            e.end.reset();
        } else if (event == "end") {
            RunEnd end;
            end.state = parseRunState(j.value("state", "")).value_or(RunState::Failed);
            if (j.contains("exitCode") && j["exitCode"].is_number_integer())
                end.exitCode = j["exitCode"].get<int>();
            end.host = j.value("host", "");
            end.reason = j.value("reason", "");
            end.advice = j.value("advice", "");
            if (j.contains("timeThroughput") && j["timeThroughput"].is_number())
                end.timeThroughput = j["timeThroughput"].get<double>();
            if (j.contains("speedThroughput") && j["speedThroughput"].is_number())
                end.speedThroughput = j["speedThroughput"].get<double>();
            e.end = end;
        }
    }
    return out;
}

} // namespace sv::launcher
