#pragma once
// Shared by the launcher's tests: paths of the programs under test, temporary directories,
// and a look for processes still carrying a run tag.

#include "tests/support/process.h"
#include "launcher/campaign/campaign.h"

#include <chrono>
#include <fcntl.h>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <spawn.h>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace sv::test {

inline const std::string kCli = SCALEVIEW_CLI;
inline const std::string kFake = SCALEVIEW_FAKE_WORKLOAD;

// Seconds since t0.
// A tiny campaign of one 1n1g case for the fake workload's profile (or another): 5 iterations.
inline launcher::Campaign fakeCampaign(const std::string& profile, const std::string& out,
                                       int repeats) {
    launcher::Campaign c;
    c.profile = profile;
    c.topologies = {*parseTopology("1n1g")};
    c.batchSizes = {2};
    c.repeats = repeats;
    c.iterations = 5;
    c.warmup = 1;
    c.cooldownSeconds = 1;
    c.outputDir = out;
    return c;
}

inline double since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

inline std::string tempDir(const std::string& name) {
    std::string tmpl = "/tmp/sv-" + name + "-XXXXXX";
    return ::mkdtemp(tmpl.data());
}

// Every live process whose environment holds SCALEVIEW_RUN_TAG=... (any run), as "pid cmdline";
// or another variable's (SCALEVIEW_MONITOR_TAG: the run monitor's samplers on remote hosts).
inline std::vector<std::string> taggedProcesses(const std::string& tagPrefix = "",
                                                const std::string& variable = "SCALEVIEW_RUN_TAG") {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
        const std::string env = readWhole((e.path() / "environ").string());
        const std::string needle = variable + "=" + tagPrefix;
        const auto at = env.find(needle);
        if (at == std::string::npos || (at != 0 && env[at - 1] != '\0')) continue;
        std::string stat = readWhole((e.path() / "stat").string());
        const auto paren = stat.rfind(')');
        if (paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] == 'Z')
            continue;
        std::string cmd = readWhole((e.path() / "cmdline").string());
        for (char& c : cmd)
            if (c == '\0') c = ' ';
        out.push_back(e.path().filename().string() + " " + cmd.substr(0, 120));
    }
    return out;
}

inline pid_t spawn(const std::vector<std::string>& argv, const std::string& logFile) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, logFile.c_str(), O_WRONLY | O_CREAT | O_APPEND,
                                     0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    return pid;
}

// The live processes carrying any tag that the campaign journal in outDir started.
inline std::vector<std::string> leftoverOf(const std::string& outDir,
                                           const std::string& variable = "SCALEVIEW_RUN_TAG") {
    std::vector<std::string> out;
    const std::string journal = readWhole(outDir + "/journal.jsonl");
    for (std::size_t at = 0; (at = journal.find("\"tag\":\"", at)) != std::string::npos;) {
        at += 7;
        const std::string tag = journal.substr(at, journal.find('"', at) - at);
        for (auto& p : taggedProcesses(tag, variable))
            out.push_back(p);
    }
    return out;
}

// A profile JSON running the fake workload under mpirun (locally, or over the campaign's hosts).
inline std::string writeFakeProfile(const std::string& dir,
                                    const std::vector<std::string>& extraArgs) {
    std::string args;
    for (const auto& a : extraArgs)
        args += ", \"" + a + "\"";
    const std::string path = dir + "/fake-profile.json";
    std::ofstream(path)
        << R"J({"name": "fake", "label": "fake workload (tests)", "model": "r50", "logRoot": "logs/fake",
      "defaultLauncher": "mpirun",
      "launchers": {"mpirun": ["mpirun", "--tag-output", "--allow-run-as-root", "--oversubscribe", "-np", "{ranks}",
                               "-H", "{host_slots}", "{mpi_env}", "{mpi_ssh_agent}"],
                    "direct": []},
      "program": ["/usr/bin/python3", ")J"
        << kFake << R"J("],
      "args": ["--iterations", "{iterations}", "--batch", "{batch}")J"
        << args << "]}\n";
    return path;
}

// The end records of the campaign journal in outDir, in order.
inline std::vector<nlohmann::json> journalEnds(const std::string& outDir) {
    std::vector<nlohmann::json> ends;
    std::istringstream in(readWhole(outDir + "/journal.jsonl"));
    std::string line;
    while (std::getline(in, line)) {
        auto j = nlohmann::json::parse(line, nullptr, false);
        if (!j.is_discarded() && j["event"] == "end") ends.push_back(j);
    }
    return ends;
}

} // namespace sv::test
