// The shared history on a real PostgreSQL 15 the tests start themselves (postgresserver.h):
// record and read over the Unix socket and TCP, writers at once losing and duplicating nothing,
// the same campaign twice, a server killed mid-record, a connection cut mid-record and the one
// retry, a read-only role, SQLite into PostgreSQL, and history paths that are refused.

#include "tests/history/historyfixture.h"
#include "tests/history/postgressuite.h"

#include "history/campaignrecord.h"
#include "history/historydatabase.h"
#include "history/historylocation.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <future>
#include <set>

using namespace sv::test;
using sv::history::CampaignRecord;
using sv::history::HistoryDatabase;
using sv::history::HistoryLocation;
using sv::history::parseHistoryLocation;

namespace {

CampaignRecord readOrFail(const std::filesystem::path& dir) {
    auto read = sv::history::readCampaign(dir);
    EXPECT_TRUE(read.record) << read.error;
    return read.record ? *read.record : CampaignRecord{};
}

// One server for the suite; each test its own database on it.
class SharedHistory : public PostgresSuite {
  protected:
    void SetUp() override { ASSERT_NO_FATAL_FAILURE(createDatabase("t")); }
    std::string uri(const std::string& role = "postgres") const {
        return server->socketUri(db, role);
    }
};

} // namespace

TEST_F(SharedHistory, RecordsAndReadsOverTheSocketAndTcpWithASchemaVersion) {
    TempDir dir;
    writeHistoryCampaign(dir / "c1", 1.0, 1.0, 3, "535.104.05");
    {
        HistoryDatabase h(uri());
        ASSERT_TRUE(h.isOpen()) << h.error();
        EXPECT_TRUE(h.isShared());
        const auto r = h.record(readOrFail(dir / "c1"));
        ASSERT_EQ(r.outcome, HistoryDatabase::Outcome::Added) << r.message;
    }
    EXPECT_EQ(query("SELECT version FROM schema_version"),
              std::to_string(HistoryDatabase::kSchemaVersion) + "\n");
    EXPECT_EQ(query("SELECT count(*) FROM cases"), "2\n");
    HistoryDatabase tcp(server->tcpUri(db));
    ASSERT_TRUE(tcp.isOpen()) << tcp.error();
    std::string error;
    const auto all = tcp.campaigns(&error);
    ASSERT_TRUE(all) << error;
    ASSERT_EQ(all->size(), 1u);
    const CampaignRecord& c = all->front().record;
    EXPECT_EQ(c.label, "c1");
    EXPECT_EQ(c.environment.driver, "535.104.05");
    ASSERT_EQ(c.cases.size(), 2u);
    EXPECT_EQ(c.cases[0].values.size(), 5u);
    EXPECT_NEAR(c.cases[0].median, 64000.0 / 1000, 0.05); // double precision, not float4
    EXPECT_DOUBLE_EQ(c.cases[0].median, readOrFail(dir / "c1").cases[0].median);
}

TEST_F(SharedHistory, TheSameCampaignTwiceAddsNothing) {
    TempDir dir;
    writeHistoryCampaign(dir / "c1", 1.0, 1.0, 3);
    HistoryDatabase h(uri());
    ASSERT_TRUE(h.isOpen()) << h.error();
    EXPECT_EQ(h.record(readOrFail(dir / "c1")).outcome, HistoryDatabase::Outcome::Added);
    std::filesystem::copy(dir / "c1", dir / "copy", std::filesystem::copy_options::recursive);
    const auto again = h.record(readOrFail(dir / "copy"));
    EXPECT_EQ(again.outcome, HistoryDatabase::Outcome::AlreadyRecorded) << again.message;
    EXPECT_NE(again.message.find((dir / "c1").string()), std::string::npos) << again.message;
    EXPECT_EQ(query("SELECT count(*) FROM campaigns"), "1\n");
    EXPECT_EQ(query("SELECT count(*) FROM cases"), "2\n");
}

