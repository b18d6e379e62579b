// Per-node health across campaigns (issue 28 item 3): each campaign recorded in the history keeps
// its nodes' probe figures from probes.json; a node that slows in the latest campaign is flagged
// against its own history and its peers, with the evidence; a quiet history flags none. SQLite
// here; the same on a real PostgreSQL in NodeHistoryPostgres.

#include "tests/history/historyfixture.h"
#include "tests/history/postgressuite.h"
#include "tests/support/process.h"

#include "history/campaignrecord.h"
#include "history/historydatabase.h"
#include "history/historyimport.h"
#include "history/nodehistory.h"

#include <QSqlDatabase>
#include <QSqlQuery>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sv::test;
using sv::history::HistoryDatabase;

namespace {

// Node paces per device: n1..n4 near 100 with a little noise, node n3 at paceN3.
void writeProbes(const std::filesystem::path& root, int week, double paceN3) {
    const double jitter[] = {0.0, 0.4, -0.3};
    std::string text = R"({"probes": [)";
    const double base[] = {100.0, 99.0, 0.0, 101.0};
    for (int n = 0; n < 4; ++n) {
        const double pace = n == 2 ? paceN3 : base[n] + jitter[week % 3];
        text += std::string(n ? "," : "") + R"({"kind": "solo", "topology": "4n2g", "model": "r50",
          "precision": "fp32", "batch_size_per_device": 64, "node": "n)" +
                std::to_string(n + 1) + R"(", "devices": 2, "pace_per_device": )" +
                std::to_string(pace) + "}";
    }
    writeFile(root / "probes.json", text + "]}");
}

// Three weekly campaigns (their logs differ a little, so each is an entry of its own); n3 runs at
// the given paces, week by week.
struct ThreeWeeks {
    TempDir dir;
    ThreeWeeks(double w1, double w2, double w3) {
        const double paces[] = {w1, w2, w3};
        for (int w = 0; w < 3; ++w) {
            const auto root = dir / ("week" + std::to_string(w + 1));
            writeHistoryCampaign(root, 1.0 + 0.003 * w, 1.0, 21 - 7 * w);
            writeProbes(root, w, paces[w]);
        }
    }
    void recordInto(HistoryDatabase& db) const {
        for (int w = 1; w <= 3; ++w) {
            const auto read = sv::history::readCampaign(dir / ("week" + std::to_string(w)));
            ASSERT_TRUE(read.record) << read.error;
            ASSERT_EQ(read.record->nodeProbes.size(), 4u);
            const auto r = db.record(*read.record);
            ASSERT_EQ(r.outcome, HistoryDatabase::Outcome::Added) << r.message;
        }
    }
};

const sv::history::NodeHealth& nodeNamed(const std::vector<sv::history::NodeHealth>& all,
                                         const std::string& name) {
    for (const auto& h : all)
        if (h.node == name) return h;
    throw std::runtime_error("no node " + name);
}

void expectSlowN3(HistoryDatabase& db) {
    std::string error;
    const auto obs = db.nodeObservations(&error);
    ASSERT_TRUE(obs) << error;
    EXPECT_EQ(obs->size(), 12u); // four nodes, three campaigns
    const auto nodes = sv::history::nodeHealth(*obs);
    ASSERT_EQ(nodes.size(), 4u);
    const auto& n3 = nodeNamed(nodes, "n3");
    ASSERT_EQ(n3.history.size(), 3u);
    EXPECT_EQ(n3.history[0].campaignLabel, "week1");
    EXPECT_EQ(n3.history[2].campaignLabel, "week3");
    EXPECT_DOUBLE_EQ(n3.latestPace, 88.0);
    ASSERT_TRUE(n3.trendPct && n3.peerPct);
    EXPECT_NEAR(*n3.trendPct, 100.0 * (88.0 / 100.25 - 1.0), 1e-9); // own median of 100.0, 100.5
    EXPECT_NEAR(*n3.peerPct, 100.0 * (88.0 / 99.7 - 1.0), 1e-9);    // n1 99.7, n2 98.7, n4 100.7
    EXPECT_TRUE(n3.slowerThanItself);
    EXPECT_TRUE(n3.slowerThanPeers);
    EXPECT_NE(n3.evidence.find("slower than its own history"), std::string::npos) << n3.evidence;
    EXPECT_NE(n3.evidence.find("against the median of the 3 other nodes in week3"),
              std::string::npos)
        << n3.evidence;
    for (const char* other : {"n1", "n2", "n4"})
        EXPECT_FALSE(nodeNamed(nodes, other).flagged()) << nodeNamed(nodes, other).evidence;
}

} // namespace

