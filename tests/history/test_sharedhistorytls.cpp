// The shared history over TLS with sslmode=verify-full, as docs/history.md shows it: a private
// PostgreSQL 15 with a certificate for localhost signed by a CA the test makes, refusing TCP
// without TLS; ScaleView records and reads through it, and a server its CA did not sign is
// refused by libpq's verification.

#include "tests/history/historyfixture.h"
#include "tests/history/postgresserver.h"

#include "history/campaignrecord.h"
#include "history/historydatabase.h"

#include <gtest/gtest.h>

using namespace sv::test;
using sv::history::HistoryDatabase;

TEST(SharedHistoryTls, VerifyFullRecordsAndReadsAndAnotherCaIsRefused) {
    PostgresServer server(/*tls=*/true);
    ASSERT_TRUE(server.ok()) << "the test PostgreSQL server did not start: " << server.error();
    ASSERT_EQ(server.psql("CREATE DATABASE perf").exitCode, 0);
    TempDir dir;
    writeHistoryCampaign(dir / "c1", 1.0, 1.0, 3, "535.104.05");
    const std::string base =
        "postgresql://postgres@localhost:" + std::to_string(server.port()) + "/perf";
    const std::string verified =
        base + "?sslmode=verify-full&sslrootcert=" + server.caFile().string();
    const auto r = cli({"history", "record", (dir / "c1").string(), "--history-db", verified});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("recorded"), std::string::npos) << r.out;
    const auto read = cli({"history", "--format", "json", "--history-db", verified});
    ASSERT_EQ(read.exitCode, 0) << read.err;
    EXPECT_NE(read.out.find("\"driver\": \"535.104.05\""), std::string::npos) << read.out;
    // The server takes no TCP connection without TLS: the record above went over TLS.
    HistoryDatabase plain(base + "?sslmode=disable");
    EXPECT_FALSE(plain.isOpen());
    EXPECT_NE(plain.error().find("no encryption"), std::string::npos) << plain.error();
    // A server whose certificate the given CA did not sign is refused, saying why.
    HistoryDatabase other(base +
                          "?sslmode=verify-full&sslrootcert=" + server.otherCaFile().string());
    EXPECT_FALSE(other.isOpen());
    EXPECT_NE(other.error().find("certificate verify failed"), std::string::npos) << other.error();
}