TEST_F(SharedHistory, WritersAtOnceLoseAndDuplicateNothing) {
    TempDir dir;
    constexpr int kCampaigns = 8;
    std::vector<std::string> forward, backward;
    for (int i = 0; i < kCampaigns; ++i) {
        const auto c = dir / ("night" + std::to_string(i));
        writeHistoryCampaign(c, 1.0 + 0.01 * i, 1.0 - 0.01 * i, kCampaigns - i);
        forward.push_back(c.string());
    }
    backward.assign(forward.rbegin(), forward.rend());
    // Three writer processes at once, two of them in opposite orders, all through the CLI.
    auto writer = [&](const std::vector<std::string>& dirs) {
        std::vector<std::string> args{"history", "record"};
        args.insert(args.end(), dirs.begin(), dirs.end());
        args.insert(args.end(), {"--history-db", uri(), "--quiet"});
        return cli(args);
    };
    auto a = std::async(std::launch::async, writer, forward);
    auto b = std::async(std::launch::async, writer, backward);
    auto c = std::async(std::launch::async, writer, forward);
    int added = 0, already = 0;
    for (auto* f : {&a, &b, &c}) {
        const ProcessResult r = f->get();
        EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
        for (std::size_t at = 0; (at = r.out.find("recorded /", at)) != std::string::npos; ++at)
            ++added;
        for (std::size_t at = 0; (at = r.out.find("already in", at)) != std::string::npos; ++at)
            ++already;
    }
    EXPECT_EQ(added, kCampaigns);
    EXPECT_EQ(already, 2 * kCampaigns);
    EXPECT_EQ(query("SELECT count(*), count(DISTINCT identity) FROM campaigns"),
              std::to_string(kCampaigns) + "|" + std::to_string(kCampaigns) + "\n");
    // Every campaign whole: two cases of five repeats each.
    EXPECT_EQ(query("SELECT count(*) FROM (SELECT campaign_id FROM cases GROUP BY campaign_id"
                    " HAVING count(*) = 2 AND min(runs) = 5) whole"),
              std::to_string(kCampaigns) + "\n");
}

TEST_F(SharedHistory, ServerKilledMidRecordLeavesNothingHalfWritten) {
    TempDir dir;
    writeHistoryCampaign(dir / "c1", 1.0, 1.0, 3);
    writeHistoryCampaign(dir / "c2", 1.01, 0.99, 2);
    const CampaignRecord c2 = readOrFail(dir / "c2");
    {
        HistoryDatabase h(uri());
        ASSERT_TRUE(h.isOpen()) << h.error();
        ASSERT_EQ(h.record(readOrFail(dir / "c1")).outcome, HistoryDatabase::Outcome::Added);
        // After c2's first case row, the server dies as in a crash (pg_ctl stop -m immediate).
        const auto r = h.record(c2, [](int written) {
            if (written == 1) {
                EXPECT_TRUE(server->stopImmediate());
            }
            return true;
        });
        EXPECT_EQ(r.outcome, HistoryDatabase::Outcome::Failed);
        EXPECT_NE(r.message.find("dropped while recording"), std::string::npos) << r.message;
        EXPECT_NE(r.message.find("nothing of it was kept"), std::string::npos) << r.message;
        EXPECT_NE(r.message.find("connecting again failed"), std::string::npos) << r.message;
    }
    ASSERT_TRUE(server->start()) << server->log();
    EXPECT_EQ(query("SELECT string_agg(label, ',') FROM campaigns"), "c1\n");
    EXPECT_EQ(query("SELECT count(*) FROM cases"), "2\n");
    HistoryDatabase h(uri());
    ASSERT_TRUE(h.isOpen()) << h.error();
    EXPECT_EQ(h.record(c2).outcome, HistoryDatabase::Outcome::Added);
    EXPECT_EQ(query("SELECT count(*) FROM cases"), "4\n");
}

