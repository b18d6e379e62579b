// The history database on real generated campaigns: idempotent recording keyed on the logs'
// content, one transaction per record (an injected failure and a writer killed mid-write leave
// the previous state), and a corrupt or locked file set aside with the app going on.

#include "tests/support/files.h"
#include "tests/history/historyfixture.h"

#include "history/campaignrecord.h"
#include "core/compare/environmentsummary.h"
#include "history/historydatabase.h"

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

TEST(HistoryDatabase, LockedFileIsSetAsideAfterTheBusyTimeout) {
    TempDir dir;
    const auto path = dir / "history.sqlite";
    writeHistoryCampaign(dir / "c1", 1.0, 1.0, 3);
    {
        HistoryDatabase db(path);
        ASSERT_EQ(db.record(readOrFail(dir / "c1")).outcome, HistoryDatabase::Outcome::Added);
    }
    {
        // Another program holds the write lock and does not let go.
        QSqlDatabase holder =
            QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("holder"));
        holder.setDatabaseName(QString::fromStdString(path.string()));
        ASSERT_TRUE(holder.open());
        QSqlQuery q(holder);
        ASSERT_TRUE(q.exec(QStringLiteral("BEGIN EXCLUSIVE")));
        HistoryDatabase db(path, std::chrono::milliseconds(300));
        ASSERT_TRUE(db.isOpen()) << db.error();
        EXPECT_NE(db.setAsideNotice().find("locked"), std::string::npos) << db.setAsideNotice();
        EXPECT_EQ(entries(db), 0u);
        q.exec(QStringLiteral("ROLLBACK"));
        holder.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("holder"));
    // The locked history was kept whole: its campaign is still in it.
    const auto aside = setAsideFiles(dir.path());
    ASSERT_EQ(aside.size(), 1u);
    HistoryDatabase old(aside.front());
    ASSERT_TRUE(old.isOpen()) << old.error();
    EXPECT_EQ(entries(old), 1u);
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
