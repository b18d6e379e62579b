// scaleview-cli compare on real generated log trees: a tree against itself, a faster tree,
// labels and formats.

#include "tests/support/logwriter.h"
#include "tests/support/process.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>

using namespace sv::test;

namespace {

ProcessResult cliRun(std::vector<std::string> args) {
    args.insert(args.begin(), SCALEVIEW_CLI);
    return runProcess(args);
}

// 1n1g and 1n2g, five repeats with a little spread, every iteration taking step(p) / speedup ms.
void writeTree(const std::filesystem::path& root, double speedup) {
    const int steps[] = {1000, 1008, 995, 1004, 992};
    for (int p = 0; p < 5; ++p)
        for (auto [topo, ranks] : {std::pair{"1n1g", 1}, std::pair{"1n2g", 2}}) {
            RunSpec spec;
            spec.ranks = ranks;
            spec.stepMs = std::lround(steps[p] / speedup);
            const double rate = 1000.0 * 64 * ranks / static_cast<double>(spec.stepMs);
            writeFile(root / topo / ("r50_b64_fp32_" + std::to_string(p + 1) + ".log"),
                      makeLog(spec, [rate](int, int) { return std::to_string(rate); }));
        }
}

} // namespace

TEST(CliCompare, SameTreeAgainstItselfIsNoDifferenceEverywhere) {
    TempDir dir;
    writeTree(dir / "run", 1.0);
    const auto r =
        cliRun({"compare", (dir / "run").string(), (dir / "run").string(), "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["cases"].size(), 2u);
    for (const auto& c : j["cases"]) {
        EXPECT_EQ(c["verdict"], "no-difference") << c.dump();
        EXPECT_DOUBLE_EQ(c["ratio"].get<double>(), 1.0);
        EXPECT_LE(c["ratio_ci95"][0].get<double>(), 1.0);
        EXPECT_GE(c["ratio_ci95"][1].get<double>(), 1.0);
    }
    // Two series of the same name are told apart.
    EXPECT_EQ(j["series"][0]["label"], "run");
    EXPECT_EQ(j["series"][1]["label"], "run (2)");
}

TEST(CliCompare, TenPercentFasterTreeIsFaster) {
    TempDir dir;
    writeTree(dir / "before", 1.0);
    writeTree(dir / "after", 1.1);
    const auto r = cliRun(
        {"compare", (dir / "before").string(), (dir / "after").string(), "--format", "json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["cases"].size(), 2u);
    for (const auto& c : j["cases"]) {
        EXPECT_EQ(c["verdict"], "faster") << c.dump();
        EXPECT_NEAR(c["ratio"].get<double>(), 1.1, 0.01);
        EXPECT_GT(c["ratio_ci95"][0].get<double>(), 1.0);
        EXPECT_GT(c["series"][1].get<double>(), c["series"][0].get<double>());
    }
    EXPECT_EQ(j["series"][0]["method"], "time");
    // The table names the series by --label and says the verdict.
    const auto t = cliRun({"compare", (dir / "before").string(), (dir / "after").string(),
                           "--label", "october", "--label", "november"});
    ASSERT_EQ(t.exitCode, 0) << t.err;
    EXPECT_NE(t.out.find("november / october"), std::string::npos) << t.out;
    EXPECT_NE(t.out.find("faster"), std::string::npos) << t.out;
}

TEST(CliCompare, CaseInOneTreeOnlyAndCsvMarkdown) {
    TempDir dir;
    writeTree(dir / "a", 1.0);
    writeTree(dir / "b", 1.0);
    std::filesystem::remove_all(dir / "b" / "1n2g");
    const auto r =
        cliRun({"compare", (dir / "a").string(), (dir / "b").string(), "--format", "csv"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("r50,fp32,64,1n2g,"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(",only-in-A,nothing recorded changed\n"), std::string::npos) << r.out;
    const auto md =
        cliRun({"compare", (dir / "b").string(), (dir / "a").string(), "--format", "markdown"});
    ASSERT_EQ(md.exitCode, 0) << md.err;
    EXPECT_NE(md.out.find("| 1 | 2 | - |"), std::string::npos) << md.out;
    EXPECT_NE(md.out.find("only-in-B"), std::string::npos) << md.out;
}

TEST(CliCompare, UsageErrorsSayWhat) {
    TempDir dir;
    writeTree(dir / "a", 1.0);
    auto r = cliRun({"compare", (dir / "a").string()});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("two or more"), std::string::npos) << r.err;
    r = cliRun({"compare", (dir / "a").string(), (dir / "a").string(), "--threshold", "x"});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--threshold"), std::string::npos) << r.err;
    r = cliRun({"compare", (dir / "a").string(), (dir / "missing").string()});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("missing"), std::string::npos) << r.err;
}
