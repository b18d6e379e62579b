#pragma once
// scaleview-cli's subcommands; each returns the process exit code.

#include <string>
#include <vector>

namespace sv::cli {

// 0: a summary was produced; 1: --strict and something was skipped or incomplete;
// 2: usage error, unreadable directory, or nothing to summarize.
int summarizeCommand(const std::vector<std::string>& args);
int referencesCommand(const std::vector<std::string>& args);
std::string versionString();

} // namespace sv::cli
