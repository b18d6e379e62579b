// A directory of TensorFlow 2 ResNet-50 logs with no campaign.json opens measured over DLPerf's
// window for that format (100/600, not NGC MXNet's 20/120): the figures are summarize's, the
// controls show that window and say whose it is, a window typed in is every log's, and the
// reset button goes back to each format's own.

#include "tests/support/formatlogs.h"
#include "tests/support/process.h"
#include "tests/ui/uifixture.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/browse/controlpanel.h"

#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>

using namespace sv;
using namespace sv::test;

namespace {

std::map<std::string, double> summarizeMedians(const std::filesystem::path& dir) {
    const auto r = runProcess({SCALEVIEW_CLI, "summarize", dir.string(), "--format", "json"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    std::map<std::string, double> out;
    const auto j = nlohmann::json::parse(r.out); // kept: the loop walks a member of it
    for (const auto& c : j.at("cases"))
        if (!c.at("median_speed").is_null())
            out[c.at("topology").get<std::string>()] = c.at("median_speed").get<double>();
    return out;
}

std::map<std::string, double> shownMedians(const ui::Analysis& a) {
    std::map<std::string, double> out;
    for (const auto* c : a.groupCases())
        if (c->median) out[c->key.topology.name()] = *c->median;
    return out;
}

ui::AnalysisPtr waitForWindow(ui::MainWindow& w, bool formatDefaults, int warmup) {
    const bool ok = waitUntil(
        [&] {
            const auto a = w.analysis()->current();
            return a && a->complete && !w.analysis()->isBusy() && a->group &&
                   a->summary.load.measure.formatDefaults == formatDefaults &&
                   !a->summary.runs.empty() && a->summary.runs.front().window.warmup == warmup;
        },
        20000);
    EXPECT_TRUE(ok);
    return w.analysis()->current();
}

} // namespace

TEST(FormatWindowUi, Tf2LogsOpenOverDlperfsWindowForTheirFormat) {
    TempDir dir;
    writeTf2Rn50Tree(dir / "tf2");
    const auto expected = summarizeMedians(dir / "tf2");
    ASSERT_EQ(expected.size(), 3u);

    AppWindow app;
    app.window.openDirectory(QString::fromStdString((dir / "tf2").string()));
    auto a = waitForWindow(app.window, true, 100);
    ASSERT_TRUE(a);
    EXPECT_EQ(shownMedians(*a), expected);
    ui::ControlPanel* controls = app.window.controls();
    EXPECT_EQ(controls->warmupBox()->value(), 100);
    EXPECT_EQ(controls->iterationsBox()->value(), 600);
    EXPECT_FALSE(controls->windowBadge()->isHidden());
    EXPECT_TRUE(controls->windowBadge()->text().contains(
        QStringLiteral("Window 100…599: DLPerf's default for TensorFlow 2")))
        << controls->windowBadge()->text().toStdString();
    EXPECT_TRUE(controls->resetWindowButton()->isHidden());

    // A window typed in is every log's, named as not DLPerf's.
    controls->warmupBox()->setValue(200);
    a = waitForWindow(app.window, false, 200);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->summary.runs.front().window.iterations, 600);
    EXPECT_NE(shownMedians(*a), expected);
    EXPECT_TRUE(controls->windowBadge()->text().contains(QStringLiteral("not DLPerf's TensorFlow 2 100…599")))
        << controls->windowBadge()->text().toStdString();
    EXPECT_FALSE(controls->resetWindowButton()->isHidden());

    // Reset: the format's own window again, and summarize's figures.
    controls->resetWindowButton()->click();
    a = waitForWindow(app.window, true, 100);
    ASSERT_TRUE(a);
    EXPECT_EQ(shownMedians(*a), expected);
    EXPECT_EQ(controls->warmupBox()->value(), 100);
    EXPECT_TRUE(controls->resetWindowButton()->isHidden());
}
