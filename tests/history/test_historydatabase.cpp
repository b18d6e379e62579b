// The history database on real generated campaigns: idempotent recording keyed on the logs'
// content, one transaction per record (an injected failure and a writer killed mid-write leave
// the previous state), a corrupt file set aside by a record with the app going on, and a lock,
// held by another process, that is never taken for corruption; reads change nothing.

#include "tests/support/files.h"
#include "tests/history/historyfixture.h"
#include "tests/history/sqlitelockholder.h"

#include "history/campaignrecord.h"
#include "core/compare/environmentsummary.h"
#include "history/historydatabase.h"
#include "history/historytrend.h"

#include <QSqlDatabase>
#include <QSqlQuery>

#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace sv::test;
using sv::history::CampaignRecord;
using sv::history::HistoryDatabase;

namespace {

CampaignRecord readOrFail(const std::filesystem::path& dir) {
    auto read = sv::history::readCampaign(dir);
    EXPECT_TRUE(read.record) << read.error;
    return read.record ? *read.record : CampaignRecord{};
}

std::size_t entries(HistoryDatabase& db) {
    std::string error;
    auto all = db.campaigns(&error);
    EXPECT_TRUE(all) << error;
    return all ? all->size() : 0;
}

std::vector<std::filesystem::path> setAsideFiles(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> out;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (const std::string name = e.path().filename().string();
            name.find(".broken-") != std::string::npos &&
            name.find("-journal") == std::string::npos)
            out.push_back(e.path());
    return out;
}

// Statements run on a SQLite file through a connection of the test's own, closed afterwards.
void runSql(const std::filesystem::path& file, const std::vector<std::string>& statements) {
    const QString name = QStringLiteral("test-sql");
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(QString::fromStdString(file.string()));
        ASSERT_TRUE(db.open());
        QSqlQuery q(db);
        for (const auto& statement : statements)
            ASSERT_TRUE(q.exec(QString::fromStdString(statement))) << statement;
        q.finish();
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
}

} // namespace

TEST(HistoryDatabase, RecordsOneRowPerCaseWithEnvironmentAndSpread) {
    TempDir dir;
    writeHistoryCampaign(dir / "c1", 1.0, 1.0, 3, "535.104.05");
    HistoryDatabase db(dir / "history.sqlite");
    ASSERT_TRUE(db.isOpen()) << db.error();
    const auto r = db.record(readOrFail(dir / "c1"));
    ASSERT_EQ(r.outcome, HistoryDatabase::Outcome::Added) << r.message;
    std::string error;
    const auto all = db.campaigns(&error);
    ASSERT_TRUE(all) << error;
    ASSERT_EQ(all->size(), 1u);
    const CampaignRecord& c = all->front().record;
    EXPECT_EQ(c.label, "c1");
    EXPECT_EQ(c.environment.driver, "535.104.05");
    EXPECT_EQ(c.environment.cuda, "12.2");
    EXPECT_EQ(c.environment.gpuModel, "NVIDIA A100-SXM4-80GB");
    EXPECT_EQ(c.environment.containerImage, "sha256:0123abcd");
    EXPECT_EQ(c.environment.hosts, std::vector<std::string>{"node1"});
    ASSERT_EQ(c.cases.size(), 2u);
    const auto& one = c.cases.front();
    EXPECT_EQ(one.key.topology.name(), "1n1g");
    EXPECT_EQ(one.runs, 5);
    EXPECT_EQ(one.values.size(), 5u);
    // 64 images per step of 992..1008 ms: the spread is the fastest and slowest repeat.
    EXPECT_NEAR(one.min, 64000.0 / 1008, 0.05);
    EXPECT_NEAR(one.max, 64000.0 / 992, 0.05);
    EXPECT_NEAR(one.median, 64000.0 / 1000, 0.05);
    EXPECT_FALSE(c.time.empty());
}

TEST(HistoryDatabase, SameLogsTwiceOrCopiedAreOneEntry) {
    TempDir dir;
    writeHistoryCampaign(dir / "c1", 1.0, 1.0, 3);
    HistoryDatabase db(dir / "history.sqlite");
    ASSERT_TRUE(db.isOpen()) << db.error();
    EXPECT_EQ(db.record(readOrFail(dir / "c1")).outcome, HistoryDatabase::Outcome::Added);
    EXPECT_EQ(db.record(readOrFail(dir / "c1")).outcome, HistoryDatabase::Outcome::AlreadyRecorded);
    // The identity is the logs' content, not the path: a copy is the same campaign...
    std::filesystem::copy(dir / "c1", dir / "copy", std::filesystem::copy_options::recursive);
    EXPECT_EQ(db.record(readOrFail(dir / "copy")).outcome,
              HistoryDatabase::Outcome::AlreadyRecorded);
    EXPECT_EQ(entries(db), 1u);
    // ...and the same path with other logs is another.
    writeHistoryCampaign(dir / "c1", 0.9, 0.9, 1);
    EXPECT_EQ(db.record(readOrFail(dir / "c1")).outcome, HistoryDatabase::Outcome::Added);
    EXPECT_EQ(entries(db), 2u);
}