TEST(NodeHistory, OneNodeSlowerInTheThirdCampaignIsFlagged) {
    ThreeWeeks weeks(100.0, 100.5, 88.0);
    HistoryDatabase db(weeks.dir / "history.sqlite");
    ASSERT_TRUE(db.isOpen()) << db.error();
    ASSERT_NO_FATAL_FAILURE(weeks.recordInto(db));
    expectSlowN3(db);
    // An import carries the node probes with the campaigns.
    HistoryDatabase copy(weeks.dir / "copy.sqlite");
    const auto imported = sv::history::HistoryImport(db).into(copy);
    EXPECT_EQ(imported.added, 3);
    expectSlowN3(copy);
}

TEST(NodeHistory, QuietHistoryFlagsNone) {
    ThreeWeeks weeks(100.0, 100.5, 99.8);
    HistoryDatabase db(weeks.dir / "history.sqlite");
    ASSERT_NO_FATAL_FAILURE(weeks.recordInto(db));
    std::string error;
    const auto nodes = sv::history::nodeHealth(*db.nodeObservations(&error));
    ASSERT_EQ(nodes.size(), 4u);
    for (const auto& h : nodes) {
        EXPECT_FALSE(h.flagged()) << h.node << ": " << h.evidence;
        EXPECT_EQ(h.history.size(), 3u);
    }
}

TEST(NodeHistory, CampaignWithoutProbesRecordsNoNodes) {
    TempDir dir;
    writeHistoryCampaign(dir / "c", 1.0, 1.0, 1);
    HistoryDatabase db(dir / "history.sqlite");
    const auto read = sv::history::readCampaign(dir / "c");
    ASSERT_TRUE(read.record) << read.error;
    EXPECT_TRUE(read.record->nodeProbes.empty());
    ASSERT_EQ(db.record(*read.record).outcome, HistoryDatabase::Outcome::Added);
    std::string error;
    const auto obs = db.nodeObservations(&error);
    ASSERT_TRUE(obs) << error;
    EXPECT_TRUE(obs->empty());
    // A broken probes.json: the campaign is still recorded, the reason said.
    writeHistoryCampaign(dir / "d", 1.01, 1.0, 1);
    writeFile(dir / "d" / "probes.json", R"({"probes": [{"kind": "solo"}]})");
    const auto bad = sv::history::readCampaign(dir / "d");
    ASSERT_TRUE(bad.record) << bad.error;
    ASSERT_FALSE(bad.warnings.empty());
    EXPECT_NE(bad.warnings.back().find("node probes not recorded: "), std::string::npos);
    EXPECT_NE(bad.warnings.back().find("probes[0]"), std::string::npos) << bad.warnings.back();
}

