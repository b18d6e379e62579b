// ScaleView's local workload (PyTorch on CPU ranks) prints NGC MXNet's line format. The command
// line says what ran, as the app's pages do: PyTorch on CPU, per rank, a "ranks" column, in the
// text table, CSV, JSON and the HTML report; a DLPerf tree without the header keeps NGC MXNet
// and its GPUs. And an interval of three repeats is said to be their min-max, as in the app.

#include "tests/support/files.h"
#include "tests/support/logwriter.h"
#include "tests/support/process.h"
#include "tests/support/workloadlog.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sv::test;

namespace {

std::filesystem::path logPath(const std::filesystem::path& root, int ranks, int repeat) {
    return root / "bz64" / ("1n" + std::to_string(ranks) + "g") /
           ("r50_b64_fp32_" + std::to_string(repeat) + ".log");
}

std::string runText(int ranks, int repeat) {
    RunSpec spec;
    spec.ranks = ranks;
    spec.stepMs = 500 + 5 * repeat + 10 * ranks;
    const double rate = 1000.0 * 64 * ranks / static_cast<double>(spec.stepMs);
    return makeLog(spec, [rate](int, int) { return std::to_string(rate); });
}

// 1n1g and 1n2g, three repeats each.
void writeTree(const std::filesystem::path& root, bool header) {
    for (int ranks : {1, 2})
        for (int p = 1; p <= 3; ++p) {
            const std::string log = runText(ranks, p);
            writeFile(logPath(root, ranks, p), header ? withWorkloadHeader(log, ranks) : log);
        }
}

} // namespace

TEST(CpuRanksCli, TheLocalWorkloadIsPyTorchOnCpuRanksInEveryOutput) {
    TempDir dir;
    writeTree(dir.path(), true);
    const auto text = cli({"summarize", dir.path().string()});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("PyTorch 1.13.1 on CPU (ScaleView's local workload, logs in NGC "
                            "MXNet's format)"),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find(" per rank"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("per GPU"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("nodes  ranks"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("GPUs"), std::string::npos) << text.out;
    // Three repeats: the interval is their min-max, marked and said as such.
    EXPECT_NE(text.out.find("*  "), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("95 % CI marked *: the repeats' min-max"), std::string::npos)
        << text.out;

    const auto json = cli({"summarize", dir.path().string(), "--format", "json"});
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto j = nlohmann::json::parse(json.out);
    EXPECT_EQ(j["workload"]["framework"], "PyTorch 1.13.1");
    EXPECT_EQ(j["workload"]["device"], "CPU");
    ASSERT_FALSE(j["cases"].empty());
    for (const auto& c : j["cases"]) {
        EXPECT_EQ(c["framework"], "PyTorch 1.13.1 on CPU");
        EXPECT_EQ(c["format"], "ngc-mxnet"); // the lines' format is still said
        EXPECT_EQ(c["median_ci95_kind"], "min-max");
    }
    for (const auto& r : j["runs"])
        EXPECT_EQ(r["framework"], "PyTorch 1.13.1 on CPU");

    const auto csv = cli({"summarize", dir.path().string(), "--format", "csv"});
    ASSERT_EQ(csv.exitCode, 0) << csv.err;
    EXPECT_NE(csv.out.find(",PyTorch 1.13.1 on CPU,ngc-mxnet,"), std::string::npos) << csv.out;
    EXPECT_EQ(csv.out.find("NGC MXNet"), std::string::npos) << csv.out;

    const auto html = dir.path() / "report.html";
    const auto report = cli({"report", dir.path().string(), "--output", html.string()});
    ASSERT_EQ(report.exitCode, 0) << report.err;
    const std::string page = readWhole(html);
    EXPECT_NE(page.find("<th>ranks</th>"), std::string::npos);
    EXPECT_EQ(page.find("<th>GPUs</th>"), std::string::npos);
    EXPECT_NE(page.find(" (min–max)</td>"), std::string::npos);
}

TEST(CpuRanksCli, ATreeWithoutTheHeaderKeepsNgcMxnetAndGpus) {
    TempDir dir;
    writeTree(dir.path(), false);
    const auto text = cli({"summarize", dir.path().string()});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("NGC MXNet  r50"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find(" per GPU"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("nodes  GPUs"), std::string::npos) << text.out;
    const auto j =
        nlohmann::json::parse(cli({"summarize", dir.path().string(), "--format", "json"}).out);
    EXPECT_TRUE(j["workload"].is_null());
    EXPECT_EQ(j["cases"][0]["framework"], "NGC MXNet");
}

// One log of the tree without the header (a DLPerf log copied in): the tree is not one
// workload's, and the usual words hold, as in the app.
TEST(CpuRanksCli, OneLogWithoutTheHeaderMakesTheTreeNotTheWorkloads) {
    TempDir dir;
    writeTree(dir.path(), true);
    writeFile(logPath(dir.path(), 1, 1), runText(1, 1));
    const auto j =
        nlohmann::json::parse(cli({"summarize", dir.path().string(), "--format", "json"}).out);
    EXPECT_TRUE(j["workload"].is_null());
    EXPECT_EQ(j["cases"][0]["framework"], "NGC MXNet");
}