TEST(HistoryDatabase, FailureMidRecordLeavesThePreviousState) {
    TempDir dir;
    writeHistoryCampaign(dir / "c1", 1.0, 1.0, 3);
    writeHistoryCampaign(dir / "c2", 1.01, 0.99, 2);
    HistoryDatabase db(dir / "history.sqlite");
    ASSERT_TRUE(db.isOpen()) << db.error();
    ASSERT_EQ(db.record(readOrFail(dir / "c1")).outcome, HistoryDatabase::Outcome::Added);
    // The first case row of c2 is written, then the record fails.
    const auto failed = db.record(readOrFail(dir / "c2"), [](int written) { return written < 1; });
    EXPECT_EQ(failed.outcome, HistoryDatabase::Outcome::Failed);
    std::string error;
    auto all = db.campaigns(&error);
    ASSERT_TRUE(all) << error;
    ASSERT_EQ(all->size(), 1u);
    EXPECT_EQ(all->front().record.label, "c1");
    EXPECT_EQ(all->front().record.cases.size(), 2u);
    // Nothing of c2 was left behind: it records whole afterwards.
    EXPECT_EQ(db.record(readOrFail(dir / "c2")).outcome, HistoryDatabase::Outcome::Added);
    EXPECT_EQ(entries(db), 2u);
}

TEST(HistoryDatabase, WriterKilledMidTransactionLeavesThePreviousState) {
    TempDir dir;
    writeHistoryCampaign(dir / "c1", 1.0, 1.0, 3);
    writeHistoryCampaign(dir / "c2", 1.01, 0.99, 2);
    const auto path = dir / "history.sqlite";
    const CampaignRecord c1 = readOrFail(dir / "c1"), c2 = readOrFail(dir / "c2");
    {
        HistoryDatabase db(path);
        ASSERT_EQ(db.record(c1).outcome, HistoryDatabase::Outcome::Added);
    }
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) { // the writer: killed outright after writing a case row of c2
        HistoryDatabase db(path);
        db.record(c2, [](int) {
            ::raise(SIGKILL);
            return true;
        });
        ::_exit(0); // not reached
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "status " << status;
    HistoryDatabase db(path);
    ASSERT_TRUE(db.isOpen()) << db.error();
    EXPECT_TRUE(db.setAsideNotice().empty()) << db.setAsideNotice();
    std::string error;
    auto all = db.campaigns(&error);
    ASSERT_TRUE(all) << error;
    ASSERT_EQ(all->size(), 1u);
    EXPECT_EQ(all->front().record.label, "c1");
    EXPECT_EQ(db.record(c2).outcome, HistoryDatabase::Outcome::Added);
}

TEST(HistoryDatabase, CorruptFileIsSetAsideAndANewHistoryStarts) {
    TempDir dir;
    const auto path = dir / "history.sqlite";
    const std::string garbage(8192, 'x');
    writeFile(path, garbage);
    HistoryDatabase db(path);
    ASSERT_TRUE(db.isOpen()) << db.error();
    EXPECT_NE(db.setAsideNotice().find("kept as"), std::string::npos) << db.setAsideNotice();
    const auto aside = setAsideFiles(dir.path());
    ASSERT_EQ(aside.size(), 1u);
    EXPECT_EQ(sv::test::readWhole(aside.front()), garbage); // kept byte for byte, never deleted
    EXPECT_EQ(entries(db), 0u);
    writeHistoryCampaign(dir / "c1", 1.0, 1.0, 3);
    EXPECT_EQ(db.record(readOrFail(dir / "c1")).outcome, HistoryDatabase::Outcome::Added);
}

