// Issue 27: what the status bar and the Controls say agrees with the tables: runs "used" are the
// runs the cases use; a window with no iteration is marked on its fields, not written backwards.

#include "tests/ui/uifixture.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/browse/controlpanel.h"
#include "ui/compare/seriesset.h"
#include "ui/window/mainwindow.h"

#include <QCheckBox>
#include <QLabel>
#include <QSpinBox>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sv;
using namespace sv::test;

namespace {

using Window = AppWindow;

} // namespace

// Item 10: with "Exclude disturbed runs" and every run disturbed, the table had 0 runs and the
// status bar "3 runs, 3 used".
TEST(ControlsTruth, TheStatusLineCountsDisturbedRunsLeftOutAsUnused) {
    TempDir dir;
    const auto logs = dir.path() / "logs";
    CampaignSpec spec;
    spec.topologies = {{1, 1}};
    writeCampaign(logs, spec);
    std::string journal;
    for (int p = 1; p <= 3; ++p)
        journal += nlohmann::json{{"event", "end"},
                                  {"id", "bz64/1n1g/r50_b64_fp32_" + std::to_string(p)},
                                  {"tag", "svtag" + std::to_string(p)},
                                  {"state", "ok"},
                                  {"log", logPath(logs, spec, 1, 1, p).string()},
                                  {"disturbed", true},
                                  {"evidence", {"pid 7 (yes) used 99 % of a core"}}}
                       .dump() +
                   "\n";
    writeFile(dir.path() / "journal.jsonl", journal);
    Window w;
    w.window.openDirectory(QString::fromStdString(dir.path().string()));
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 3u; }));
    EXPECT_TRUE(w.window.statusText().contains(QLatin1String("3 runs, 3 used")))
        << w.window.statusText().toStdString();
    w.window.controls()->excludeDisturbedBox()->setChecked(true);
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.summary.options.excludeDisturbed; }));
    const auto a = w.window.analysis()->current();
    EXPECT_EQ(runsUsed(a->summary), 0u);
    for (const auto& c : a->summary.cases)
        EXPECT_TRUE(c.values.empty());
    const QString status = w.window.statusText();
    EXPECT_TRUE(status.contains(QLatin1String("3 runs, 0 used"))) << status.toStdString();
}

// Item 12: warmup 130 over 120 iterations was said only in the status bar; the note read
// "Window 130…119".
TEST(ControlsTruth, AWarmupAtOrAboveTheIterationsIsMarkedOnItsFieldsAndSaidPlainly) {
    ui::ControlPanel panel;
    panel.iterationsBox()->setValue(120);
    panel.warmupBox()->setValue(130);
    ASSERT_EQ(panel.options().measure.warmup, 130);
    ASSERT_EQ(panel.options().measure.iterations, 120);
    const QString badge = panel.windowBadge()->text();
    EXPECT_FALSE(badge.contains(QStringLiteral("130…119"))) << badge.toStdString();
    EXPECT_TRUE(badge.contains(QLatin1String("warmup 130 is not below iterations 120")))
        << badge.toStdString();
    EXPECT_FALSE(panel.windowBadge()->isHidden());
    for (QSpinBox* box : {panel.warmupBox(), panel.iterationsBox()}) {
        EXPECT_TRUE(box->property("invalid").toBool());
        EXPECT_TRUE(box->styleSheet().contains(QLatin1String("#c62828")));
        EXPECT_TRUE(box->toolTip().contains(QLatin1String("Warmup 130 is not below iterations 120")))
            << box->toolTip().toStdString();
    }
    // Fixed: the fields look as usual again.
    panel.warmupBox()->setValue(20);
    EXPECT_FALSE(panel.warmupBox()->property("invalid").toBool());
    EXPECT_TRUE(panel.warmupBox()->styleSheet().isEmpty());
    EXPECT_FALSE(panel.windowBadge()->text().contains(QLatin1String("not below")));
}

// Item 7: the TensorFlow 2 tree and the samples, both in folders called resnet50, were
// "resnet50" and "resnet50 (2)": each is named after what tells it apart.
TEST(ControlsTruth, SeriesOfOneDirectoryNameAreNamedByWhatTellsThemApart) {
    TempDir a, b;
    CampaignSpec spec;
    spec.topologies = {{1, 1}};
    writeCampaign(a.path() / "mxnet" / "resnet50", spec);
    writeCampaign(b.path() / "tf2" / "resnet50", spec);
    ui::SeriesSet set;
    set.setMainRoot(QString::fromStdString((a.path() / "mxnet" / "resnet50").string()));
    set.add(QString::fromStdString((b.path() / "tf2" / "resnet50").string()));
    EXPECT_EQ(set.labels(), (QStringList{QStringLiteral("mxnet/resnet50"),
                                         QStringLiteral("tf2/resnet50")}));
    // A name the user gives stays.
    set.rename(1, QStringLiteral("mine"));
    EXPECT_EQ(set.labels(), (QStringList{QStringLiteral("resnet50"), QStringLiteral("mine")}));
}

