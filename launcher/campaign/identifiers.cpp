#include "launcher/campaign/identifiers.h"

namespace sv::launcher {
namespace {

bool alnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

} // namespace

bool isValidHostName(std::string_view name) {
    if (name.empty() || name.size() > 253 || !alnum(name.front())) return false;
    for (char c : name)
        if (!alnum(c) && c != '.' && c != '-' && c != '_' && c != ':') return false;
    return true;
}

bool isValidUserName(std::string_view name) {
    if (name.empty() || name.size() > 32 || name.front() == '-' || name.front() == '.')
        return false;
    for (char c : name)
        if (!alnum(c) && c != '_' && c != '.' && c != '-') return false;
    return true;
}

bool isValidContainerName(std::string_view name) {
    if (name.empty() || name.size() > 128 || !alnum(name.front())) return false;
    for (char c : name)
        if (!alnum(c) && c != '_' && c != '.' && c != '-') return false;
    return true;
}

bool isValidPlainPath(std::string_view path) {
    if (path.empty() || path.front() != '/') return false;
    for (char c : path) {
        const auto u = static_cast<unsigned char>(c);
        if (u <= 0x20 || u == 0x7f || c == '\'' || c == '"' || c == '\\' || c == '`' || c == '$')
            return false;
    }
    return true;
}

} // namespace sv::launcher
