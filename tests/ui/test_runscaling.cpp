// Issue 27 item 4: the headline carries the worst the details say. A campaign whose runs all
// ended ok but whose 1n2g case reached 46.5 % of linear says so where it says "all runs ok"
// (finished, and reopened later); one whose speedup cannot be true says that, as a problem.
// The campaign directories are generated: campaign.json and a journal of ok runs with their
// throughputs, as the runner writes them.

#include "tests/ui/uifixture.h"

#include "launcher/campaign/campaigndirectory.h"
#include "launcher/campaign/campaignscaling.h"
#include "launcher/campaign/journal.h"
#include "ui/run/campaignform.h"
#include "ui/run/runpanel.h"
#include "ui/run/runprogressview.h"

#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

using namespace sv;
using namespace sv::test;

namespace {

// Three repeats each of 1n1g and 1n2g at batch 8, every run ok with the time method's
// throughput given per topology ("1n1g" → its three figures).
// disturbedBy: the monitor's evidence on every run's end record, as a busy machine leaves it.
std::string writeFinished(const QTemporaryDir& dir,
                          const std::map<std::string, std::vector<double>>& throughput,
                          const std::string& disturbedBy = {}) {
    launcher::Campaign c = ui::CampaignForm::defaultCampaign();
    c.topologies = {{1, 1}, {1, 2}};
    c.batchSizes = {8};
    c.precisions = {"fp32"};
    c.repeats = 3;
    c.cooldownSeconds = 0;
    c.outputDir = dir.filePath(QStringLiteral("finished")).toStdString();
    std::filesystem::create_directories(c.outputDir);
    std::string error;
    EXPECT_TRUE(launcher::saveCampaign(c, c.outputDir + "/campaign.json", &error)) << error;
    launcher::Journal journal(c.outputDir + "/journal.jsonl");
    for (const auto& [topology, values] : throughput)
        for (std::size_t r = 0; r < values.size(); ++r) {
            const std::string id = "bz8/" + topology + "/r50_b8_fp32_" + std::to_string(r + 1);
            EXPECT_TRUE(journal.appendStart(id, "svTEST", {{"true"}}, {}, "/dev/null", &error))
                << error;
            launcher::RunEnd end;
            end.state = launcher::RunState::Ok;
            end.timeThroughput = values[r];
            end.speedThroughput = values[r];
            if (!disturbedBy.empty())
                end.monitor = launcher::RunEnd::Monitored{{disturbedBy}, "{}"};
            EXPECT_TRUE(journal.appendEnd(id, "svTEST", "/dev/null", end, &error)) << error;
        }
    return c.outputDir;
}

bool openAndWait(ui::RunPanel* panel, const std::string& dir) {
    QSignalSpy read(panel, &ui::RunPanel::campaignRead);
    panel->openCampaign(QString::fromStdString(dir));
    return read.count() > 0 || read.wait(10000);
}

} // namespace

TEST(CampaignScaling, TheLowestEfficiencyIsTheMedianOverTheOneRankMedian) {
    QTemporaryDir dir;
    // Medians 100 and 93: speedup 0.93 on 2 ranks, 46.5 % of linear.
    const auto out =
        writeFinished(dir, {{"1n1g", {101.0, 100.0, 99.0}}, {"1n2g", {93.0, 80.0, 95.0}}});
    const auto opened = launcher::CampaignDirectory::open(out);
    ASSERT_TRUE(opened.ok()) << opened.error();
    const auto worst = launcher::worstScaling(opened);
    ASSERT_TRUE(worst);
    EXPECT_EQ(worst->topology, "1n2g");
    EXPECT_EQ(worst->ranks, 2);
    EXPECT_EQ(worst->batch, 8);
    EXPECT_DOUBLE_EQ(worst->speedup, 0.93);
    EXPECT_DOUBLE_EQ(worst->efficiency, 0.465);
    EXPECT_FALSE(worst->cannotBeTrue);
}

