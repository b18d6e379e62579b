// scaleview-cli history on three generated campaigns (the latest regressed in 1n2g only):
// record, idempotence, the trend in every format, --case and --fail-on-regression.

#include "tests/history/historyfixture.h"
#include "tests/support/process.h"
#include "tests/support/realworldwriter.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>

using namespace sv::test;

namespace {

// Three campaigns, a week apart; the third's 1n2g runs 15 % slower, its 1n1g as before.
struct ThreeCampaigns {
    TempDir dir;
    std::string db = (dir / "history.sqlite").string();
    ThreeCampaigns() {
        writeHistoryCampaign(dir / "week1", 1.0, 1.0, 21, "535.104.05");
        writeHistoryCampaign(dir / "week2", 1.005, 1.0, 14, "535.104.05");
        writeHistoryCampaign(dir / "week3", 0.998, 0.85, 7, "550.54.14");
    }
};

} // namespace

TEST(CliHistory, ThreeCampaignsFlagTheRegressedCaseOnly) {
    ThreeCampaigns c;
    for (const char* week : {"week1", "week2", "week3"}) {
        const auto r = cli({"history", "record", (c.dir / week).string(), "--history-db", c.db});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        EXPECT_NE(r.out.find("recorded"), std::string::npos) << r.out;
    }
    // The same directory again is one entry.
    const auto again = cli({"history", "record", (c.dir / "week2").string(), "--history-db", c.db});
    EXPECT_EQ(again.exitCode, 0) << again.err;
    EXPECT_NE(again.out.find("already in the history"), std::string::npos) << again.out;

    const auto json = cli({"history", "--format", "json", "--history-db", c.db});
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto j = nlohmann::json::parse(json.out);
    ASSERT_EQ(j["cases"].size(), 2u);
    const auto& one = j["cases"][0];
    const auto& two = j["cases"][1];
    EXPECT_EQ(one["topology"], "1n1g");
    EXPECT_EQ(two["topology"], "1n2g");
    ASSERT_EQ(one["campaigns"].size(), 3u); // not four: week2 twice is one
    EXPECT_EQ(one["campaigns"][0]["label"], "week1");
    EXPECT_EQ(one["campaigns"][2]["label"], "week3");
    EXPECT_EQ(one["campaigns"][2]["driver"], "550.54.14");
    EXPECT_FALSE(one["regression"].get<bool>()) << one["note"];
    EXPECT_TRUE(two["regression"].get<bool>()) << two["note"];
    EXPECT_NEAR(two["campaigns"][2]["median"].get<double>(), 0.85 * 128000 / 1000, 1.0);
    EXPECT_LT(two["campaigns"][2]["max"].get<double>(), two["previous_low"].get<double>());

    const auto fail = cli({"history", "--fail-on-regression", "--history-db", c.db});
    EXPECT_EQ(fail.exitCode, 1) << fail.err;
    EXPECT_NE(fail.out.find("REGRESSION"), std::string::npos) << fail.out;
    const auto fine =
        cli({"history", "--case", "1n1g", "--fail-on-regression", "--history-db", c.db});
    EXPECT_EQ(fine.exitCode, 0) << fine.out;
    EXPECT_EQ(fine.out.find("1n2g"), std::string::npos) << fine.out;
    const auto csv = cli({"history", "--format", "csv", "--case", "1n2g", "--history-db", c.db});
    ASSERT_EQ(csv.exitCode, 0) << csv.err;
    EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 4); // header + 3 campaigns
    // Regressed and beyond noise; the last column, origin, is empty: the history's own campaign.
    EXPECT_NE(csv.out.find(",true,true,\n"), std::string::npos) << csv.out;
}

