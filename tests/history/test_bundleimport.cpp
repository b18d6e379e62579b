// Another site's campaign imported from its bundle (issue 39): verified first, recorded with its
// origin, on a SQLite file and on a private PostgreSQL server; a tampered bundle is not recorded.

#include "tests/history/historyfixture.h"
#include "tests/history/postgressuite.h"
#include "tests/support/process.h"

#include "core/bundle/bundlewriter.h"
#include "history/bundlecampaign.h"
#include "history/historydatabase.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>

using namespace sv::test;
using sv::history::HistoryDatabase;

namespace {

namespace fs = std::filesystem;

// Site A's campaign, bundled by "alice@site-a"; the bundle's path.
fs::path bundleOfSiteA(const TempDir& dir) {
    writeHistoryCampaign(dir / "site-a-campaign", 1.0, 1.9, 3, "535.104.05");
    sv::BundleRequest r;
    r.campaignDir = dir / "site-a-campaign";
    r.windowSource = "dlperf";
    r.scaleviewVersion = "0.1.0";
    r.createdBy = "alice@site-a";
    r.created = "2026-11-30T10:00:00Z";
    const sv::BundleBuilt built = sv::buildBundle(r);
    EXPECT_FALSE(built.error) << *built.error;
    const fs::path file = dir / "site-a.svbundle";
    std::ofstream(file, std::ios::binary) << built.bytes;
    return file;
}

void expectImportedWithOrigin(HistoryDatabase& db, const fs::path& bundle) {
    const auto read = sv::history::readBundleCampaign(bundle, "0.1.0");
    ASSERT_TRUE(read.record) << read.error;
    const auto result = db.record(*read.record);
    ASSERT_EQ(result.outcome, HistoryDatabase::Outcome::Added) << result.message;
    std::string error;
    const auto stored = db.campaigns(&error);
    ASSERT_TRUE(stored) << error;
    ASSERT_EQ(stored->size(), 1u);
    const auto& c = stored->front().record;
    ASSERT_TRUE(c.origin);
    EXPECT_EQ(c.origin->bundledBy, "alice@site-a");
    EXPECT_EQ(c.origin->bundledAt, "2026-11-30T10:00:00Z");
    EXPECT_EQ(c.origin->scaleviewVersion, "0.1.0");
    EXPECT_EQ(c.origin->bundleFile, fs::absolute(bundle).lexically_normal().string());
    EXPECT_EQ(c.label, "site-a-campaign");
    ASSERT_EQ(c.cases.size(), 2u);
    // The figures are the logs': 1n2g at 1.9 times 1n1g's pace, 64 per rank per step.
    EXPECT_NEAR(c.cases[1].median / c.cases[0].median, 2 * 1.9, 0.1);
    EXPECT_EQ(c.environment.driver, "535.104.05");
    // The same bundle again is the same campaign: nothing added.
    EXPECT_EQ(db.record(*read.record).outcome, HistoryDatabase::Outcome::AlreadyRecorded);
}

TEST(BundleImport, AVerifiedBundleIsRecordedWithItsOriginInSqlite) {
    TempDir dir;
    const fs::path bundle = bundleOfSiteA(dir);
    HistoryDatabase db((dir / "history.sqlite").string());
    ASSERT_TRUE(db.isOpen()) << db.error();
    expectImportedWithOrigin(db, bundle);
}

TEST(BundleImport, ATamperedBundleIsNotRecorded) {
    TempDir dir;
    const fs::path bundle = bundleOfSiteA(dir);
    std::string bytes = readWhole(bundle);
    bytes[bytes.size() / 2] ^= 0x20;
    std::ofstream(bundle, std::ios::binary | std::ios::trunc) << bytes;
    const auto read = sv::history::readBundleCampaign(bundle, "0.1.0");
    EXPECT_FALSE(read.record);
    EXPECT_NE(read.error.find("is not verified, so not recorded"), std::string::npos) << read.error;
    // And through the command line: exit 2, the history left without it.
    const auto r = runProcess({SCALEVIEW_CLI, "history", "import", bundle.string(), "--history-db",
                               (dir / "h.sqlite").string()});
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("not verified"), std::string::npos) << r.err;
}

