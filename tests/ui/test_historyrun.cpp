// The Run tab feeds the history: a campaign the Run panel runs (the launcher tests' fake
// workload under mpirun: real processes and logs, in seconds) is recorded when it finishes,
// one row per case; a second campaign is a second entry, the same directory recorded again
// is not.

#include "tests/ui/fakecampaign.h"
#include "tests/ui/uifixture.h"

#include "ui/run/campaignform.h"
#include "history/historydatabase.h"
#include "ui/history/historypage.h"
#include "ui/run/runpanel.h"

#include <QLineEdit>
#include <QSignalSpy>

#include <gtest/gtest.h>

#include <algorithm>

using namespace sv;
using namespace sv::test;

namespace {

std::vector<history::StoredCampaign> storedCampaigns(const std::filesystem::path& db) {
    history::HistoryDatabase history(db);
    std::string error;
    auto all = history.campaigns(&error);
    EXPECT_TRUE(all) << error;
    return all ? *all : std::vector<history::StoredCampaign>{};
}

std::vector<std::string> topologies(const history::CampaignRecord& record) {
    std::vector<std::string> out;
    for (const auto& c : record.cases)
        out.push_back(c.key.topology.name());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

TEST(HistoryRun, ACampaignTheRunTabFinishesIsRecordedOncePerCase) {
    TempDir dir;
    const auto db = dir / "history.sqlite";
    AppWindow app;
    ui::HistoryPage* page = app.window.historyPage();
    page->setDatabasePath(db);
    ASSERT_TRUE(waitUntil([&] { return !page->isLoading(); }, 20000));
    ui::RunPanel* panel = app.window.runPanel();
    QSignalSpy recorded(page, &ui::HistoryPage::recorded);
    QSignalSpy finished(panel, &ui::RunPanel::campaignFinished);

    // The campaign as a user opens it: a file naming the fake workload's profile.
    auto c = fakeCampaign(dir.path().string(), {"1n1g", "1n2g"}, 1);
    c.outputDir = (dir / "first").string();
    const QString file = QString::fromStdString((dir / "campaign.json").string());
    std::string error;
    ASSERT_TRUE(launcher::saveCampaign(c, file.toStdString(), &error)) << error;
    QSignalSpy read(panel, &ui::RunPanel::campaignRead);
    panel->openCampaign(file);
    ASSERT_TRUE(waitUntil([&] { return !read.isEmpty(); }, 10000));
    ASSERT_TRUE(read.at(0).at(1).toBool());

    panel->run();
    ASSERT_TRUE(waitUntil([&] { return !recorded.isEmpty(); }, 60000))
        << "finished: " << finished.size() << ", banner: " << panel->bannerText().toStdString();
    ASSERT_EQ(finished.size(), 1);
    EXPECT_FALSE(finished.at(0).at(0).toBool()); // not cancelled
    EXPECT_EQ(finished.at(0).at(1).toInt(), 2);  // both runs ok
    auto stored = storedCampaigns(db);
    ASSERT_EQ(stored.size(), 1u) << recorded.last().at(0).toString().toStdString();
    const history::CampaignRecord first = stored[0].record; // stored is read again below
    EXPECT_EQ(topologies(first), (std::vector<std::string>{"1n1g", "1n2g"}));
    for (const auto& k : first.cases) {
        EXPECT_EQ(k.runs, 1);
        EXPECT_GT(k.median, 0.0);
    }
    EXPECT_NE(first.path.find((dir / "first").string()), std::string::npos) << first.path;
    EXPECT_EQ(first.warmup, c.warmup); // measured over the campaign's own window
    EXPECT_EQ(first.iterations, c.iterations);

    // The same campaign run again (a fresh output directory): another entry.
    panel->form()->outputDir()->setText(QString::fromStdString((dir / "second").string()));
    panel->run();
    ASSERT_TRUE(waitUntil([&] { return recorded.size() == 2; }, 60000))
        << "banner: " << panel->bannerText().toStdString();
    stored = storedCampaigns(db);
    ASSERT_EQ(stored.size(), 2u) << recorded.last().at(0).toString().toStdString();
    EXPECT_EQ(topologies(stored[1].record), (std::vector<std::string>{"1n1g", "1n2g"}));
    EXPECT_NE(stored[0].record.path, stored[1].record.path);

    // Recording the first campaign's directory again (Record in History) adds nothing.
    page->recordDirectory(QString::fromStdString(first.path));
    ASSERT_TRUE(waitUntil([&] { return recorded.size() == 3; }, 20000));
    EXPECT_TRUE(recorded.last().at(0).toString().contains(QStringLiteral("already in the history")))
        << recorded.last().at(0).toString().toStdString();
    EXPECT_EQ(storedCampaigns(db).size(), 2u);
}

// Issue 27: the Run tab's own profiles keep their logs four levels down
// (OUT/logs/local/pytorch-cpu/resnet50). Such a campaign went unrecorded: its logs were
// measured over DLPerf's 120 iterations instead of the campaign's window, and none counted.
TEST(HistoryRun, ACampaignWithADeepLogRootIsRecordedToo) {
    TempDir dir;
    const auto db = dir / "history.sqlite";
    AppWindow app;
    ui::HistoryPage* page = app.window.historyPage();
    page->setDatabasePath(db);
    ASSERT_TRUE(waitUntil([&] { return !page->isLoading(); }, 20000));
    ui::RunPanel* panel = app.window.runPanel();
    QSignalSpy recorded(page, &ui::HistoryPage::recorded);

    auto c = fakeCampaign(dir.path().string(), {"1n1g", "1n2g"}, 1, "0.01",
                          "logs/local/fake-cpu/resnet50");
    c.outputDir = (dir / "deep").string();
    const QString file = QString::fromStdString((dir / "campaign.json").string());
    std::string error;
    ASSERT_TRUE(launcher::saveCampaign(c, file.toStdString(), &error)) << error;
    QSignalSpy read(panel, &ui::RunPanel::campaignRead);
    panel->openCampaign(file);
    ASSERT_TRUE(waitUntil([&] { return !read.isEmpty(); }, 10000));
    ASSERT_TRUE(read.at(0).at(1).toBool());
    panel->run();
    ASSERT_TRUE(waitUntil([&] { return !recorded.isEmpty(); }, 60000))
        << "banner: " << panel->bannerText().toStdString();
    const auto stored = storedCampaigns(db);
    ASSERT_EQ(stored.size(), 1u) << recorded.last().at(0).toString().toStdString();
    EXPECT_EQ(topologies(stored[0].record), (std::vector<std::string>{"1n1g", "1n2g"}));
    EXPECT_EQ(stored[0].record.warmup, c.warmup);
    EXPECT_EQ(stored[0].record.iterations, c.iterations);
    EXPECT_EQ(stored[0].record.label, "deep");
}
