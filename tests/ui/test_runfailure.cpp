// A campaign whose directory fills up, driven through the Run panel's controller: it ends
// failed with the reason on the banner, and Resume is not offered into a directory that
// cannot be written.

#include "tests/ui/fakecampaign.h"
#include "tests/ui/uifixture.h"

#include "ui/run/runcontroller.h"
#include "ui/run/runprogressview.h"
#include "ui/run/runpanel.h"

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
