#include "core/bundle/bundlepath.h"

namespace sv {

std::optional<std::string> bundlePathProblem(const std::string& path) {
    if (path.empty()) return "is empty";
    if (path.size() > 255) return "is longer than 255 bytes";
    if (path.front() == '/') return "is absolute";
    for (unsigned char c : path) {
        // Control bytes and backslashes would print or check differently by hand (sha256sum
        // escapes them), so no bundle holds them.
        if (c < 0x20 || c == 0x7f) return "holds a control character";
        if (c == '\\') return "holds a backslash";
    }
    std::size_t start = 0;
    while (start <= path.size()) {
        const auto end = path.find('/', start);
        const std::string part =
            path.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (part == "..") return "leaves the bundle ('..')";
        if (part.empty() || part == ".") return "has an empty or '.' component";
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return std::nullopt;
}

} // namespace sv