TEST_F(SharedHistory, ConnectionCutMidRecordIsRetriedOnce) {
    TempDir dir;
    writeHistoryCampaign(dir / "c1", 1.0, 1.0, 3);
    HistoryDatabase h(uri());
    ASSERT_TRUE(h.isOpen()) << h.error();
    bool cut = false;
    const auto r = h.record(readOrFail(dir / "c1"), [&](int written) {
        if (written == 1 && !cut) {
            cut = true;
            // An administrator (or a failover) ends ScaleView's session mid-transaction.
            const auto killed =
                server->psql("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE "
                             "application_name = 'scaleview' AND datname = '" +
                             db + "'");
            EXPECT_EQ(killed.out, "1\n") << killed.err;
        }
        return true;
    });
    ASSERT_TRUE(cut);
    EXPECT_EQ(r.outcome, HistoryDatabase::Outcome::Added) << r.message;
    EXPECT_NE(r.message.find("tried once more"), std::string::npos) << r.message;
    EXPECT_EQ(query("SELECT count(*) FROM campaigns"), "1\n");
    EXPECT_EQ(query("SELECT count(*) FROM cases"), "2\n");
}

TEST_F(SharedHistory, ReadOnlyRoleBrowsesAndIsRefusedWrites) {
    TempDir dir;
    writeHistoryCampaign(dir / "c1", 1.0, 1.0, 3);
    writeHistoryCampaign(dir / "c2", 1.01, 0.99, 2);
    {
        HistoryDatabase owner(uri());
        ASSERT_EQ(owner.record(readOrFail(dir / "c1")).outcome, HistoryDatabase::Outcome::Added);
    }
    query("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'reader') THEN "
          "CREATE ROLE reader LOGIN; END IF; END $$;"
          "GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader");
    HistoryDatabase reader(uri("reader"));
    ASSERT_TRUE(reader.isOpen()) << reader.error();
    std::string error;
    const auto all = reader.campaigns(&error);
    ASSERT_TRUE(all) << error;
    EXPECT_EQ(all->size(), 1u);
    const auto r = reader.record(readOrFail(dir / "c2"));
    EXPECT_EQ(r.outcome, HistoryDatabase::Outcome::Failed);
    EXPECT_NE(r.message.find("the role reader may read the history"), std::string::npos)
        << r.message;
    const auto viaCli =
        cli({"history", "record", (dir / "c2").string(), "--history-db", uri("reader")});
    EXPECT_EQ(viaCli.exitCode, 2);
    EXPECT_NE(viaCli.err.find("but not write to it"), std::string::npos) << viaCli.err;
    const auto browse = cli({"history", "--format", "json", "--history-db", uri("reader")});
    EXPECT_EQ(browse.exitCode, 0) << browse.err;
    const auto mark = cli({"history", "expect", "--case", "1n2g", "--campaign", "c1", "--why", "x",
                           "--history-db", uri("reader")});
    EXPECT_EQ(mark.exitCode, 2);
    EXPECT_NE(mark.err.find("but not write to it"), std::string::npos) << mark.err;
    EXPECT_EQ(query("SELECT count(*) FROM campaigns"), "1\n");
}

TEST_F(SharedHistory, ImportMovesALocalSqliteHistoryIn) {
    TempDir dir;
    const std::string local = (dir / "history.sqlite").string();
    for (int i = 0; i < 3; ++i) {
        const auto c = dir / ("week" + std::to_string(i));
        writeHistoryCampaign(c, 1.0 + 0.01 * i, 1.0, 21 - 7 * i, "535.104.05");
        ASSERT_EQ(cli({"history", "record", c.string(), "--history-db", local}).exitCode, 0);
    }
    const auto moved = cli({"history", "import", local, "--history-db", uri()});
    ASSERT_EQ(moved.exitCode, 0) << moved.err;
    EXPECT_NE(moved.out.find("3 campaigns added"), std::string::npos) << moved.out;
    const auto again = cli({"history", "import", local, "--history-db", uri()});
    ASSERT_EQ(again.exitCode, 0) << again.err;
    EXPECT_NE(again.out.find("0 campaigns added, 3 already there"), std::string::npos) << again.out;
    // The same trend from both stores, times and all.
    const auto a = cli({"history", "--format", "json", "--history-db", local});
    const auto b = cli({"history", "--format", "json", "--history-db", uri()});
    ASSERT_EQ(a.exitCode, 0) << a.err;
    ASSERT_EQ(b.exitCode, 0) << b.err;
    auto ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
    ja.erase("database");
    jb.erase("database");
    EXPECT_EQ(ja, jb);
    EXPECT_EQ(query("SELECT count(*) FROM cases"), "6\n");
}