// A lock is not corruption (issue 36, item 2): another process holding the file past the busy
// timeout makes every kind of opening fail, naming the lock, and none sets the history aside.
TEST(HistoryDatabase, ALockIsNeverCorruptionWhateverTheAccess) {
    TempDir dir;
    const auto path = dir / "history.sqlite";
    writeHistoryCampaign(dir / "c1", 1.0, 1.0, 3);
    {
        HistoryDatabase db(path);
        ASSERT_EQ(db.record(readOrFail(dir / "c1")).outcome, HistoryDatabase::Outcome::Added);
    }
    const std::string before = sv::test::readWhole(path);
    {
        SqliteLockHolder other(path, SqliteLockHolder::Lock::Exclusive);
        ASSERT_TRUE(other.held());
        for (const auto access : {HistoryDatabase::Access::Record, HistoryDatabase::Access::Read,
                                  HistoryDatabase::Access::Source}) {
            HistoryDatabase db(path, access, std::chrono::milliseconds(300));
            EXPECT_FALSE(db.isOpen());
            EXPECT_NE(db.error().find(path.string() + " is locked by another program"),
                      std::string::npos)
                << db.error();
            EXPECT_NE(db.error().find("more than 300 ms"), std::string::npos) << db.error();
            EXPECT_TRUE(db.setAsideNotice().empty()) << db.setAsideNotice();
        }
    }
    EXPECT_TRUE(setAsideFiles(dir.path()).empty());
    EXPECT_EQ(sv::test::readWhole(path), before);
    HistoryDatabase db(path, HistoryDatabase::Access::Read);
    ASSERT_TRUE(db.isOpen()) << db.error();
    EXPECT_EQ(entries(db), 1u);
}

