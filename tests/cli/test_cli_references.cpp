// References from the command line: compare with a published table by its own method (a real
// A/B on its seven repeats), save a log directory as one's own table in the XDG data
// directory, list and use it, and refuse a malformed --reference-file whole.

#include "tests/support/files.h"
#include "tests/support/logwriter.h"
#include "tests/support/process.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace sv::test;

namespace {

ProcessResult cliRun(std::vector<std::string> args) {
    args.insert(args.begin(), SCALEVIEW_CLI);
    return runProcess(args);
}

// The seed's seven FP32 1n1g repeats (speed method) as logs whose every line reports the
// repeat's figure times `factor`, while the timestamps say 320 images/s: the two methods differ,
// and only the speed method matches the table.
void writeSeedLikeRuns(const std::filesystem::path& root, double factor) {
    const double repeats[] = {392.24, 390.09, 392.63, 393.53, 391.58, 392.85, 391.77};
    for (int p = 0; p < 7; ++p) {
        RunSpec spec;
        spec.stepMs = 400; // 128 / 0.4 s = 320 images/s by the time method
        char speed[32];
        std::snprintf(speed, sizeof speed, "%.2f", repeats[p] * factor);
        writeFile(root / "1n1g" / ("r50_b128_fp32_" + std::to_string(p + 1) + ".log"),
                  makeLog(spec, [s = std::string(speed)](int, int) { return s; }));
    }
}

// Points the CLI's XDG data directory at a test's own folder for the test's duration.
class DataHome {
  public:
    explicit DataHome(const std::filesystem::path& dir) {
        if (const char* old = std::getenv("XDG_DATA_HOME")) m_old = old;
        ::setenv("XDG_DATA_HOME", dir.c_str(), 1);
    }
    ~DataHome() {
        if (m_old)
            ::setenv("XDG_DATA_HOME", m_old->c_str(), 1);
        else
            ::unsetenv("XDG_DATA_HOME");
    }

  private:
    std::optional<std::string> m_old;
};

} // namespace