TEST(CliHistory, EnvironmentVariableLocatesTheDatabaseAndErrorsAreUsage) {
    ThreeCampaigns c;
    ::setenv("SCALEVIEW_HISTORY_DB", c.db.c_str(), 1);
    const auto r = cli({"history", "record", (c.dir / "week1").string()});
    ::unsetenv("SCALEVIEW_HISTORY_DB");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find(c.db), std::string::npos) << r.out;
    EXPECT_EQ(cli({"history", "--format", "xml", "--history-db", c.db}).exitCode, 2);
    EXPECT_EQ(cli({"history", "--case", "two", "--history-db", c.db}).exitCode, 2);
    EXPECT_EQ(cli({"history", "record", "--history-db", c.db}).exitCode, 2);
    const auto missing =
        cli({"history", "record", (c.dir / "nowhere").string(), "--history-db", c.db});
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_NE(missing.err.find("nowhere"), std::string::npos) << missing.err;
}

TEST(CliHistory, CorruptDatabaseIsSetAsideAndTheCommandGoesOn) {
    ThreeCampaigns c;
    writeFile(c.db, std::string(4096, '\x7f'));
    const auto r = cli({"history", "record", (c.dir / "week1").string(), "--history-db", c.db});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find(".broken-"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("recorded"), std::string::npos) << r.out;
}

TEST(CliHistory, VerdictsSayWhatChangedAndAnExpectedOneNoLongerFails) {
    ThreeCampaigns c;
    for (const char* week : {"week1", "week2", "week3"})
        ASSERT_EQ(
            cli({"history", "record", (c.dir / week).string(), "--history-db", c.db}).exitCode, 0);
    const auto fail = cli({"history", "--fail-on-regression", "--history-db", c.db});
    EXPECT_EQ(fail.exitCode, 1);
    EXPECT_NE(fail.err.find("checked 2 cases"), std::string::npos) << fail.err;
    EXPECT_NE(fail.err.find("false discovery rate of 5.0 %): 1 regression, 0 marked expected"),
              std::string::npos)
        << fail.err;
    EXPECT_NE(fail.out.find("changed at the latest campaign: driver 535.104.05 -> 550.54.14"),
              std::string::npos)
        << fail.out;
    auto j = nlohmann::json::parse(cli({"history", "--format", "json", "--history-db", c.db}).out);
    const auto& two = j["cases"][1];
    ASSERT_EQ(two["changed"].size(), 1u);
    EXPECT_EQ(two["changed"][0]["what"], "driver");
    EXPECT_EQ(two["changed"][0]["a"], "535.104.05");
    EXPECT_EQ(two["changed"][0]["b"], "550.54.14");
    EXPECT_TRUE(two["discovery"].get<bool>());
    EXPECT_LT(two["p_value"].get<double>(), 0.001);
    EXPECT_EQ(j["check"]["tested"], 2);

    ::setenv("USER", "ana", 1);
    const auto mark = cli({"history", "expect", "--case", "1n2g", "--campaign", "week3", "--why",
                           "driver 550 costs 15 % here, accepted", "--history-db", c.db});
    EXPECT_EQ(mark.exitCode, 0) << mark.err;
    EXPECT_NE(mark.out.find("by ana"), std::string::npos) << mark.out;
    const auto pass = cli({"history", "--fail-on-regression", "--history-db", c.db});
    EXPECT_EQ(pass.exitCode, 0) << pass.out;
    EXPECT_NE(pass.out.find("EXPECTED: regression"), std::string::npos) << pass.out;
    EXPECT_NE(pass.err.find("0 regressions, 1 marked expected"), std::string::npos) << pass.err;
    j = nlohmann::json::parse(cli({"history", "--format", "json", "--history-db", c.db}).out);
    EXPECT_EQ(j["cases"][1]["expected"]["who"], "ana");
    EXPECT_EQ(j["cases"][1]["expected"]["why"], "driver 550 costs 15 % here, accepted");
    EXPECT_FALSE(j["cases"][1]["fails_check"].get<bool>());
    // A mark needs its case, campaign and reason.
    EXPECT_EQ(
        cli({"history", "expect", "--case", "1n2g", "--campaign", "week3", "--history-db", c.db})
            .exitCode,
        2);
    const auto unknown = cli({"history", "expect", "--case", "4n8g", "--campaign", "week3", "--why",
                              "x", "--history-db", c.db});
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_NE(unknown.err.find("its cases: r50 fp32 bs64 1n1g"), std::string::npos) << unknown.err;
    EXPECT_EQ(cli({"history", "--fdr", "2", "--history-db", c.db}).exitCode, 2);
}