// A writer's lock (BEGIN IMMEDIATE) leaves readers alone; a record waits it out and fails
// naming it, rolled back whole.
TEST(HistoryDatabase, AWritersLockLetsReadsThroughAndFailsARecordNamingIt) {
    TempDir dir;
    const auto path = dir / "history.sqlite";
    writeHistoryCampaign(dir / "c1", 1.0, 1.0, 3);
    writeHistoryCampaign(dir / "c2", 1.01, 0.99, 2);
    {
        HistoryDatabase db(path);
        ASSERT_EQ(db.record(readOrFail(dir / "c1")).outcome, HistoryDatabase::Outcome::Added);
    }
    const CampaignRecord c2 = readOrFail(dir / "c2");
    SqliteLockHolder writer(path, SqliteLockHolder::Lock::Immediate);
    ASSERT_TRUE(writer.held());
    HistoryDatabase reader(path, HistoryDatabase::Access::Read, std::chrono::milliseconds(300));
    ASSERT_TRUE(reader.isOpen()) << reader.error();
    EXPECT_EQ(entries(reader), 1u);
    HistoryDatabase db(path, HistoryDatabase::Access::Record, std::chrono::milliseconds(300));
    ASSERT_TRUE(db.isOpen()) << db.error();
    const auto r = db.record(c2);
    EXPECT_EQ(r.outcome, HistoryDatabase::Outcome::Failed);
    EXPECT_NE(r.message.find("nothing was recorded"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("locked by another program"), std::string::npos) << r.message;
    writer.letGo();
    EXPECT_TRUE(setAsideFiles(dir.path()).empty());
    EXPECT_EQ(entries(db), 1u);
    EXPECT_EQ(db.record(c2).outcome, HistoryDatabase::Outcome::Added);
}

// A read changes nothing it reads: a missing history is not created, a damaged one not set
// aside, an older one not migrated (its later tables read as empty).
TEST(HistoryDatabase, AReadCreatesMigratesAndSetsAsideNothing) {
    TempDir dir;
    const auto missing = dir / "none" / "history.sqlite";
    HistoryDatabase none(missing, HistoryDatabase::Access::Read);
    EXPECT_FALSE(none.isOpen());
    EXPECT_NE(none.error().find("no history at " + missing.string()), std::string::npos)
        << none.error();
    EXPECT_FALSE(std::filesystem::exists(missing.parent_path()));

    const auto corrupt = dir / "corrupt.sqlite";
    const std::string garbage(8192, 'x');
    writeFile(corrupt, garbage);
    HistoryDatabase damaged(corrupt, HistoryDatabase::Access::Read);
    EXPECT_FALSE(damaged.isOpen());
    EXPECT_NE(damaged.error().find("not a SQLite database"), std::string::npos) << damaged.error();
    EXPECT_NE(damaged.error().find("left as it is"), std::string::npos) << damaged.error();
    EXPECT_TRUE(damaged.setAsideNotice().empty());
    EXPECT_EQ(sv::test::readWhole(corrupt), garbage);
    EXPECT_TRUE(setAsideFiles(dir.path()).empty());

    // A history of version 1: campaigns and cases only.
    const auto old = dir / "old.sqlite";
    writeHistoryCampaign(dir / "c1", 1.0, 1.0, 3);
    {
        HistoryDatabase db(old);
        ASSERT_EQ(db.record(readOrFail(dir / "c1")).outcome, HistoryDatabase::Outcome::Added);
    }
    ASSERT_NO_FATAL_FAILURE(runSql(old, {"DROP TABLE expectations", "DROP TABLE node_probes",
                                         "DROP TABLE case_parameters", "PRAGMA user_version = 1"}));
    const std::string v1Bytes = sv::test::readWhole(old);
    {
        HistoryDatabase db(old, HistoryDatabase::Access::Read);
        ASSERT_TRUE(db.isOpen()) << db.error();
        EXPECT_EQ(entries(db), 1u);
        std::string error;
        const auto marks = db.expectations(&error);
        ASSERT_TRUE(marks) << error;
        EXPECT_TRUE(marks->empty());
        const auto nodes = db.nodeObservations(&error);
        ASSERT_TRUE(nodes) << error;
        EXPECT_TRUE(nodes->empty());
    }
    EXPECT_EQ(sv::test::readWhole(old), v1Bytes);
    // A command that records migrates it.
    HistoryDatabase writer(old);
    ASSERT_TRUE(writer.isOpen()) << writer.error();
    std::string error;
    EXPECT_TRUE(writer.expectations(&error)) << error;
    EXPECT_NE(sv::test::readWhole(old), v1Bytes);
}

// Another history to import is opened read-only: it reads, and nothing can be written to it.
TEST(HistoryDatabase, ASourceIsReadOnly) {
    TempDir dir;
    const auto path = dir / "history.sqlite";
    writeHistoryCampaign(dir / "c1", 1.0, 1.0, 3);
    writeHistoryCampaign(dir / "c2", 1.01, 0.99, 2);
    {
        HistoryDatabase db(path);
        ASSERT_EQ(db.record(readOrFail(dir / "c1")).outcome, HistoryDatabase::Outcome::Added);
    }
    const std::string bytes = sv::test::readWhole(path);
    HistoryDatabase source(path, HistoryDatabase::Access::Source);
    ASSERT_TRUE(source.isOpen()) << source.error();
    EXPECT_EQ(entries(source), 1u);
    const auto r = source.record(readOrFail(dir / "c2"));
    EXPECT_EQ(r.outcome, HistoryDatabase::Outcome::Failed);
    EXPECT_NE(r.message.find("readonly"), std::string::npos) << r.message;
    EXPECT_EQ(sv::test::readWhole(path), bytes);
}

// A source left mid-write (a writer killed after SQLite had begun changing the file, its hot
// journal beside it) is not rolled back by an import, which would write to it: it is refused,
// untouched, saying how to recover it; a read of it as the live history lets SQLite recover it.
TEST(HistoryDatabase, ASourceLeftMidWriteIsRefusedUntouched) {
    TempDir dir;
    writeHistoryCampaign(dir / "c1", 1.0, 1.0, 3);
    const auto path = dir / "history.sqlite";
    {
        HistoryDatabase db(path);
        ASSERT_EQ(db.record(readOrFail(dir / "c1")).outcome, HistoryDatabase::Outcome::Added);
    }
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) { // a writer whose change outgrows its one-page cache, killed before COMMIT
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("w"));
        db.setDatabaseName(QString::fromStdString(path.string()));
        QSqlQuery q(db);
        if (db.open() && q.exec(QStringLiteral("PRAGMA cache_size = 1")) &&
            q.exec(QStringLiteral("BEGIN")) &&
            q.exec(QStringLiteral(
                "UPDATE cases SET repeats = repeats || printf('%.*c', 200000, ' ')")))
            ::raise(SIGKILL);
        ::_exit(1);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the writer did not get to its change";
    const auto journal = dir / "history.sqlite-journal";
    ASSERT_TRUE(std::filesystem::exists(journal));
    const std::string bytes = sv::test::readWhole(path),
                      journalBytes = sv::test::readWhole(journal);
    {
        HistoryDatabase source(path, HistoryDatabase::Access::Source);
        EXPECT_FALSE(source.isOpen());
        EXPECT_NE(source.error().find("left mid-write"), std::string::npos) << source.error();
    }
    EXPECT_EQ(sv::test::readWhole(path), bytes);
    EXPECT_EQ(sv::test::readWhole(journal), journalBytes);
    // Read as the live history, SQLite rolls the unfinished change back: the campaign as it was.
    HistoryDatabase live(path, HistoryDatabase::Access::Read);
    ASSERT_TRUE(live.isOpen()) << live.error();
    std::string error;
    const auto all = live.campaigns(&error);
    ASSERT_TRUE(all) << error;
    ASSERT_EQ(all->size(), 1u);
    EXPECT_EQ(all->front().record.cases.front().values.size(), 5u);
}