TEST(CliReferences, CompareWithThePublishedTableByItsMethodIsARealAB) {
    TempDir dir;
    writeSeedLikeRuns(dir / "same", 1.0);
    writeSeedLikeRuns(dir / "slow", 0.9);
    const auto r = cliRun({"compare", (dir / "same").string(), (dir / "slow").string(),
                           "--reference", "dlperf-ngc-mxnet-fp32-bs128", "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    // The table is A and the speed method; the directories are read by it.
    EXPECT_EQ(j["series"][0]["label"], "dlperf-ngc-mxnet-fp32-bs128");
    EXPECT_EQ(j["series"][0]["method"], "speed");
    EXPECT_EQ(j["series"][1]["method"], "speed");
    const nlohmann::json* one = nullptr;
    for (const auto& c : j["cases"])
        if (c["topology"] == "1n1g")
            one = &c;
        else
            EXPECT_EQ(c["verdict"], "only-in-A") << c.dump(); // the table's other topologies
    ASSERT_TRUE(one);
    EXPECT_DOUBLE_EQ((*one)["series"][0].get<double>(), 392.24);
    EXPECT_DOUBLE_EQ((*one)["series"][1].get<double>(), 392.24); // speed method, not 320
    EXPECT_EQ((*one)["repeats"][0], 7);
    const auto& same = (*one)["comparisons"][0];
    EXPECT_EQ(same["verdict"], "no-difference");
    EXPECT_LE(same["ratio_ci95"][0].get<double>(), 1.0);
    EXPECT_GE(same["ratio_ci95"][1].get<double>(), 1.0);
    const auto& slow = (*one)["comparisons"][1];
    EXPECT_EQ(slow["verdict"], "slower");
    EXPECT_LT(slow["ratio_ci95"][1].get<double>(), 1.0);

    // summarize gives the same A/B: the same samples, the same interval, wherever computed.
    const auto fromSummary =
        cliRun({"summarize", (dir / "same").string(), "--format", "json", "--quiet"});
    ASSERT_EQ(fromSummary.exitCode, 0) << fromSummary.err;
    EXPECT_EQ(
        nlohmann::json::parse(fromSummary.out)["cases"][0]["reference_comparison"]["ratio_ci95"],
        same["ratio_ci95"]);

    // summarize says the delta is by the table's method, and gives the A/B.
    const auto s = cliRun({"summarize", (dir / "slow").string(), "--format", "json", "--quiet"});
    ASSERT_EQ(s.exitCode, 0) << s.err;
    const auto js = nlohmann::json::parse(s.out);
    const auto& c = js["cases"][0];
    EXPECT_NEAR(c["median_speed"].get<double>(), 320.0, 0.01); // the view's time method
    EXPECT_EQ(c["reference_method"], "speed");
    EXPECT_NEAR(c["delta_pct"].get<double>(), -10.0, 0.01);
    EXPECT_EQ(c["reference_comparison"]["verdict"], "slower");
}

TEST(CliReferences, SaveListUseAndNeverOverwrite) {
    TempDir dir;
    DataHome home(dir / "data");
    writeSeedLikeRuns(dir / "october", 1.0);
    writeSeedLikeRuns(dir / "november", 0.9);
    auto r = cliRun({"references", "save", (dir / "october").string(), "--id", "our-october",
                     "--title", "Our cluster, October", "--method", "speed", "--quiet"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto file = dir / "data" / "scaleview" / "references" / "our-october.json";
    EXPECT_EQ(r.out, file.string() + "\n");
    const auto saved = nlohmann::json::parse(readWhole(file));
    const auto& t = saved["tables"][0];
    EXPECT_EQ(t["id"], "our-october");
    EXPECT_EQ(t["method"], "speed");
    EXPECT_EQ(t["precision"], "fp32");
    EXPECT_EQ(t["batch_size_per_device"], 128);
    EXPECT_DOUBLE_EQ(t["throughput"]["1n1g"].get<double>(), 392.24);
    EXPECT_EQ(t["repeats"]["1n1g"].size(), 7u);

    // Listed with the published ones.
    r = cliRun({"references"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("dlperf-ngc-mxnet-fp32-bs128\n"), std::string::npos);
    EXPECT_NE(r.out.find("our-october\n  Our cluster, October\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  file: " + file.string()), std::string::npos) << r.out;

    // Used like a published one: November is 10 % slower than our October.
    r = cliRun(
        {"compare", (dir / "november").string(), "--reference", "our-october", "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["cases"][0]["verdict"], "slower") << r.out;
    r = cliRun({"summarize", (dir / "november").string(), "--reference", "our-october", "--format",
                "json", "--quiet"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["cases"][0]["reference"]["id"], "our-october");

    // Saved again under the same id: refused, the first file intact.
    const std::string before = readWhole(file);
    r = cliRun(
        {"references", "save", (dir / "november").string(), "--id", "our-october", "--quiet"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("exists already"), std::string::npos) << r.err;
    EXPECT_EQ(readWhole(file), before);
    // An id that is a published table's, or not a file name: refused.
    r = cliRun(
        {"references", "save", (dir / "november").string(), "--id", "dlperf-ngc-mxnet-fp32-bs128"});
    EXPECT_EQ(r.exitCode, 2);
    r = cliRun({"references", "save", (dir / "november").string(), "--id", "../x"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--id must be"), std::string::npos) << r.err;
}

TEST(CliReferences, MalformedReferenceFileIsRefusedWithFieldAndReason) {
    TempDir dir;
    DataHome home(dir / "data");
    writeSeedLikeRuns(dir / "logs", 1.0);
    writeFile(dir / "bad.json", R"({"tables": [
        {"id": "good", "throughput": {"1n1g": 400}},
        {"id": "bad", "method": "speed", "throughput": {"1n1g": -1}}]})");
    for (const char* command : {"summarize", "references"}) {
        std::vector<std::string> args = {command};
        if (std::string(command) == "summarize") args.push_back((dir / "logs").string());
        args.insert(args.end(), {"--reference-file", (dir / "bad.json").string()});
        const auto r = cliRun(args);
        EXPECT_EQ(r.exitCode, 2) << command;
        EXPECT_NE(r.err.find((dir / "bad.json").string() +
                             ": tables[1] (bad): throughput.1n1g: not a positive number"),
                  std::string::npos)
            << command << ": " << r.err;
    }
    // A malformed file in the data directory is left out with a warning; the rest still works.
    writeFile(dir / "data" / "scaleview" / "references" / "broken.json", "{\"tables\": [");
    const auto r = cliRun({"references"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("broken.json: not valid JSON"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("dlperf-ngc-mxnet-fp32-bs128"), std::string::npos);
    // A good file is used whole.
    writeFile(dir / "good.json", R"({"tables": [{"id": "good", "method": "speed",
        "precision": "fp32", "batch_size_per_device": 128, "throughput": {"1n1g": 392.24}}]})");
    const auto s = cliRun({"summarize", (dir / "logs").string(), "--reference-file",
                           (dir / "good.json").string(), "--reference", "good", "--format", "json",
                           "--quiet"});
    ASSERT_EQ(s.exitCode, 0) << s.err;
    EXPECT_NEAR(nlohmann::json::parse(s.out)["cases"][0]["delta_pct"].get<double>(), 0.0, 1e-9);
}