// Text from a log is data (issue 36, item 5): a NUL byte in a parameter value, which
// PostgreSQL's text cannot hold and Qt's driver cut short ("unterminated quoted string"), kept
// the whole campaign out of the shared history while SQLite stored it. Both stores now keep the
// campaign, the byte shown as U+2400 (the symbol for NUL) in each, and say the same of it.
TEST_F(SharedHistory, ANulByteInAParameterKeepsTheCampaignInBothStoresAlike) {
    TempDir dir;
    const auto write = [&](const std::string& name, const std::string& note, double speed) {
        for (int p = 0; p < 3; ++p) {
            RunSpec spec;
            spec.stepMs = static_cast<std::int64_t>((1000 + 5 * p) / speed);
            const double rate = 128000.0 / static_cast<double>(spec.stepMs);
            std::string log = makeLog(spec, [rate](int, int) { return std::to_string(rate); });
            const std::string dump = "Namespace(arch='resnetv15', batch_size=256)";
            log.replace(log.find(dump), dump.size(),
                        "Namespace(arch='resnetv15', batch_size=128, note='" + note + "')");
            writeFile(dir / name / "1n1g" / ("r50_b128_fp32_" + std::to_string(p + 1) + ".log"),
                      log);
        }
    };
    write("before", std::string("run\0a", 5), 1.0);
    write("after", std::string("run\0b", 5), 0.8);
    const std::string local = (dir / "history.sqlite").string();
    for (const std::string& store : {local, uri()})
        for (const char* name : {"before", "after"}) {
            const auto r = cli({"history", "record", (dir / name).string(), "--history-db", store});
            EXPECT_EQ(r.exitCode, 0) << store << ": " << r.err;
        }
    EXPECT_EQ(query("SELECT count(*) FROM campaigns"), "2\n");
    const auto a = cli({"history", "--format", "json", "--history-db", local});
    const auto b = cli({"history", "--format", "json", "--history-db", uri()});
    ASSERT_EQ(a.exitCode, 0) << a.err;
    ASSERT_EQ(b.exitCode, 0) << b.err;
    auto ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
    ja.erase("database");
    jb.erase("database");
    EXPECT_EQ(ja, jb);
    bool note = false;
    for (const auto& c : jb["cases"][0]["changed"])
        if (c["what"] == "log.note" && c["a"] == "run\u2400a" && c["b"] == "run\u2400b")
            note = true;
    EXPECT_TRUE(note) << jb["cases"][0]["changed"].dump();
}

// A libpq keyword string is a connection, not a file name (issue 36, item 10): it reaches the
// private server, and nothing named after it appears in the working folder.
TEST_F(SharedHistory, ALibpqKeywordStringRecordsAndReads) {
    TempDir dir;
    writeHistoryCampaign(dir / "c1", 1.0, 1.0, 3);
    const std::string keywords = "host=" + server->socketDir().string() +
                                 " port=" + std::to_string(server->port()) + " dbname = " + db +
                                 " user='postgres'";
    const auto r = runProcess({"/usr/bin/env", "-C", dir.path().string(), SCALEVIEW_CLI, "history",
                               "record", (dir / "c1").string(), "--history-db", keywords});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(query("SELECT count(*) FROM campaigns"), "1\n");
    const auto read = runProcess({"/usr/bin/env", "-C", dir.path().string(), SCALEVIEW_CLI,
                                  "history", "--format", "json", "--history-db", keywords});
    EXPECT_EQ(read.exitCode, 0) << read.err;
    EXPECT_NE(read.out.find("\"label\": \"c1\""), std::string::npos) << read.out;
    for (const auto& e : std::filesystem::directory_iterator(dir.path()))
        EXPECT_EQ(e.path().filename().string().find("host="), std::string::npos) << e.path();
}

