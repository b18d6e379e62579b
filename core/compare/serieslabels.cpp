#include "core/compare/serieslabels.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace sv {
namespace {

// The path's components, "." and ".." resolved where the path allows, absolute where relative.
std::vector<std::string> components(const std::string& directory) {
    std::filesystem::path p(directory);
    std::error_code ec;
    const auto absolute = std::filesystem::absolute(p, ec);
    if (!ec) p = absolute;
    p = p.lexically_normal();
    std::vector<std::string> out;
    for (const auto& part : p)
        if (!part.empty() && part != "/" && part != ".") out.push_back(part.string());
    return out;
}

std::string tail(const std::vector<std::string>& parts, std::size_t n) {
    std::string out;
    for (std::size_t i = parts.size() > n ? parts.size() - n : 0; i < parts.size(); ++i)
        out += (out.empty() ? "" : "/") + parts[i];
    return out;
}

std::string frameworkText(std::vector<std::string> frameworks) {
    std::sort(frameworks.begin(), frameworks.end());
    frameworks.erase(std::unique(frameworks.begin(), frameworks.end()), frameworks.end());
    std::string out;
    for (const auto& f : frameworks)
        out += (out.empty() ? "" : " + ") + f;
    return out;
}

} // namespace

std::vector<std::string> distinguishingLabels(const std::vector<SeriesOrigin>& series) {
    std::vector<std::vector<std::string>> parts;
    std::vector<std::string> labels;
    for (const auto& s : series) {
        parts.push_back(components(s.directory));
        labels.push_back(parts.back().empty() ? s.directory : parts.back().back());
    }
    const std::vector<std::string> names = labels;
    std::set<std::string> done;
    for (std::size_t i = 0; i < series.size(); ++i) {
        if (done.count(names[i])) continue;
        done.insert(names[i]);
        std::vector<std::size_t> same;
        for (std::size_t j = 0; j < series.size(); ++j)
            if (names[j] == names[i]) same.push_back(j);
        if (same.size() < 2) continue;
        // Their frameworks, when every one is known and no two read the same.
        std::set<std::string> frameworks;
        for (std::size_t j : same) {
            const std::string f = frameworkText(series[j].frameworks);
            if (!f.empty()) frameworks.insert(f);
        }
        if (frameworks.size() == same.size()) {
            for (std::size_t j : same)
                labels[j] = names[j] + " (" + frameworkText(series[j].frameworks) + ")";
            continue;
        }
        // Else the shortest tail of their paths that no two share.
        std::size_t longest = 0;
        for (std::size_t j : same)
            longest = std::max(longest, parts[j].size());
        bool named = false;
        for (std::size_t n = 2; n <= longest && !named; ++n) {
            std::set<std::string> tails;
            for (std::size_t j : same)
                tails.insert(tail(parts[j], n));
            if (tails.size() != same.size()) continue;
            for (std::size_t j : same)
                labels[j] = tail(parts[j], n);
            named = true;
        }
        if (!named) // one directory twice: by place
            for (std::size_t k = 1; k < same.size(); ++k)
                labels[same[k]] = names[same[k]] + " (" + std::to_string(same[k] + 1) + ")";
    }
    return labels;
}

} // namespace sv