TEST(HistoryDatabase, DefaultPathFollowsXdgDataHomeAndTheOverride) {
    ::unsetenv("SCALEVIEW_HISTORY_DB");
    ::setenv("XDG_DATA_HOME", "/tmp/sv-xdg", 1);
    EXPECT_EQ(HistoryDatabase::defaultPath(), "/tmp/sv-xdg/scaleview/history.sqlite");
    ::setenv("SCALEVIEW_HISTORY_DB", "/tmp/other.sqlite", 1);
    EXPECT_EQ(HistoryDatabase::defaultPath(), "/tmp/other.sqlite");
    ::unsetenv("SCALEVIEW_HISTORY_DB");
    ::unsetenv("XDG_DATA_HOME");
}

TEST(EnvironmentSummary, MixedDriversAreAllNamed) {
    const std::vector<sv::ReportFile> files{
        {"environment/1-node1.txt", capturedEnvironment("node1", "535.1")},
        {"environment/1-node2.txt", capturedEnvironment("node2", "550.2")},
        {"campaign.json", "{\"hosts\": []}"}};
    const auto env = sv::summarizeEnvironment(files);
    EXPECT_EQ(env.hosts, (std::vector<std::string>{"node1", "node2"}));
    EXPECT_EQ(env.driver, "535.1 / 550.2");
    EXPECT_EQ(env.gpuModel, "NVIDIA A100-SXM4-80GB");
    EXPECT_EQ(sv::describeEnvironment(env),
              "NVIDIA A100-SXM4-80GB, driver 535.1 / 550.2, CUDA 12.2, image sha256:0123abcd");
}

// Issue 37 item 11: the History said nothing when a campaign's runs were disturbed. The count of
// a case's disturbed runs (from the campaign's journal) is recorded, read back as the count (not
// as a parameter that would show as a change), and said with the verdict.
TEST(HistoryDatabase, ACasesDisturbedRunsAreRecordedAndSaidWithTheVerdict) {
    TempDir dir;
    writeHistoryCampaign(dir / "c1", 1.0, 1.0, 3, "535.104.05");
    writeHistoryCampaign(dir / "c2", 0.99, 1.0, 2, "535.104.05");
    const auto log = dir / "c2" / "logs" / "1n1g" / "r50_b64_fp32_2.log";
    writeFile(dir / "c2" / "journal.jsonl",
              R"({"event": "end", "id": "x", "tag": "t", "state": "ok", "log": ")" + log.string() +
                  R"(", "disturbed": true, "evidence": ["load 3.1 above 1 run processes"]})" +
                  "\n");
    {
        const CampaignRecord read = readOrFail(dir / "c2");
        ASSERT_EQ(read.cases.size(), 2u);
        EXPECT_EQ(read.cases[0].disturbed, 1) << "as read from the journal";
    }
    HistoryDatabase db(dir / "history.sqlite");
    ASSERT_TRUE(db.isOpen()) << db.error();
    for (const char* c : {"c1", "c2"}) {
        const auto r = db.record(readOrFail(dir / c));
        ASSERT_EQ(r.outcome, HistoryDatabase::Outcome::Added) << r.message;
    }
    std::string error;
    const auto all = db.campaigns(&error);
    ASSERT_TRUE(all) << error;
    ASSERT_EQ(all->size(), 2u);
    const CampaignRecord& c2 = all->back().record;
    ASSERT_EQ(c2.label, "c2");
    ASSERT_EQ(c2.cases.size(), 2u);
    EXPECT_EQ(c2.cases[0].key.topology.name(), "1n1g");
    EXPECT_EQ(c2.cases[0].disturbed, 1);
    EXPECT_EQ(c2.cases[1].disturbed, 0);
    for (const auto& k : c2.cases)
        for (const auto& f : k.parameters)
            EXPECT_NE(f.what, sv::history::kDisturbedRunsFact);
    const auto trends = sv::history::computeTrends(*all);
    ASSERT_EQ(trends.size(), 2u);
    EXPECT_NE(trends[0].note.find("runs disturbed by a busy host, and counted: 1 of the latest "
                                  "campaign's 5 runs"),
              std::string::npos)
        << trends[0].note;
    EXPECT_EQ(trends[1].note.find("disturbed"), std::string::npos) << trends[1].note;
}