TEST(HistoryLocation, ALibpqKeywordStringIsADatabaseAndItsPasswordIsNeverSaid) {
    const HistoryLocation k = parseHistoryLocation(
        "  host=db.example.org port=5433 dbname='perf db' user=ci sslmode = verify-full");
    ASSERT_TRUE(k.isPostgres()) << k.error;
    EXPECT_EQ(k.parameter("host"), "db.example.org");
    EXPECT_EQ(k.parameter("dbname"), "perf db");
    EXPECT_EQ(k.parameter("sslmode"), "verify-full");
    EXPECT_EQ(k.conninfo(),
              "host='db.example.org' port='5433' dbname='perf db' user='ci' sslmode='verify-full'");
    EXPECT_EQ(parseHistoryLocation("dbname='o\\'brien'").parameter("dbname"), "o'brien");
    // A password, wherever it is written, is refused and not repeated.
    for (const char* withPassword :
         {"host=db password=hunter2-secret", "host=db password = 'hunter2-secret' user=ci",
          "sslpassword=hunter2-secret host=db", "postgresql://ci:hunter2-secret@db/x",
          "postgresql://db/x?password=hunter2-secret", "postgres://db/x?sslpassword=hunter2-secret",
          "postgresql://db/x?password=hunter2-secret%zz", "postgresql://ci:hunter2-secret%zz@db/x",
          "postgresql://db/x?password=hunter2-secret&bad%zz=1"}) {
        const HistoryLocation p = parseHistoryLocation(withPassword);
        EXPECT_EQ(p.kind, HistoryLocation::Kind::Invalid) << withPassword;
        EXPECT_EQ(p.error.find("hunter2"), std::string::npos) << p.error;
        EXPECT_NE(p.error.find(".pgpass"), std::string::npos) << p.error;
    }
    EXPECT_EQ(parseHistoryLocation("host=db dbname='unterminated").kind,
              HistoryLocation::Kind::Invalid);
    // A file whose name only looks like one is written as a path.
    EXPECT_EQ(parseHistoryLocation("./host=db").kind, HistoryLocation::Kind::SQLite);
    EXPECT_EQ(parseHistoryLocation("/tmp/a=b.sqlite").kind, HistoryLocation::Kind::SQLite);
}

TEST(CliHistory, AKeywordStringWithAPasswordMakesNoFileAndIsNotRepeated) {
    TempDir dir;
    writeHistoryCampaign(dir / "c1", 1.0, 1.0, 3);
    const auto before = std::distance(std::filesystem::directory_iterator(dir.path()),
                                      std::filesystem::directory_iterator());
    for (const std::string secret :
         {"host=/nonexistent password=hunter2-secret", "postgresql://u:hunter2-secret@h/db",
          "postgresql://h/db?password=hunter2-secret"}) {
        const auto r =
            runProcess({"/usr/bin/env", "-C", dir.path().string(), SCALEVIEW_CLI, "history",
                        "record", (dir / "c1").string(), "--history-db", secret});
        EXPECT_EQ(r.exitCode, 2) << secret << ": " << r.out;
        EXPECT_EQ((r.out + r.err).find("hunter2"), std::string::npos) << r.out << r.err;
        EXPECT_NE(r.err.find(".pgpass"), std::string::npos) << r.err;
    }
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()),
                            std::filesystem::directory_iterator()),
              before);
}

