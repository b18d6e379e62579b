// scaleview-cli with users' format files: --format-file reads a tree of a line shape no
// built-in format reads, with the right figure; `formats add` keeps a file in the user's
// config directory, `formats` lists it and every command then reads such logs; a bad file is
// refused naming the file, the key and the reason, exit 2.

#include "tests/support/freshtrainer.h"
#include "tests/support/logwriter.h"
#include "tests/support/process.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>

using namespace sv;
using namespace sv::test;

namespace {

// XDG_CONFIG_HOME for the CLI processes this test starts, restored after.
class ConfigHome {
  public:
    explicit ConfigHome(const std::filesystem::path& dir) {
        if (const char* old = std::getenv("XDG_CONFIG_HOME")) m_old = old;
        ::setenv("XDG_CONFIG_HOME", dir.c_str(), 1);
    }
    ~ConfigHome() {
        if (m_old)
            ::setenv("XDG_CONFIG_HOME", m_old->c_str(), 1);
        else
            ::unsetenv("XDG_CONFIG_HOME");
    }

  private:
    std::optional<std::string> m_old;
};

// 1n1g and 1n8g, two repeats each, plus files that are no logs.
std::map<std::string, std::vector<double>> writeFreshTree(const std::filesystem::path& root) {
    std::map<std::string, std::vector<double>> values;
    int seed = 1;
    for (const char* topo : {"1n1g", "1n8g"})
        for (int repeat = 1; repeat <= 2; ++repeat) {
            const std::string rel =
                std::string(topo) + "/mynet_b64_fp16_" + std::to_string(repeat) + ".log";
            values[rel] = writeFreshLog(root / rel, 120, topo[2] == '1' ? 6.0 : 11.0, seed++);
        }
    writeFile(root / "README.md", "# runs of the fresh trainer\n");
    return values;
}

} // namespace

