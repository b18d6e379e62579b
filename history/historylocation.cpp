#include "history/historylocation.h"

#include <cctype>

namespace sv::history {
namespace {

bool startsWith(const std::string& s, const std::string& head) {
    return s.rfind(head, 0) == 0;
}

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// libpq's percent-decoding: %XX only, and never to a NUL byte.
bool decode(const std::string& in, std::string* out, std::string* error) {
    out->clear();
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (in[i] != '%') {
            *out += in[i];
            continue;
        }
        const int hi = i + 2 < in.size() ? hexValue(in[i + 1]) : -1;
        const int lo = i + 2 < in.size() ? hexValue(in[i + 2]) : -1;
        if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
            *error = "invalid percent-encoded token in \"" + in + "\"";
            return false;
        }
        *out += static_cast<char>(hi * 16 + lo);
        i += 2;
    }
    return true;
}

std::vector<std::string> split(const std::string& s, char by) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        const auto at = s.find(by, start);
        out.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
        if (at == std::string::npos) return out;
        start = at + 1;
    }
}

void setParameter(HistoryLocation& l, const std::string& keyword, const std::string& value) {
    for (auto& [k, v] : l.parameters)
        if (k == keyword) {
            v = value;
            return;
        }
    l.parameters.emplace_back(keyword, value);
}

// "scheme:" at the start, scheme as RFC 3986 spells it (a letter, then letters, digits, + - .),
// followed by nothing or a slash: what a mistyped or unsupported URI looks like.
bool looksLikeUri(const std::string& text, std::string* scheme) {
    const auto colon = text.find(':');
    if (colon == std::string::npos || colon == 0) return false;
    if (!std::isalpha(static_cast<unsigned char>(text[0]))) return false;
    for (std::size_t i = 1; i < colon; ++i) {
        const char c = text[i];
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-' && c != '.')
            return false;
    }
    if (colon + 1 != text.size() && text[colon + 1] != '/') return false;
    *scheme = text.substr(0, colon);
    return true;
}

HistoryLocation invalid(const std::string& text, const std::string& why) {
    HistoryLocation l;
    l.text = text;
    l.error = why;
    return l;
}

