#include "launcher/exec/shellquote.h"

namespace sv::launcher {
namespace {

bool isSafe(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.' || c == '/' || c == ':' || c == '=' || c == ',' || c == '+' ||
           c == '@' || c == '%';
}

} // namespace

std::string shellQuote(std::string_view arg) {
    bool bare = !arg.empty();
    for (char c : arg)
        bare = bare && isSafe(c);
    // '=' first would make an assignment of a bare word; '-' first is fine for the shell.
    if (bare && arg.front() != '=') return std::string(arg);
    std::string out = "'";
    for (char c : arg) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    out += '\'';
    return out;
}

std::string shellCommand(const std::vector<std::string>& argv) {
    std::string out;
    for (const auto& a : argv) {
        if (!out.empty()) out += ' ';
        out += shellQuote(a);
    }
    return out;
}

} // namespace sv::launcher