TEST(UserFormatCli, FormatFileReadsAFreshTree) {
    TempDir dir;
    const auto values = writeFreshTree(dir / "runs");
    writeFile(dir / "fresh.json", kFreshFormat);
    ConfigHome home(dir / "config");
    // Without the format: nothing reads these logs.
    const auto before = cli({"summarize", (dir / "runs").string(), "--format", "json"});
    EXPECT_NE(before.exitCode, 0) << before.out;
    const auto r = cli({"summarize", (dir / "runs").string(), "--format-file",
                        (dir / "fresh.json").string(), "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    const auto j = nlohmann::json::parse(r.out);
    std::size_t complete = 0;
    for (const auto& run : j["runs"]) {
        const std::string path = run["path"];
        ASSERT_TRUE(values.count(path)) << path;
        EXPECT_EQ(run["status"], "complete") << run.dump();
        EXPECT_DOUBLE_EQ(run["throughput_time"].get<double>(),
                         medianAfterFirstTenth(values.at(path)))
            << path;
        EXPECT_EQ(run["format"], "fresh-trainer") << run.dump();
        ++complete;
    }
    EXPECT_EQ(complete, values.size()) << r.out;
}

TEST(UserFormatCli, FormatsAddListsAndEveryCommandReadsIt) {
    TempDir dir;
    const auto values = writeFreshTree(dir / "runs");
    writeFile(dir / "fresh.json", kFreshFormat);
    ConfigHome home(dir / "config");
    const auto add = cli({"formats", "add", (dir / "fresh.json").string()});
    ASSERT_EQ(add.exitCode, 0) << add.err;
    const auto kept = dir / "config" / "scaleview" / "formats" / "fresh-trainer.json";
    EXPECT_TRUE(std::filesystem::exists(kept)) << add.out;
    const auto list = cli({"formats"});
    EXPECT_EQ(list.exitCode, 0) << list.err;
    EXPECT_NE(list.out.find("ngc-mxnet\n"), std::string::npos);
    EXPECT_NE(list.out.find("fresh-trainer  [user format: " + kept.string() + "]"),
              std::string::npos)
        << list.out;
    // No --format-file: the config directory's format reads the tree.
    const auto r = cli({"summarize", (dir / "runs").string(), "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["runs"].size(), values.size());
    for (const auto& run : j["runs"])
        EXPECT_DOUBLE_EQ(run["throughput_speed"].get<double>(),
                         medianAfterFirstTenth(values.at(run["path"].get<std::string>())));
    // formats test: the lines and the figure of one log.
    const auto t =
        cli({"formats", "test", kept.string(), (dir / "runs/1n8g/mynet_b64_fp16_1.log").string()});
    EXPECT_EQ(t.exitCode, 0) << t.err;
    EXPECT_NE(t.out.find("120 of 139 lines match"), std::string::npos) << t.out;
    EXPECT_NE(t.out.find("batch: 64"), std::string::npos) << t.out;
    // Adding another file of the same id needs --replace.
    std::string other = kFreshFormat;
    other.replace(other.find("Fresh trainer"), 13, "Fresh trainer 2");
    writeFile(dir / "other.json", other);
    const auto clash = cli({"formats", "add", (dir / "other.json").string()});
    EXPECT_EQ(clash.exitCode, 2);
    EXPECT_NE(clash.err.find("--replace"), std::string::npos) << clash.err;
    EXPECT_EQ(cli({"formats", "add", "--replace", (dir / "other.json").string()}).exitCode, 0);
}

TEST(UserFormatCli, BadFormatFilesAreUsageErrorsNamingKeyAndReason) {
    TempDir dir;
    writeFreshTree(dir / "runs");
    ConfigHome home(dir / "config");
    struct Case {
        const char* json;
        const char* says;
    };
    const Case cases[] = {
        {R"j({"id": "a", "line": "it (?P<value>[0-9.]+ samples"})j",
         "\"line\": bad pattern: missing ): "},
        {R"j({"id": "a", "line": "it ([0-9.]+) samples"})j", "\"line\": no (?P<value>...) capture"},
        {R"j({"id": "a", "line": "(a)\\1 (?P<value>\\d+)"})j", "back references are not supported"},
        {R"j({"id": "a" "line": 1})j", "not JSON"},
        {"\x7f"
         "ELF\x02\x01\x01",
         "not JSON"},
    };
    for (const auto& c : cases) {
        writeFile(dir / "bad.json", c.json);
        for (const char* command : {"summarize", "compare", "report"}) {
            std::vector<std::string> args = {command, (dir / "runs").string()};
            if (std::string(command) == "compare") args.push_back((dir / "runs").string());
            if (std::string(command) == "report") {
                args.push_back("--output");
                args.push_back((dir / "r.html").string());
            }
            args.push_back("--format-file");
            args.push_back((dir / "bad.json").string());
            const auto r = cli(args);
            EXPECT_EQ(r.exitCode, 2) << command << " " << c.json << "\n" << r.err;
            EXPECT_NE(r.err.find((dir / "bad.json").string()), std::string::npos) << r.err;
            EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
        }
        const auto add = cli({"formats", "add", (dir / "bad.json").string()});
        EXPECT_EQ(add.exitCode, 2);
        EXPECT_NE(add.err.find(c.says), std::string::npos) << add.err;
    }
    // A broken file in the config directory is left out with a warning; the rest goes on.
    writeFile(dir / "config" / "scaleview" / "formats" / "broken.json", "{");
    const auto r = cli({"summarize", (dir / "runs").string()});
    EXPECT_NE(r.err.find("warning: user format left out: " +
                         (dir / "config" / "scaleview" / "formats" / "broken.json").string()),
              std::string::npos)
        << r.err;
}

// Issue 37, item 6: a log read by a format file's rule ("drop_first") has no window of
// iterations: the table says its own reports by its format's window, never "iterations -1--2"
// or "time method".
TEST(UserFormatCli, AFormatFilesRuleIsNoNegativeWindow) {
    TempDir dir;
    writeFreshTree(dir / "runs");
    writeFile(dir / "fresh.json", kFreshFormat);
    ConfigHome home(dir / "config");
    const auto r =
        cli({"summarize", (dir / "runs").string(), "--format-file", (dir / "fresh.json").string()});
    ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
    const std::string header = r.out.substr(0, r.out.find('\n'));
    EXPECT_NE(
        header.find("(throughput in samples/s, the log's own reports, by its format's window)"),
        std::string::npos)
        << header;
    EXPECT_EQ(r.out.find("-1--2"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("iterations -1"), std::string::npos) << r.out;
    EXPECT_EQ(header.find("time method"), std::string::npos) << header;
}
