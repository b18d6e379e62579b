// scaleview-cli history on three generated campaigns (the latest regressed in 1n2g only):
// record, idempotence, the trend in every format, --case and --fail-on-regression.

#include "tests/history/historyfixture.h"
#include "tests/support/process.h"

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
    EXPECT_NE(csv.out.find(",true,true\n"), std::string::npos) << csv.out;
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
