// The Run panel driving a Slurm campaign on a real, private Slurm (SlurmCluster): "Where" set
// to the cluster offers its partitions from sinfo; a run that waits behind a blocking job shows
// its job id and "PENDING (Resources)" in the monitor, then runs and ends ok. With
// SCALEVIEW_SCREENSHOT_DIR set, the window is saved pending and running (docs/screenshots).

#include "tests/launcher/slurmcluster.h"
#include "tests/ui/uifixture.h"

#include "ui/run/campaignform.h"
#include "ui/window/mainwindow.h"
#include "ui/run/runcontroller.h"
#include "ui/run/runprogressview.h"
#include "ui/run/runpanel.h"
#include "ui/run/slurmfields.h"

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStyleFactory>
#include <QTableWidget>

#include <gtest/gtest.h>

using namespace sv;
using namespace sv::test;

namespace {

void saveShot(ui::MainWindow& window, const char* name) {
    const QByteArray dir = qgetenv("SCALEVIEW_SCREENSHOT_DIR");
    if (dir.isEmpty()) return;
    window.grab().save(QString::fromLocal8Bit(dir) + QLatin1Char('/') + QLatin1String(name));
}

} // namespace

TEST(RunPanelSlurm, QueuedThenRunningCampaignShowsJobAndQueueState) {
    if (auto why = SlurmCluster::unavailable(); !why.empty()) GTEST_SKIP() << why;
    SlurmCluster cluster;
    ASSERT_EQ(cluster.error(), "");
    AppWindow w;
    w.window.resize(1280, 800);
    w.window.show();
    w.window.showPage(ui::MainWindow::Run);
    ui::CampaignForm* form = w.window.runPanel()->form();

    // Where: the cluster. Its partitions come from sinfo, asked in the background.
    form->where()->setCurrentIndex(form->where()->findData(QStringLiteral("slurm")));
    ui::SlurmFields* slurm = form->slurmFields();
    ASSERT_TRUE(waitUntil([&] { return slurm->partition()->count() > 0; }, 10000))
        << slurm->clusterNote()->text().toStdString();
    EXPECT_TRUE(slurm->partition()->itemText(0).startsWith(
        QStringLiteral("debug (default): up, 2 nodes, 4 CPUs per node")))
        << slurm->partition()->itemText(0).toStdString();
    EXPECT_EQ(form->campaign().scheduler.partition, "debug");
    EXPECT_TRUE(form->campaign().hosts.empty());

    // About 3 s of work per rank, two nodes by one rank.
    const std::string profile = writeFakeProfile(cluster.jobsDir(), {"--interval", "0.3"});
    launcher::Campaign c = form->campaign();
    c.profile = profile;
    c.topologies = {*parseTopology("2n1g")};
    c.batchSizes = {2};
    c.repeats = 1;
    c.iterations = 10;
    c.warmup = 2;
    c.cooldownSeconds = 0;
    c.outputDir = cluster.jobsDir() + "/ui";
    form->setCampaign(c);
    EXPECT_EQ(form->where()->currentData().toString(), QStringLiteral("slurm"));

    const auto blocker =
        runProcess({"/usr/bin/sbatch", "--parsable", "--nodes=2", "--exclusive",
                    "--job-name=blocker", "--output=/dev/null", "--wrap", "sleep 120"});
    ASSERT_EQ(blocker.exitCode, 0) << blocker.err;
    const std::string blockerId = blocker.out.substr(0, blocker.out.find_first_of(";\n"));

    bool done = false;
    int ok = -1;
    QObject::connect(w.window.runPanel(), &ui::RunPanel::campaignFinished, [&](bool, int k, int) {
        done = true;
        ok = k;
    });
    ASSERT_TRUE(waitUntil([&] { return w.window.runPanel()->runButton()->isEnabled(); }, 5000));
    w.window.runPanel()->runButton()->click();
    ui::RunProgressView* monitor = w.window.runPanel()->monitor();
    QTableWidget* runs = monitor->runsTable();
    ASSERT_TRUE(waitUntil(
        [&] {
            return runs->rowCount() == 1 &&
                   runs->item(0, 1)->text().startsWith(QStringLiteral("queued (job")) &&
                   monitor->currentText().contains(QStringLiteral("PENDING (Resources)"));
        },
        20000))
        << monitor->currentText().toStdString();
    saveShot(w.window, "run-slurm-pending.png");

    runProcess({"/usr/bin/scancel", blockerId});
    ASSERT_TRUE(waitUntil(
        [&] {
            return runs->item(0, 1)->text().startsWith(QStringLiteral("running (job")) &&
                   monitor->console()->toPlainText().contains(QStringLiteral("1: ")) &&
                   monitor->currentText().contains(QStringLiteral("Run 1 of 1"));
        },
        30000))
        << runs->item(0, 1)->text().toStdString();
    saveShot(w.window, "run-slurm-running.png");
    ASSERT_TRUE(waitUntil([&] { return done; }, 60000));
    EXPECT_EQ(ok, 1) << monitor->currentText().toStdString();
    EXPECT_TRUE(cluster.jobs().empty());
}

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    ::testing::InitGoogleTest(&argc, argv);
    QApplication app(argc, argv);
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    return RUN_ALL_TESTS();
}