TEST(HistoryLocation, ReadsLibpqUrisAndRefusesWhatIsNeitherAFileNorOne) {
    const HistoryLocation s = parseHistoryLocation("postgresql:///bench?host=/run/pg&port=5433");
    ASSERT_TRUE(s.isPostgres()) << s.error;
    EXPECT_EQ(s.parameter("dbname"), "bench");
    EXPECT_EQ(s.parameter("host"), "/run/pg");
    EXPECT_EQ(s.parameter("port"), "5433");
    const HistoryLocation t = parseHistoryLocation(
        "postgres://ci%40team@db1.example.org:5432,[2001:db8::7]:6543/perf%20db?sslmode=verify-"
        "full&sslrootcert=/etc/ssl/team-ca.pem&target_session_attrs=read-write");
    ASSERT_TRUE(t.isPostgres()) << t.error;
    EXPECT_EQ(t.parameter("user"), "ci@team");
    EXPECT_EQ(t.parameter("host"), "db1.example.org,2001:db8::7");
    EXPECT_EQ(t.parameter("port"), "5432,6543");
    EXPECT_EQ(t.parameter("dbname"), "perf db");
    EXPECT_EQ(t.parameter("sslmode"), "verify-full");
    EXPECT_EQ(t.conninfo(),
              "user='ci@team' host='db1.example.org,2001:db8::7' port='5432,6543' "
              "dbname='perf db' sslmode='verify-full' sslrootcert='/etc/ssl/team-ca.pem' "
              "target_session_attrs='read-write'");
    EXPECT_EQ(parseHistoryLocation("postgresql://%2Fvar%2Frun%2Fpg/x").parameter("host"),
              "/var/run/pg");
    EXPECT_EQ(parseHistoryLocation("postgresql://o'brien@h/x").conninfo(),
              "user='o\\'brien' host='h' dbname='x'");
    // Passwords never: they belong in ~/.pgpass.
    for (const char* withPassword :
         {"postgresql://ci:secret@db/x", "postgresql://db/x?password=secret"}) {
        const HistoryLocation p = parseHistoryLocation(withPassword);
        EXPECT_EQ(p.kind, HistoryLocation::Kind::Invalid) << withPassword;
        EXPECT_NE(p.error.find(".pgpass"), std::string::npos) << p.error;
    }
    for (const char* notOurs : {"postgresql:", "postgresql:/db", "mysql://db/x", "sqlite:"}) {
        const HistoryLocation p = parseHistoryLocation(notOurs);
        EXPECT_EQ(p.kind, HistoryLocation::Kind::Invalid) << notOurs;
        EXPECT_NE(p.error.find("neither a file path nor a URI"), std::string::npos) << p.error;
    }
    EXPECT_EQ(parseHistoryLocation("postgresql://db/x?bad%zz=1").kind,
              HistoryLocation::Kind::Invalid);
    EXPECT_EQ(parseHistoryLocation("./postgresql:").kind, HistoryLocation::Kind::SQLite);
    EXPECT_EQ(parseHistoryLocation("/tmp/h.sqlite").kind, HistoryLocation::Kind::SQLite);
    EXPECT_EQ(parseHistoryLocation("/tmp").kind, HistoryLocation::Kind::Invalid);
}

TEST(CliHistory, AHistoryPathThatIsNoFileNorKnownUriIsRefused) {
    TempDir dir;
    writeHistoryCampaign(dir / "c1", 1.0, 1.0, 3);
    for (const std::string bad : {"postgresql:", "postgresql:/x", "mysql://db/h"}) {
        const auto r =
            runProcess({"/usr/bin/env", "-C", dir.path().string(), SCALEVIEW_CLI, "history",
                        "record", (dir / "c1").string(), "--history-db", bad});
        EXPECT_EQ(r.exitCode, 2) << bad << ": " << r.out;
        EXPECT_NE(r.err.find("neither a file path nor a URI"), std::string::npos) << r.err;
        EXPECT_FALSE(std::filesystem::exists(dir / "postgresql:")) << bad;
    }
    const auto folder =
        cli({"history", "record", (dir / "c1").string(), "--history-db", dir.path().string()});
    EXPECT_EQ(folder.exitCode, 2);
    EXPECT_NE(folder.err.find("is a folder"), std::string::npos) << folder.err;
    const auto unwritable = cli({"history", "record", (dir / "c1").string(), "--history-db",
                                 "/proc/self/nowhere/h.sqlite"});
    EXPECT_EQ(unwritable.exitCode, 2);
    EXPECT_NE(unwritable.err.find("cannot create its folder"), std::string::npos) << unwritable.err;
    // A read creates nothing: a history that is not there is said, and stays not there.
    const auto missing = dir / "none" / "h.sqlite";
    const auto read = cli({"history", "--fail-on-regression", "--history-db", missing.string()});
    EXPECT_EQ(read.exitCode, 2);
    EXPECT_NE(read.err.find("no history at " + missing.string()), std::string::npos) << read.err;
    EXPECT_FALSE(std::filesystem::exists(missing.parent_path()));
}
