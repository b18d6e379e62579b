// A campaign whose directory fills up, driven through the Run panel's controller: it ends
// failed with the reason on the banner, and Resume is not offered into a directory that
// cannot be written.

#include "tests/ui/fakecampaign.h"
#include "tests/ui/uifixture.h"

#include "ui/run/runcontroller.h"
#include "ui/run/runprogressview.h"
#include "ui/run/runpanel.h"

#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <gtest/gtest.h>
#include <sys/mount.h>

using namespace sv;
using namespace sv::test;

TEST(RunFailure, AFullDiskEndsTheCampaignFailedWithTheReasonAndNoResume) {
    TempDir dir;
    const std::string fs = dir.path().string() + "/fs";
    std::filesystem::create_directories(fs);
    if (::mount("tmpfs", fs.c_str(), "tmpfs", 0, "size=64k") != 0)
        GTEST_SKIP() << "cannot mount a tmpfs here (needs root): not tested";
    struct Unmount {
        std::string at;
        ~Unmount() { ::umount2(at.c_str(), MNT_DETACH); }
    } unmount{fs};
    AppWindow w;
    ui::RunPanel* panel = w.window.runPanel();
    auto c = fakeCampaign(fs, {"1n1g"}, 2, "0.001");
    c.iterations = 3000; // about 300 KB of log per run, on 64 KiB
    panel->monitor()->setPlan(plannedIds(c), {}, c.iterations);
    QSignalSpy finished(panel->controller(), &ui::RunController::finished);
    QString error;
    ASSERT_TRUE(panel->controller()->start(c, false, &error)) << error.toStdString();
    ASSERT_TRUE(waitUntil([&] { return !finished.isEmpty(); }, 90000));
    const QString failure = finished.at(0).at(3).toString();
    EXPECT_FALSE(finished.at(0).at(0).toBool()); // not "cancelled"
    EXPECT_TRUE(failure.contains(QLatin1String("No space left on device")))
        << failure.toStdString();
    EXPECT_TRUE(panel->bannerText().startsWith(QStringLiteral("The campaign failed: ")))
        << panel->bannerText().toStdString();
    EXPECT_FALSE(panel->resumeButton()->isEnabled());
}

namespace {

bool openAndWait(ui::RunPanel* panel, const QString& file) {
    QSignalSpy read(panel, &ui::RunPanel::campaignRead);
    panel->openCampaign(file);
    return waitUntil([&] { return !read.isEmpty(); }, 10000) && read.at(0).at(1).toBool();
}

} // namespace

// Issue 27: Campaign > Open showed the previous campaign's "Cancelled: 1 of 6 runs ok…" and its
// output; a finished campaign reopened said "ETA unknown".
TEST(RunPanelOpen, OpeningACampaignReplacesThePreviousOnesHeadlineAndOutput) {
    TempDir dir;
    AppWindow w;
    ui::RunPanel* panel = w.window.runPanel();
    auto c = fakeCampaign(dir.path().string(), {"1n1g"}, 1);
    c.outputDir = (dir / "first").string();
    std::string error;
    const std::string first = (dir / "first.json").string();
    ASSERT_TRUE(launcher::saveCampaign(c, first, &error)) << error;
    ASSERT_TRUE(openAndWait(panel, QString::fromStdString(first)));
    QSignalSpy finished(panel, &ui::RunPanel::campaignFinished);
    panel->run();
    ASSERT_TRUE(waitUntil([&] { return !finished.isEmpty(); }, 60000))
        << panel->bannerText().toStdString();
    ui::RunProgressView* monitor = panel->monitor();
    ASSERT_TRUE(monitor->currentText().startsWith(QLatin1String("Finished")))
        << monitor->currentText().toStdString();
    ASSERT_FALSE(monitor->console()->toPlainText().isEmpty());

    auto other = c;
    other.outputDir = (dir / "second").string();
    const std::string second = (dir / "second.json").string();
    ASSERT_TRUE(launcher::saveCampaign(other, second, &error)) << error;
    ASSERT_TRUE(openAndWait(panel, QString::fromStdString(second)));
    EXPECT_FALSE(monitor->currentText().contains(QLatin1String("Finished")))
        << monitor->currentText().toStdString();
    EXPECT_TRUE(monitor->console()->toPlainText().isEmpty())
        << monitor->console()->toPlainText().toStdString();
    EXPECT_FALSE(panel->bannerText().contains(QLatin1String("Finished")));

    // The finished campaign reopened: every run done, nothing to estimate.
    ASSERT_TRUE(openAndWait(panel, QString::fromStdString((dir / "first").string())));
    EXPECT_FALSE(monitor->campaignBar()->format().contains(QLatin1String("ETA")))
        << monitor->campaignBar()->format().toStdString();
    EXPECT_TRUE(monitor->campaignBar()->format().contains(QLatin1String("1 of 1 runs done")))
        << monitor->campaignBar()->format().toStdString();
}