HistoryLocation parseUri(const std::string& text, std::size_t schemeLength) {
    HistoryLocation l;
    l.kind = HistoryLocation::Kind::PostgreSQL;
    l.text = text;
    std::string error;
    const std::string rest = text.substr(schemeLength);
    const auto authorityEnd = rest.find_first_of("/?");
    std::string authority = rest.substr(0, authorityEnd);
    std::string tail =
        authorityEnd == std::string::npos ? std::string() : rest.substr(authorityEnd);
    auto fail = [&](const std::string& why) {
        return invalid(text, "the history database URI " + text + ": " + why);
    };
    if (const auto at = authority.rfind('@'); at != std::string::npos) {
        const std::string userSpec = authority.substr(0, at);
        authority = authority.substr(at + 1);
        if (userSpec.find(':') != std::string::npos)
            return fail("holds a password; ScaleView never takes one on the command line or in "
                        "its settings: put it in ~/.pgpass (or the file PGPASSFILE names, or a "
                        "service file) and leave it out of the URI");
        std::string user;
        if (!decode(userSpec, &user, &error)) return fail(error);
        if (!user.empty()) setParameter(l, "user", user);
    }
    if (!authority.empty()) {
        std::vector<std::string> hosts, ports;
        bool anyPort = false;
        for (const std::string& one : split(authority, ',')) {
            std::string host = one, port;
            if (startsWith(one, "[")) {
                const auto close = one.find(']');
                if (close == std::string::npos) return fail("an IPv6 address misses its ']'");
                host = one.substr(1, close - 1);
                const std::string after = one.substr(close + 1);
                if (!after.empty()) {
                    if (after[0] != ':') return fail("unexpected '" + after + "' after a host");
                    port = after.substr(1);
                }
            } else if (const auto colon = one.rfind(':'); colon != std::string::npos) {
                host = one.substr(0, colon);
                port = one.substr(colon + 1);
            }
            std::string decodedHost, decodedPort;
            if (!decode(host, &decodedHost, &error) || !decode(port, &decodedPort, &error))
                return fail(error);
            hosts.push_back(decodedHost);
            ports.push_back(decodedPort);
            anyPort = anyPort || !decodedPort.empty();
        }
        std::string hostList, portList;
        for (std::size_t i = 0; i < hosts.size(); ++i) {
            hostList += (i ? "," : "") + hosts[i];
            portList += (i ? "," : "") + ports[i];
        }
        if (!hostList.empty() && hostList != std::string(hosts.size() - 1, ','))
            setParameter(l, "host", hostList);
        if (anyPort) setParameter(l, "port", portList);
    }
    if (startsWith(tail, "/")) {
        const auto query = tail.find('?');
        std::string db;
        if (!decode(tail.substr(1, query == std::string::npos ? std::string::npos : query - 1), &db,
                    &error))
            return fail(error);
        if (!db.empty()) setParameter(l, "dbname", db);
        tail = query == std::string::npos ? std::string() : tail.substr(query);
    }
    if (startsWith(tail, "?")) {
        for (const std::string& pair : split(tail.substr(1), '&')) {
            if (pair.empty()) continue;
            const auto eq = pair.find('=');
            if (eq == std::string::npos) return fail("the parameter '" + pair + "' has no value");
            std::string keyword, value;
            if (!decode(pair.substr(0, eq), &keyword, &error) ||
                !decode(pair.substr(eq + 1), &value, &error))
                return fail(error);
            if (keyword == "password")
                return fail("holds a password; ScaleView never takes one on the command line or "
                            "in its settings: put it in ~/.pgpass (or PGPASSFILE, or a service "
                            "file) and leave it out of the URI");
            // libpq's JDBC-style spelling.
            if (keyword == "ssl" && value == "true") {
                keyword = "sslmode";
                value = "require";
            }
            setParameter(l, keyword, value);
        }
    }
    // Qt's PostgreSQL driver reads a ';' in its options as a separator.
    for (const auto& [k, v] : l.parameters)
        if (v.find(';') != std::string::npos || k.find(';') != std::string::npos)
            return fail("'" + k + "' holds a ';', which Qt's PostgreSQL driver cannot pass on");
    return l;
}

} // namespace

std::string HistoryLocation::parameter(const std::string& keyword) const {
    for (const auto& [k, v] : parameters)
        if (k == keyword) return v;
    return {};
}

std::string HistoryLocation::conninfo() const {
    std::string out;
    for (const auto& [k, v] : parameters) {
        out += (out.empty() ? "" : " ") + k + "='";
        for (char c : v) {
            if (c == '\'' || c == '\\') out += '\\';
            out += c;
        }
        out += "'";
    }
    return out;
}

HistoryLocation parseHistoryLocation(const std::string& text) {
    if (text.empty()) return invalid(text, "the history database is not named (an empty path)");
    for (const char* scheme : {"postgresql://", "postgres://"})
        if (startsWith(text, scheme)) return parseUri(text, std::string(scheme).size());
    std::string scheme;
    if (looksLikeUri(text, &scheme))
        return invalid(text, "the history database '" + text +
                                 "' is neither a file path nor a "
                                 "URI ScaleView knows ('" +
                                 scheme +
                                 ":' is not postgresql:// or "
                                 "postgres://); for a file named so, write ./" +
                                 text);
    std::error_code ec;
    if (std::filesystem::is_directory(text, ec))
        return invalid(text, "the history database " + text +
                                 " is a folder; name a file in it (e.g. " +
                                 (std::filesystem::path(text) / "history.sqlite").string() + ")");
    HistoryLocation l;
    l.kind = HistoryLocation::Kind::SQLite;
    l.file = text;
    l.text = text;
    return l;
}

} // namespace sv::history