TEST(NodeHistory, AVersion2HistoryGainsTheNodeTableAndKeepsItsCampaigns) {
    ThreeWeeks weeks(100.0, 100.5, 88.0);
    const auto file = weeks.dir / "history.sqlite";
    {
        HistoryDatabase db(file);
        const auto read = sv::history::readCampaign(weeks.dir / "week1");
        ASSERT_TRUE(read.record) << read.error;
        ASSERT_EQ(db.record(*read.record).outcome, HistoryDatabase::Outcome::Added);
    }
    { // back to what version 2 wrote: no node_probes table
        QSqlDatabase raw = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), "v2");
        raw.setDatabaseName(QString::fromStdString(file.string()));
        ASSERT_TRUE(raw.open());
        QSqlQuery q(raw);
        ASSERT_TRUE(q.exec("DROP TABLE node_probes"));
        ASSERT_TRUE(q.exec("PRAGMA user_version = 2"));
        q.finish();
        raw.close();
    }
    QSqlDatabase::removeDatabase("v2");
    HistoryDatabase db(file);
    ASSERT_TRUE(db.isOpen()) << db.error();
    std::string error;
    const auto before = db.nodeObservations(&error);
    ASSERT_TRUE(before) << error;
    EXPECT_TRUE(before->empty()); // week1's node figures went with the table
    for (const char* week : {"week2", "week3"}) {
        const auto read = sv::history::readCampaign(weeks.dir / week);
        ASSERT_EQ(db.record(*read.record).outcome, HistoryDatabase::Outcome::Added);
    }
    EXPECT_EQ(db.campaigns(&error)->size(), 3u);
    EXPECT_EQ(db.nodeObservations(&error)->size(), 8u);
}

TEST(CliNodes, ListsTheNodesAndFlagsTheSlowOneWithEvidence) {
    ThreeWeeks weeks(100.0, 100.5, 88.0);
    const std::string db = (weeks.dir / "history.sqlite").string();
    for (const char* week : {"week1", "week2", "week3"}) {
        const auto r = cli({"history", "record", (weeks.dir / week).string(), "--history-db", db});
        ASSERT_EQ(r.exitCode, 0) << r.err;
    }
    const auto json = cli({"nodes", "--format", "json", "--history-db", db});
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto j = nlohmann::json::parse(json.out);
    ASSERT_EQ(j["nodes"].size(), 4u);
    EXPECT_EQ(j["flagged"], nlohmann::json::array({"n3"}));
    const auto& n3 = j["nodes"][2];
    EXPECT_EQ(n3["node"], "n3");
    EXPECT_EQ(n3["workload"], "r50 fp32 b64, 2 devices"); // not "2 device(s)"
    EXPECT_DOUBLE_EQ(n3["latest_pace_per_device"].get<double>(), 88.0);
    EXPECT_EQ(n3["history"].size(), 3u);
    EXPECT_TRUE(n3["slower_than_itself"].get<bool>());
    EXPECT_TRUE(n3["slower_than_peers"].get<bool>());
    EXPECT_LT(n3["trend_pct"].get<double>(), -10.0);
    const auto table = cli({"nodes", "--history-db", db});
    ASSERT_EQ(table.exitCode, 0) << table.err;
    EXPECT_NE(table.out.find("SLOWER than itself and peers"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("1 of 4 nodes flagged"), std::string::npos) << table.out;
    EXPECT_EQ(cli({"nodes", "--fail-on-slow-node", "--history-db", db}).exitCode, 1);
    // Looser thresholds than the slowdown: nothing flagged.
    EXPECT_EQ(
        cli({"nodes", "--fail-on-slow-node", "--threshold", "20", "--history-db", db}).exitCode, 0);
    const auto bad = cli({"nodes", "--threshold", "x", "--history-db", db});
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.err.find("--threshold must be a percentage"), std::string::npos) << bad.err;
}

class NodeHistoryPostgres : public PostgresSuite {};

TEST_F(NodeHistoryPostgres, SlowNodeFlaggedOnASharedHistory) {
    ASSERT_NO_FATAL_FAILURE(createDatabase("nodes"));
    ThreeWeeks weeks(100.0, 100.5, 88.0);
    HistoryDatabase db(server->socketUri(this->db));
    ASSERT_TRUE(db.isOpen()) << db.error();
    ASSERT_NO_FATAL_FAILURE(weeks.recordInto(db));
    expectSlowN3(db);
    EXPECT_EQ(query("SELECT count(*) FROM node_probes"), "12\n");
}
