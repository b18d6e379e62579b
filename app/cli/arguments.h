#pragma once
// The command line of one subcommand: "--name value", "--name=value", flags and positionals,
// with the usage errors (exit code 2) said in plain words.

#include <charconv>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace sv::cli {

class Arguments {
  public:
    // valued: options that take a value; flags: options that do not.
    Arguments(std::vector<std::string> args, std::set<std::string> valued,
              std::set<std::string> flags) {
        for (std::size_t i = 0; i < args.size(); ++i) {
            const std::string& a = args[i];
            if (a == "--") {
                for (++i; i < args.size(); ++i)
                    m_positional.push_back(args[i]);
                break;
            }
            if (a.rfind("--", 0) != 0 || a.size() == 2) {
                m_positional.push_back(a);
                continue;
            }
            const auto eq = a.find('=');
            const std::string name =
                a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
            if (flags.count(name)) {
                if (eq != std::string::npos) fail("--" + name + " takes no value");
                m_flags.insert(name);
            } else if (valued.count(name)) {
                if (eq != std::string::npos)
                    m_values[name] = a.substr(eq + 1);
                else if (i + 1 < args.size())
                    m_values[name] = args[++i];
                else
                    fail("--" + name + " needs a value");
                if (m_values.count(name)) m_all[name].push_back(m_values[name]);
            } else {
                fail("unknown option " + a.substr(0, eq));
            }
        }
    }

    const std::optional<std::string>& error() const { return m_error; }
    const std::vector<std::string>& positional() const { return m_positional; }
    bool flag(const std::string& name) const { return m_flags.count(name) > 0; }
    std::optional<std::string> value(const std::string& name) const {
        auto it = m_values.find(name);
        return it == m_values.end() ? std::nullopt : std::optional(it->second);
    }
    // Every value of a repeatable option, in order.
    std::vector<std::string> values(const std::string& name) const {
        auto it = m_all.find(name);
        return it == m_all.end() ? std::vector<std::string>{} : it->second;
    }
    // An integer option; on a malformed value, records the error and gives nullopt.
    std::optional<int> integer(const std::string& name, int min, int max) {
        auto v = value(name);
        if (!v) return std::nullopt;
        int out = 0;
        auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
        if (ec != std::errc() || p != v->data() + v->size() || out < min || out > max) {
            fail("--" + name + " must be a whole number from " + std::to_string(min) + " to " +
                 std::to_string(max) + ", not '" + *v + "'");
            return std::nullopt;
        }
        return out;
    }
    void fail(std::string message) {
        if (!m_error) m_error = std::move(message);
    }

  private:
    std::vector<std::string> m_positional;
    std::set<std::string> m_flags;
    std::map<std::string, std::string> m_values;
    std::map<std::string, std::vector<std::string>> m_all;
    std::optional<std::string> m_error;
};

} // namespace sv::cli