TEST(BundleImport, TheCommandLineSaysWhoBundledIt) {
    TempDir dir;
    const fs::path bundle = bundleOfSiteA(dir);
    const auto r = runProcess({SCALEVIEW_CLI, "history", "import", bundle.string(), "--history-db",
                               (dir / "h.sqlite").string()});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("(bundled by alice@site-a on 2026-11-30T10:00:00Z)"), std::string::npos)
        << r.out;
}

// A signed bundle's key goes with its origin.
TEST(BundleImport, ASignedBundlesKeyIsRecorded) {
    TempDir dir;
    writeHistoryCampaign(dir / "camp", 1.0, 1.9, 3);
    ASSERT_EQ(runProcess({"/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f",
                          (dir / "key").string()})
                  .exitCode,
              0);
    const std::string bundle = (dir / "signed.svbundle").string();
    auto made = runProcess({SCALEVIEW_CLI, "bundle", (dir / "camp").string(), "-o", bundle,
                            "--sign", (dir / "key").string()});
    ASSERT_EQ(made.exitCode, 0) << made.err;
    const std::string db = (dir / "h.sqlite").string();
    auto r = runProcess({SCALEVIEW_CLI, "history", "import", bundle, "--history-db", db});
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    EXPECT_NE(r.out.find(", signed with ED25519 key SHA256:"), std::string::npos) << r.out;
    HistoryDatabase history(db);
    std::string error;
    const auto stored = history.campaigns(&error);
    ASSERT_TRUE(stored && stored->size() == 1) << error;
    ASSERT_TRUE(stored->front().record.origin);
    EXPECT_EQ(stored->front().record.origin->signatureKey.rfind("ED25519 key SHA256:", 0), 0u)
        << stored->front().record.origin->signatureKey;
}

// Every listing of the history says where another site's campaign came from, and says nothing of
// the kind for the history's own.
void expectListingsSayTheOrigin(const std::string& history) {
    const std::string origin = "from site-a.svbundle, bundled by alice@site-a on "
                               "2026-11-30T10:00:00Z, not signed";
    const auto table = cli({"history", "--history-db", history});
    ASSERT_EQ(table.exitCode, 0) << table.err;
    // Under site A's row, and only there: one line per case it has.
    const auto at = table.out.find("site-a-campaign");
    ASSERT_NE(at, std::string::npos) << table.out;
    EXPECT_EQ(table.out.find(origin), table.out.find('\n', at) + 1 + 24) << table.out;
    std::size_t lines = 0;
    for (auto i = table.out.find(origin); i != std::string::npos; i = table.out.find(origin, i + 1))
        ++lines;
    EXPECT_EQ(lines, 2u) << table.out;
    const auto csv = cli({"history", "--format", "csv", "--history-db", history});
    ASSERT_EQ(csv.exitCode, 0) << csv.err;
    EXPECT_NE(csv.out.find(",regression,origin\n"), std::string::npos) << csv.out;
    // Site A's campaign is the latest (its time is the bundle's); the history's own has none.
    EXPECT_NE(csv.out.find(",true,false,\"" + origin + "\"\n"), std::string::npos) << csv.out;
    EXPECT_NE(csv.out.find(",false,false,\n"), std::string::npos) << csv.out;
    const auto json = cli({"history", "--format", "json", "--history-db", history});
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto doc = nlohmann::json::parse(json.out);
    int imported = 0, own = 0;
    for (const auto& c : doc["cases"])
        for (const auto& p : c["campaigns"]) {
            if (p["label"] == "site-a-campaign") {
                ++imported;
                EXPECT_EQ(p["origin"]["bundled_by"], "alice@site-a");
                EXPECT_EQ(p["origin"]["bundled_at"], "2026-11-30T10:00:00Z");
                EXPECT_TRUE(p["origin"]["signature_key"].is_null());
                EXPECT_EQ(p["origin"]["text"], origin);
            } else {
                ++own;
                EXPECT_TRUE(p["origin"].is_null()) << p.dump();
            }
        }
    EXPECT_EQ(imported, 2);
    EXPECT_EQ(own, 2);
}