TEST(RunPanel, AReopenedCampaignsHeadlineSaysItsLowestScalingEfficiency) {
    AppWindow w;
    QTemporaryDir dir;
    const auto out =
        writeFinished(dir, {{"1n1g", {101.0, 100.0, 99.0}}, {"1n2g", {93.0, 80.0, 95.0}}});
    ASSERT_TRUE(openAndWait(w.window.runPanel(), out));
    const QString banner = w.window.runPanel()->bannerText();
    EXPECT_TRUE(banner.contains(QLatin1String("all 6 runs finished"))) << banner.toStdString();
    EXPECT_TRUE(banner.contains(QStringLiteral(
        "Lowest scaling efficiency: 46.5 %, at 1n2g (fp32, batch 8) (speedup 0.93 on 2 ranks)")))
        << banner.toStdString();
    EXPECT_FALSE(w.window.runPanel()->bannerIsProblem());
}

TEST(RunPanel, AReopenedCampaignWhoseSpeedupCannotBeTrueSaysSoAsAProblem) {
    AppWindow w;
    QTemporaryDir dir;
    // 1n2g at 2.2 times the one-rank median: 110 % of linear.
    const auto out =
        writeFinished(dir, {{"1n1g", {100.0, 100.0, 100.0}}, {"1n2g", {220.0, 220.0, 220.0}}});
    ASSERT_TRUE(openAndWait(w.window.runPanel(), out));
    const QString banner = w.window.runPanel()->bannerText();
    EXPECT_TRUE(banner.contains(QStringLiteral("Scaling cannot be true: 1n2g (fp32, batch 8) "
                                               "reached 110.0 % of linear")))
        << banner.toStdString();
    EXPECT_TRUE(w.window.runPanel()->bannerIsProblem());
}

// Issue 37 item 10: live, "every one of the 4 runs was disturbed" in red; reopened, the same
// campaign said "all 4 runs finished" in blue with states "ok". The journal keeps each run's
// "disturbed" and its evidence: reopened, the headline, the states and the bar say it again.
TEST(RunPanel, AReopenedCampaignRemembersItsRunsWereDisturbed) {
    AppWindow w;
    QTemporaryDir dir;
    const std::string why = "load average 3.1 on local (2 CPUs), above the run's 1 processes";
    const auto out =
        writeFinished(dir, {{"1n1g", {100.0, 99.0, 101.0}}, {"1n2g", {190.0, 191.0, 189.0}}}, why);
    ASSERT_TRUE(openAndWait(w.window.runPanel(), out));
    const QString banner = w.window.runPanel()->bannerText();
    EXPECT_TRUE(banner.contains(QLatin1String("all 6 runs finished, but every one was disturbed")))
        << banner.toStdString();
    EXPECT_TRUE(banner.contains(QLatin1String("their figures are not reliable")));
    EXPECT_TRUE(w.window.runPanel()->bannerIsProblem());
    QTableWidget* runs = w.window.runPanel()->monitor()->runsTable();
    ASSERT_EQ(runs->rowCount(), 6);
    for (int r = 0; r < runs->rowCount(); ++r) {
        EXPECT_EQ(runs->item(r, 1)->text(), QStringLiteral("ok, disturbed"));
        EXPECT_TRUE(runs->item(r, 1)->toolTip().contains(QString::fromStdString(why)))
            << runs->item(r, 1)->toolTip().toStdString();
    }

    // The same campaign without the monitor's evidence: "ok", no problem.
    QTemporaryDir quiet;
    ASSERT_TRUE(openAndWait(
        w.window.runPanel(),
        writeFinished(quiet, {{"1n1g", {100.0, 99.0, 101.0}}, {"1n2g", {190.0, 191.0, 189.0}}})));
    EXPECT_FALSE(w.window.runPanel()->bannerIsProblem())
        << w.window.runPanel()->bannerText().toStdString();
    EXPECT_EQ(runs->item(0, 1)->text(), QStringLiteral("ok"));
}
