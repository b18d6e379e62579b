#include "history/historylocation.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace sv::history {
namespace {

constexpr const char* kNoPassword =
    "holds a password; ScaleView never takes one on the command line or in its settings: put it "
    "in ~/.pgpass (or the file PGPASSFILE names, or a service file) and leave it out";

// libpq's connection keywords (PostgreSQL 15 and 16), each between spaces: a text that starts with
// one of them and '=' is a keyword/value connection string, never a file name.
constexpr std::string_view kLibpqKeywords =
    " host hostaddr port dbname user password passfile channel_binding connect_timeout"
    " client_encoding options application_name fallback_application_name keepalives"
    " keepalives_idle keepalives_interval keepalives_count tcp_user_timeout replication"
    " gssencmode sslmode requiressl sslcompression sslcert sslkey sslpassword sslcertmode"
    " sslrootcert sslcrl sslcrldir sslsni requirepeer ssl_min_protocol_version"
    " ssl_max_protocol_version krbsrvname gsslib gssdelegation service target_session_attrs"
    " load_balance_hosts require_auth authtype tty sslnegotiation ";

bool isLibpqKeyword(std::string_view k) {
    return !k.empty() && k.find(' ') == std::string_view::npos &&
           kLibpqKeywords.find(" " + std::string(k) + " ") != std::string_view::npos;
}

// The keywords whose value is a secret: refused, and their values never repeated.
bool isSecret(std::string_view keyword) {
    return keyword == "password" || keyword == "sslpassword";
}

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

bool isSpace(char c) {
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}

// "keyword=" (spaces allowed around '=') at the start, with one of libpq's keywords: what a
// connection string looks like, and what no one names a history file.
bool looksLikeKeywords(const std::string& text) {
    std::size_t i = 0;
    while (i < text.size() && isSpace(text[i]))
        ++i;
    const std::size_t start = i;
    while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_'))
        ++i;
    const std::string_view keyword(text.data() + start, i - start);
    while (i < text.size() && isSpace(text[i]))
        ++i;
    return i < text.size() && text[i] == '=' && isLibpqKeyword(keyword);
}

HistoryLocation invalid(const std::string& text, const std::string& why) {
    HistoryLocation l;
    l.text = text;
    l.error = why;
    return l;
}

// The URI with its password (user:PASSWORD@, password=, sslpassword=) shown as ***: what a
// message may quote.
std::string redactedUri(const std::string& text, std::size_t schemeLength) {
    std::string out = text.substr(0, schemeLength);
    const std::string rest = text.substr(schemeLength);
    const auto authorityEnd = std::min(rest.find_first_of("/?"), rest.size());
    std::string authority = rest.substr(0, authorityEnd);
    if (const auto at = authority.rfind('@'); at != std::string::npos)
        if (const auto colon = authority.find(':'); colon < at)
            authority = authority.substr(0, colon + 1) + "***" + authority.substr(at);
    out += authority;
    const std::string tail = rest.substr(authorityEnd);
    const auto query = tail.find('?');
    out += tail.substr(0, query);
    if (query == std::string::npos) return out;
    out += '?';
    bool first = true;
    for (const std::string& pair : split(tail.substr(query + 1), '&')) {
        out += first ? "" : "&";
        first = false;
        const auto eq = pair.find('=');
        std::string keyword, ignored;
        if (!decode(pair.substr(0, eq), &keyword, &ignored)) keyword = pair.substr(0, eq);
        out += eq != std::string::npos && isSecret(keyword) ? pair.substr(0, eq + 1) + "***" : pair;
    }
    return out;
}

// user@ (never user:password@), then the hosts and ports (host1:port1,[v6]:port2,...).
bool parseAuthority(std::string authority, HistoryLocation& l, std::string* why) {
    if (const auto at = authority.rfind('@'); at != std::string::npos) {
        const std::string userSpec = authority.substr(0, at);
        authority = authority.substr(at + 1);
        if (userSpec.find(':') != std::string::npos) {
            *why = kNoPassword + std::string(" of the URI");
            return false;
        }
        std::string user;
        if (!decode(userSpec, &user, why)) return false;
        if (!user.empty()) setParameter(l, "user", user);
    }
    if (authority.empty()) return true;
    std::vector<std::string> hosts, ports;
    bool anyPort = false;
    for (const std::string& one : split(authority, ',')) {
        std::string host = one, port;
        if (startsWith(one, "[")) {
            const auto close = one.find(']');
            if (close == std::string::npos) {
                *why = "an IPv6 address misses its ']'";
                return false;
            }
            host = one.substr(1, close - 1);
            const std::string after = one.substr(close + 1);
            if (!after.empty()) {
                if (after[0] != ':') {
                    *why = "unexpected '" + after + "' after a host";
                    return false;
                }
                port = after.substr(1);
            }
        } else if (const auto colon = one.rfind(':'); colon != std::string::npos) {
            host = one.substr(0, colon);
            port = one.substr(colon + 1);
        }
        std::string decodedHost, decodedPort;
        if (!decode(host, &decodedHost, why) || !decode(port, &decodedPort, why)) return false;
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
    return true;
}

// "/dbname" and "?keyword=value&...": a password keyword refused before its value is read.
bool parsePathAndQuery(std::string tail, HistoryLocation& l, std::string* why) {
    if (startsWith(tail, "/")) {
        const auto query = tail.find('?');
        std::string db;
        if (!decode(tail.substr(1, query == std::string::npos ? std::string::npos : query - 1), &db,
                    why))
            return false;
        if (!db.empty()) setParameter(l, "dbname", db);
        tail = query == std::string::npos ? std::string() : tail.substr(query);
    }
    if (!startsWith(tail, "?")) return true;
    for (const std::string& pair : split(tail.substr(1), '&')) {
        if (pair.empty()) continue;
        const auto eq = pair.find('=');
        std::string keyword, value;
        if (!decode(pair.substr(0, eq), &keyword, why)) return false;
        if (isSecret(keyword)) {
            *why = kNoPassword + std::string(" of the URI");
            return false;
        }
        if (eq == std::string::npos) {
            *why = "the parameter '" + keyword + "' has no value";
            return false;
        }
        if (!decode(pair.substr(eq + 1), &value, why)) return false;
        // libpq's JDBC-style spelling.
        if (keyword == "ssl" && value == "true") {
            keyword = "sslmode";
            value = "require";
        }
        setParameter(l, keyword, value);
    }
    return true;
}

// Qt's PostgreSQL driver reads a ';' in its options as a separator.
bool passableToQt(const HistoryLocation& l, std::string* why) {
    for (const auto& [k, v] : l.parameters)
        if (v.find(';') != std::string::npos || k.find(';') != std::string::npos) {
            *why = "'" + k + "' holds a ';', which Qt's PostgreSQL driver cannot pass on";
            return false;
        }
    return true;
}

HistoryLocation parseUri(const std::string& text, std::size_t schemeLength) {
    HistoryLocation l;
    l.kind = HistoryLocation::Kind::PostgreSQL;
    l.text = text;
    const std::string rest = text.substr(schemeLength);
    const auto authorityEnd = rest.find_first_of("/?");
    std::string why;
    if (!parseAuthority(rest.substr(0, authorityEnd), l, &why) ||
        !parsePathAndQuery(authorityEnd == std::string::npos ? std::string()
                                                             : rest.substr(authorityEnd),
                           l, &why) ||
        !passableToQt(l, &why))
        return invalid(redactedUri(text, schemeLength),
                       "the history database URI " + redactedUri(text, schemeLength) + ": " + why);
    return l;
}

// libpq's keyword/value string: keyword = value pairs apart by spaces, a value in single quotes
// where it holds spaces (\' and \\ inside). A password keyword is refused as soon as it is read,
// and no message repeats a value.
HistoryLocation parseKeywords(const std::string& text) {
    HistoryLocation l;
    l.kind = HistoryLocation::Kind::PostgreSQL;
    l.text = text;
    const auto fail = [&](const std::string& why) {
        return invalid("(a connection string)",
                       "the history database's libpq connection string: " + why);
    };
    std::size_t i = 0;
    for (;;) {
        while (i < text.size() && isSpace(text[i]))
            ++i;
        if (i == text.size()) break;
        const std::size_t start = i;
        while (i < text.size() && text[i] != '=' && !isSpace(text[i]))
            ++i;
        const std::string keyword = text.substr(start, i - start);
        while (i < text.size() && isSpace(text[i]))
            ++i;
        if (i == text.size() || text[i] != '=')
            return fail("'" + keyword + "' has no '=' after it");
        if (isSecret(keyword)) return fail(kNoPassword + std::string(" of the string"));
        if (!isLibpqKeyword(keyword))
            return fail("'" + keyword + "' is not a libpq connection keyword");
        ++i;
        while (i < text.size() && isSpace(text[i]))
            ++i;
        std::string value;
        const bool quoted = i < text.size() && text[i] == '\'';
        i += quoted ? 1 : 0;
        bool closed = !quoted;
        for (; i < text.size(); ++i) {
            if (!quoted && isSpace(text[i])) break;
            if (quoted && text[i] == '\'') {
                closed = true;
                ++i;
                break;
            }
            if (text[i] == '\\' && i + 1 < text.size()) ++i;
            value += text[i];
        }
        if (!closed) return fail("the value of '" + keyword + "' misses its closing quote");
        setParameter(l, keyword, value);
    }
    std::string why;
    if (!passableToQt(l, &why)) return fail(why);
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
    if (looksLikeKeywords(text)) return parseKeywords(text);
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
