// With no campaign.json and no window given, every command measures each log over its format's
// DLPerf defaults, as DLPerf's script for it would: TF2 ResNet-50's 100/600 beside NGC MXNet's
// 20/120 in one tree. summarize, compare, report and references save agree on the figures, and
// each says which window measured what.

#include "tests/support/files.h"
#include "tests/support/formatlogs.h"
#include "tests/support/logwriter.h"
#include "tests/support/process.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <sstream>

using namespace sv;
using namespace sv::test;

namespace {

// TF2 ResNet-50 (rn50, DLPerf's window 100/600) and NGC MXNet (r50, 20/120) in one tree: one
// model, r50, batch 128 and 64. The
// TF2 logs' first 100 steps are slow, so a 20/120 window reads other figures than DLPerf's.
void writeTwoFrameworks(const std::filesystem::path& root) {
    writeTf2Rn50Tree(root / "tensorflow/resnet50/bz128");
    writeSteadyRuns(root / "ngc/mxnet/resnet50", {{"1n1g", 1}, {"1n2g", 2}}, 120);
}

// "model bBATCH topology" -> median, from summarize --format json.
std::map<std::string, double> summarizeMedians(const std::string& dir) {
    const auto r = cli({"summarize", dir, "--format", "json", "--quiet"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    std::map<std::string, double> out;
    const auto j = nlohmann::json::parse(r.out);
    for (const auto& c : j.at("cases"))
        if (!c.at("median_speed").is_null())
            out[c.at("model").get<std::string>() + " b" +
                std::to_string(c.at("batch_size_per_device").get<int>()) + " " +
                c.at("topology").get<std::string>()] =
                c.at("median_speed").get<double>();
    return out;
}

} // namespace

TEST(FormatWindowsCli, SummarizeSaysEachFormatsWindow) {
    TempDir dir;
    writeTwoFrameworks(dir.path());
    const auto r = cli({"summarize", dir.path().string(), "--format", "json", "--quiet"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    // No one window for the whole tree: each is listed with its formats.
    EXPECT_TRUE(j["options"]["warmup"].is_null()) << j["options"].dump();
    EXPECT_EQ(j["options"]["window_source"], "dlperf");
    ASSERT_EQ(j["options"]["windows"].size(), 2u) << j["options"].dump();
    int tf2 = 0, mxnet = 0;
    for (const auto& run : j["runs"]) {
        if (run["format"] == "tf2-rn50") {
            ++tf2;
            EXPECT_EQ(run["warmup"], 100) << run.dump();
            EXPECT_EQ(run["iterations"], 600) << run.dump();
        } else {
            ++mxnet;
            EXPECT_EQ(run["format"], "ngc-mxnet");
            EXPECT_EQ(run["warmup"], 20) << run.dump();
            EXPECT_EQ(run["iterations"], 120) << run.dump();
        }
    }
    EXPECT_EQ(tf2, 9);
    EXPECT_EQ(mxnet, 4);
    // The table names a window other than 20…119 in its framework's header.
    const auto table = cli({"summarize", dir.path().string(), "--quiet"});
    EXPECT_NE(table.out.find("TensorFlow 2  r50  fp32  batch 128 per GPU  (throughput in "
                             "images/s, time method, iterations 100-599)"),
              std::string::npos)
        << table.out;
    EXPECT_NE(table.out.find("NGC MXNet  r50  fp32  batch 64 per GPU  (throughput in images/s, "
                             "time method)"),
              std::string::npos)
        << table.out;
    // A window given is every log's.
    const auto given = cli({"summarize", dir.path().string(), "--format", "json", "--quiet",
                            "--warmup", "100", "--iterations", "600"});
    const auto g = nlohmann::json::parse(given.out);
    EXPECT_EQ(g["options"]["warmup"], 100);
    EXPECT_EQ(g["options"]["windows"].size(), 1u);
}

TEST(FormatWindowsCli, CompareMeasuresEachFormatAsSummarizeDoes) {
    TempDir dir;
    writeTwoFrameworks(dir.path());
    const auto medians = summarizeMedians(dir.path().string());
    ASSERT_TRUE(medians.count("r50 b128 2n8g")) << "the TF2 runs count under DLPerf's window";
    ASSERT_TRUE(medians.count("r50 b64 1n2g"));
    const auto r = cli({"compare", dir.path().string(), dir.path().string(), "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    std::size_t seen = 0;
    for (const auto& c : j["cases"]) {
        const std::string key = c["model"].get<std::string>() + " b" +
                                 std::to_string(c["batch_size_per_device"].get<int>()) + " " +
                                 c["topology"].get<std::string>();
        ASSERT_TRUE(medians.count(key)) << key;
        ASSERT_FALSE(c["series"][0].is_null()) << key;
        EXPECT_DOUBLE_EQ(c["series"][0].get<double>(), medians.at(key)) << key;
        ++seen;
    }
    EXPECT_EQ(seen, medians.size());
}

TEST(FormatWindowsCli, ReportAndSavedTableSayTheWindows) {
    TempDir dir;
    writeTf2Rn50Tree(dir / "tf2");
    const auto medians = summarizeMedians((dir / "tf2").string());
    const auto out = dir / "report.md";
    const auto r = cli({"report", (dir / "tf2").string(), "--output", out.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string md = readWhole(out);
    EXPECT_NE(md.find("warmup 100, iterations 600"), std::string::npos) << md;
    EXPECT_EQ(md.find("warmup 20, iterations 120"), std::string::npos) << md;

    // The saved table holds the same medians, and its note says the window.
    const auto data = dir / "data";
    ::setenv("XDG_DATA_HOME", data.c_str(), 1);
    const auto saved = cli({"references", "save", (dir / "tf2").string(), "--id", "tf2-mine",
                            "--title", "mine", "--quiet"});
    ::unsetenv("XDG_DATA_HOME");
    ASSERT_EQ(saved.exitCode, 0) << saved.err;
    const auto table = nlohmann::json::parse(
        readWhole(data / "scaleview" / "references" / "tf2-mine.json"))["tables"][0];
    EXPECT_DOUBLE_EQ(table["throughput"]["2n8g"].get<double>(), medians.at("r50 b128 2n8g"))
        << table.dump();
    EXPECT_NE(table["repeats_note"].get<std::string>().find("warmup 100, iterations 600"),
              std::string::npos)
        << table.dump();
}
