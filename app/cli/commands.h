#pragma once
// scaleview-cli's subcommands; each returns the process exit code.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sv::cli {

// 0: a summary was produced; 1: --strict and something was skipped or incomplete;
// 2: usage error, unreadable directory, or nothing to summarize.
int summarizeCommand(const std::vector<std::string>& args);
int referencesCommand(const std::vector<std::string>& args);
// Lists the log formats: id, framework, unit, DLPerf scripts, defaults. 0, or 2 on arguments.
int formatsCommand(const std::vector<std::string>& args);
// 0: the chart was written; 2: usage error, unreadable directory, nothing to plot, write failure.
int plotCommand(const std::vector<std::string>& args);
// run / resume: 0 every run ok; 1 some run not ok; 2 usage or campaign error; 130 cancelled.
int runCommand(const std::vector<std::string>& args);
int resumeCommand(const std::vector<std::string>& args);
// find-slow-node DIR [--healthy-pace X]: probe runs bisecting a campaign's multi-node case's
// nodes until one is named; 0 a verdict, 1 none could be reached, 2 usage error.
int findSlowNodeCommand(const std::vector<std::string>& args);
// 0 every check passed; 1 some check failed (named with host and remedy); 2 usage error.
int preflightCommand(const std::vector<std::string>& args);
// 0: the comparison was printed; 2: usage error, unreadable directory or no logs in one.
int compareCommand(const std::vector<std::string>& args);
// 0: the report was written; 2: usage error, unreadable directory, write failure.
int reportCommand(const std::vector<std::string>& args);
// predict LOG_DIR --topologies 8n8g,16n8g: 0 done (a case refused says why), 2 usage error or
// unreadable directory.
int predictCommand(const std::vector<std::string>& args);
// history [--case T] [--format F] [--fail-on-regression] | history record DIR...: 0 done;
// 1 a regression flagged with --fail-on-regression; 2 usage error, unusable database or directory.
int historyCommand(const std::vector<std::string>& args);
// nodes [--format table|json]: each node's probe pace over the history's campaigns, flagged when
// slower than its own history or its peers. 0 done (1 a flagged node with --fail-on-slow-node);
// 2 usage error or unusable database.
int nodesCommand(const std::vector<std::string>& args);
// bundle DIR -o NAME.svbundle: the campaign, its results and manifest in one file. 0 written;
// 2 usage error, unreadable file, or the output already there.
int bundleCommand(const std::vector<std::string>& args);
// verify NAME.svbundle: 0 verified; 1 not verified (each difference named); 2 refused or usage.
int verifyCommand(const std::vector<std::string>& args);
// A finished campaign into the history (SCALEVIEW_HISTORY_DB=off: not); says how it went.
void recordInHistory(const std::string& dir);
// scaleview-plot (the GUI's chart builders, offscreen), where it is installed.
std::optional<std::filesystem::path> plotProgram();
std::string versionString();

} // namespace sv::cli
