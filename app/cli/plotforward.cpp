#include "app/cli/commands.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <vector>
#include <unistd.h>

namespace sv::cli {

namespace {

// Next to scaleview-cli in a build tree; in libexec once installed.
std::vector<std::filesystem::path> plotProgramCandidates() {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    std::vector<fs::path> candidates;
    if (!ec) {
        candidates.push_back(self.parent_path() / "scaleview-plot");
        candidates.push_back(self.parent_path() / SCALEVIEW_LIBEXEC_FROM_BIN / "scaleview-plot");
    }
    return candidates;
}

} // namespace

std::optional<std::filesystem::path> plotProgram() {
    for (const auto& program : plotProgramCandidates())
        if (::access(program.c_str(), X_OK) == 0) return program;
    return std::nullopt;
}

int plotCommand(const std::vector<std::string>& args) {
    const auto candidates = plotProgramCandidates();
    for (const auto& program : candidates) {
        if (::access(program.c_str(), X_OK) != 0) continue;
        std::vector<char*> argv;
        std::string name = program.string();
        argv.push_back(name.data());
        std::vector<std::string> copy = args;
        for (auto& a : copy)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        ::execv(program.c_str(), argv.data());
        std::fprintf(stderr, "scaleview-cli plot: cannot run %s: %s\n", name.c_str(),
                     std::strerror(errno));
        return 2;
    }
    std::fprintf(stderr,
                 "scaleview-cli plot: scaleview-plot is not installed next to scaleview-cli\n");
    return 2;
}

} // namespace sv::cli
