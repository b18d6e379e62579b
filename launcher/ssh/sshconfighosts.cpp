#include "launcher/ssh/sshconfighosts.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace sv::launcher {
namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

// "Key value", "Key=value" and "Key = value" are all ssh_config syntax.
bool splitLine(const std::string& line, std::string& key, std::string& value) {
    std::size_t i = line.find_first_not_of(" \t");
    if (i == std::string::npos || line[i] == '#') return false;
    std::size_t end = line.find_first_of(" \t=", i);
    if (end == std::string::npos) return false;
    key = lower(line.substr(i, end - i));
    std::size_t v = line.find_first_not_of(" \t=", end);
    if (v == std::string::npos) return false;
    value = line.substr(v);
    while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back())))
        value.pop_back();
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
        value = value.substr(1, value.size() - 2);
    return true;
}

} // namespace

std::vector<Host> hostsFromSshConfig(const std::string& text, int gpus) {
    std::vector<Host> hosts;
    std::vector<std::size_t> current; // the hosts the lines below apply to
    std::istringstream in(text);
    std::string line, key, value;
    while (std::getline(in, line)) {
        if (!splitLine(line, key, value)) continue;
        if (key == "host" || key == "match") {
            current.clear();
            if (key == "match") continue;
            std::istringstream names(value);
            std::string name;
            while (names >> name) {
                if (name.find_first_of("*?!") != std::string::npos) continue;
                const bool known = std::any_of(hosts.begin(), hosts.end(),
                                               [&](const auto& h) { return h.name == name; });
                if (known) continue;
                Host h;
                h.name = name;
                h.gpus = gpus;
                current.push_back(hosts.size());
                hosts.push_back(h);
            }
        } else {
            // ssh takes the first value it meets for a key; so do we.
            for (std::size_t i : current) {
                Host& h = hosts[i];
                if (key == "hostname" && h.address.empty())
                    h.address = value;
                else if (key == "user" && h.user.empty())
                    h.user = value;
                else if (key == "port" && h.port == 0)
                    h.port = std::atoi(value.c_str());
            }
        }
    }
    return hosts;
}

} // namespace sv::launcher