// A case read from a log's own reports (gluon-nlp, tokens/s) says so, and its unit, in the
// history's table: not "time method, images/s" (issue 26, item 5: everything downstream).
TEST(CliHistory, ALogsOwnReportsAreSaidWithTheirUnit) {
    TempDir dir;
    writeFile(dir / "nlp" / "bert_base_pretrain.log",
              gluonnlpLog("0,1,2,3,4,5,6,7", 40, [](int) { return 133000.0; }));
    const std::string db = (dir / "history.sqlite").string();
    const auto r = cli({"history", "record", (dir / "nlp").string(), "--history-db", db});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto table = cli({"history", "--history-db", db});
    ASSERT_EQ(table.exitCode, 0) << table.err;
    EXPECT_NE(table.out.find("(the log's own reports, tokens/s)"), std::string::npos) << table.out;
    EXPECT_EQ(table.out.find("images/s"), std::string::npos) << table.out;

    ThreeCampaigns c;
    ASSERT_EQ(cli({"history", "record", (c.dir / "week1").string(), "--history-db", c.db}).exitCode,
              0);
    const auto mxnet = cli({"history", "--history-db", c.db});
    EXPECT_NE(mxnet.out.find("(time method, images/s)"), std::string::npos) << mxnet.out;
}

// Logs from elsewhere (issue 29, item 2): their parameter dumps are their environment. Two
// campaigns whose Namespace lines differ in lr: the history's verdict says log.lr changed, also
// after the history was moved into another store (import), and the per-repeat seed does not.
TEST(CliHistory, LogsFromElsewhereSayWhichOfTheirParametersChanged) {
    TempDir dir;
    const auto write = [&](const std::string& name, const std::string& lr, double speed) {
        for (int p = 0; p < 3; ++p) {
            RunSpec spec;
            spec.stepMs = static_cast<std::int64_t>((1000 + 5 * p) / speed);
            const double rate = 128000.0 / static_cast<double>(spec.stepMs);
            std::string log = makeLog(spec, [rate](int, int) { return std::to_string(rate); });
            const std::string dump = "Namespace(arch='resnetv15', batch_size=256)";
            log.replace(log.find(dump), dump.size(),
                        "Namespace(arch='resnetv15', batch_size=128, lr=" + lr +
                            ", seed=" + std::to_string(p) + ")");
            writeFile(dir / name / "1n1g" / ("r50_b128_fp32_" + std::to_string(p + 1) + ".log"),
                      log);
        }
    };
    write("before", "0.256", 1.0);
    write("after", "0.512", 0.8);
    const std::string db = (dir / "history.sqlite").string();
    for (const char* name : {"before", "after"})
        ASSERT_EQ(cli({"history", "record", (dir / name).string(), "--history-db", db}).exitCode,
                  0);
    const auto changedIn = [](const std::string& store) {
        const auto r = cli({"history", "--format", "json", "--history-db", store});
        EXPECT_EQ(r.exitCode, 0) << r.err;
        const auto j = nlohmann::json::parse(r.out);
        return j["cases"].empty() ? nlohmann::json() : j["cases"][0]["changed"];
    };
    const auto changed = changedIn(db);
    bool lr = false;
    for (const auto& c : changed) {
        EXPECT_NE(c["what"], "log.seed") << changed.dump();
        if (c["what"] == "log.lr" && c["a"] == "0.256" && c["b"] == "0.512") lr = true;
    }
    EXPECT_TRUE(lr) << changed.dump();
    const std::string moved = (dir / "moved.sqlite").string();
    ASSERT_EQ(cli({"history", "import", db, "--history-db", moved}).exitCode, 0);
    EXPECT_EQ(changedIn(moved), changed);
}