// The history's own campaign, then site A's from its bundle, into history (a file or a URI).
void recordOwnAndSiteA(const TempDir& dir, const std::string& history) {
    writeHistoryCampaign(dir / "ours", 1.02, 1.9, 10, "535.104.05");
    const auto own = cli({"history", "record", (dir / "ours").string(), "--history-db", history});
    ASSERT_EQ(own.exitCode, 0) << own.err;
    const auto imported =
        cli({"history", "import", bundleOfSiteA(dir).string(), "--history-db", history});
    ASSERT_EQ(imported.exitCode, 0) << imported.out << imported.err;
}

TEST(BundleImport, EveryListingSaysWhereAnImportedCampaignCameFromInSqlite) {
    TempDir dir;
    const std::string history = (dir / "h.sqlite").string();
    ASSERT_NO_FATAL_FAILURE(recordOwnAndSiteA(dir, history));
    expectListingsSayTheOrigin(history);
}

class BundleImportPostgres : public PostgresSuite {};

// Moving a SQLite history to the shared server keeps where each campaign came from.
TEST_F(BundleImportPostgres, MovingASqliteHistoryInKeepsItsOriginsAndListsThem) {
    ASSERT_NO_FATAL_FAILURE(createDatabase("moved"));
    TempDir dir;
    const std::string local = (dir / "h.sqlite").string();
    ASSERT_NO_FATAL_FAILURE(recordOwnAndSiteA(dir, local));
    const std::string uri = server->socketUri(this->db);
    const auto moved = cli({"history", "import", local, "--history-db", uri});
    ASSERT_EQ(moved.exitCode, 0) << moved.out << moved.err;
    EXPECT_NE(moved.out.find("2 campaigns added"), std::string::npos) << moved.out;
    EXPECT_EQ(query("SELECT o.bundled_by, o.bundled_at, o.signature_key = '' FROM campaign_origins"
                    " o JOIN campaigns c ON c.id = o.campaign_id WHERE c.label ="
                    " 'site-a-campaign'"),
              "alice@site-a|2026-11-30T10:00:00Z|t\n");
    EXPECT_EQ(query("SELECT count(*) FROM campaign_origins"), "1\n");
    expectListingsSayTheOrigin(uri);
    // The same listing from both stores, origins and all.
    const auto a = cli({"history", "--format", "json", "--history-db", local});
    const auto b = cli({"history", "--format", "json", "--history-db", uri});
    auto ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
    ja.erase("database");
    jb.erase("database");
    EXPECT_EQ(ja, jb);
}

TEST_F(BundleImportPostgres, EveryListingSaysWhereAnImportedCampaignCameFrom) {
    ASSERT_NO_FATAL_FAILURE(createDatabase("listed"));
    TempDir dir;
    const std::string uri = server->socketUri(this->db);
    ASSERT_NO_FATAL_FAILURE(recordOwnAndSiteA(dir, uri));
    expectListingsSayTheOrigin(uri);
}

TEST_F(BundleImportPostgres, AVerifiedBundleIsRecordedWithItsOrigin) {
    ASSERT_NO_FATAL_FAILURE(createDatabase("bundles"));
    TempDir dir;
    const fs::path bundle = bundleOfSiteA(dir);
    HistoryDatabase db(server->socketUri(this->db));
    ASSERT_TRUE(db.isOpen()) << db.error();
    expectImportedWithOrigin(db, bundle);
    EXPECT_EQ(query("SELECT bundled_by FROM campaign_origins"), "alice@site-a\n");
}

} // namespace
