// Another site's campaign imported from its bundle (issue 39): verified first, recorded with its
// origin, on a SQLite file and on a private PostgreSQL server; a tampered bundle is not recorded.

#include "tests/history/historyfixture.h"
#include "tests/history/postgressuite.h"
#include "tests/support/process.h"

#include "core/bundle/bundlewriter.h"
#include "history/bundlecampaign.h"
#include "history/historydatabase.h"

#include <gtest/gtest.h>

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

class BundleImportPostgres : public PostgresSuite {};

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
