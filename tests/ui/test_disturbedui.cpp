// A campaign whose monitor marked a run disturbed, as the window shows it: the Runs table's
// mark with the evidence, the Controls toggle that leaves such runs out, and the trace's curve
// of what other processes used.
#include "tests/ui/snapshotfixture.h"
#include "tests/ui/uifixture.h"

#include "ui/browse/controlpanel.h"
#include "ui/models/runtablemodel.h"
#include "ui/charts/tracechart.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QChart>
#include <QLineSeries>
#include <QValueAxis>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>

using namespace sv;
using namespace sv::test;
namespace fs = std::filesystem;

namespace {

const char* kEvidence = "pid 4242 (python3) used 97 % of a core on local over the run (up to 99 %)";

// Three repeats of 1n1g in a launcher's layout, repeat 2 disturbed by the journal, with its
// monitor samples (and an earlier attempt's, under another tag, that must not be drawn).
struct DisturbedCampaign {
    TempDir dir;
    fs::path logs = dir / "logs/local/pytorch-cpu/resnet50";
    CampaignSpec spec;
    DisturbedCampaign() {
        spec.topologies = {{1, 1}};
        writeCampaign(logs, spec);
        std::string journal;
        for (int p = 1; p <= 3; ++p) {
            nlohmann::json end{
                {"event", "end"},
                {"id", "bz64/1n1g/r50_b64_fp32_" + std::to_string(p)},
                {"tag", "svtag" + std::to_string(p)},
                {"state", "ok"},
                {"log", logPath(logs, spec, 1, 1, p).string()},
                {"disturbed", p == 2},
                {"evidence", p == 2 ? nlohmann::json::array({kEvidence}) : nlohmann::json::array()},
                {"monitor", {{"samples", 3}}}};
            journal += end.dump() + "\n";
        }
        writeFile(dir / "journal.jsonl", journal);
        std::string samples =
            R"({"tag":"svold","iteration":5,"load1":9.0,"foreign":[{"pid":1,"cpu_pct":500}]})"
            "\n";
        for (int k = 0; k <= 120; k += 40)
            samples += nlohmann::json{{"tag", "svtag2"},
                                      {"iteration", k},
                                      {"load1", 1.5 + k / 100.0},
                                      {"foreign", {{{"pid", 4242}, {"cpu_pct", 97.0}}}}}
                           .dump() +
                       "\n";
        writeFile(dir / "monitor/bz64/1n1g/r50_b64_fp32_2.jsonl", samples);
    }
};

} // namespace

TEST(DisturbedRuns, AnalysisMarksTheRunReadsItsSamplesAndCanLeaveItOut) {
    DisturbedCampaign c;
    const ui::LogSnapshot snapshot = readSnapshot(c.dir.path());
    const ui::Analysis a = ui::analyze(snapshot, {});
    ASSERT_EQ(a.summary.runs.size(), 3u);
    for (const auto& r : a.summary.runs) {
        EXPECT_EQ(r.disturbed, r.key.repeat == 2) << r.path;
        EXPECT_EQ(r.monitor.size(), r.key.repeat == 2 ? 4u : 0u) << r.path;
    }
    const auto& run2 = *std::find_if(a.summary.runs.begin(), a.summary.runs.end(),
                                     [](const RunResult& r) { return r.key.repeat == 2; });
    EXPECT_EQ(run2.disturbance, kEvidence);
    EXPECT_DOUBLE_EQ(run2.monitor.back().iteration, 120.0);
    EXPECT_DOUBLE_EQ(run2.monitor.back().foreignCpuPct, 97.0);
    ASSERT_EQ(a.summary.cases.size(), 1u);
    EXPECT_EQ(a.summary.cases[0].values.size(), 3u);
    ASSERT_EQ(a.summary.cases[0].warnings.size(), 1u);
    EXPECT_EQ(a.summary.cases[0].warnings[0].kind, "disturbed");

    ui::AnalysisOptions exclude;
    exclude.excludeDisturbed = true;
    const ui::Analysis x = ui::analyze(snapshot, exclude);
    EXPECT_EQ(x.summary.cases[0].repeats, (std::vector<int>{1, 3}));
}

TEST(DisturbedRuns, RunsTableMarksTheRunWithTheEvidenceAsTooltip) {
    DisturbedCampaign c;
    const ui::Analysis a = ui::analyze(readSnapshot(c.dir.path()), {});
    ui::RunTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setSummary(a.summary);
    ASSERT_EQ(model.rowCount(), 3);
    for (int r = 0; r < model.rowCount(); ++r) {
        const QModelIndex i = model.index(r, ui::RunTableModel::Disturbed);
        const bool disturbed = model.run(r).key.repeat == 2;
        EXPECT_EQ(model.data(i).toString(), disturbed ? QStringLiteral("disturbed ⚠") : QString());
        EXPECT_EQ(model.data(i, ui::RunTableModel::ProblemRole).toBool(), disturbed);
        if (disturbed) {
            EXPECT_TRUE(
                model.data(i, Qt::ToolTipRole).toString().contains(QString::fromUtf8(kEvidence)))
                << model.data(i, Qt::ToolTipRole).toString().toStdString();
        }
    }
    EXPECT_EQ(model.headerData(ui::RunTableModel::Disturbed, Qt::Horizontal).toString(),
              QStringLiteral("Disturbed"));
}

TEST(DisturbedRuns, TraceDrawsWhatOtherProcessesUsedOnASecondAxis) {
    DisturbedCampaign c;
    const ui::Analysis a = ui::analyze(readSnapshot(c.dir.path()), {});
    // The loop checks the disturbed repeat's chart: there must be one, or it checks nothing.
    ASSERT_EQ(a.logs.size(), a.summary.runs.size());
    ASSERT_TRUE(std::any_of(a.summary.runs.begin(), a.summary.runs.end(),
                            [](const RunResult& r) { return r.key.repeat == 2; }));
    for (std::size_t i = 0; i < a.logs.size(); ++i) {
        const RunResult& run = a.summary.runs[i];
        std::unique_ptr<QChart> chart(ui::TraceChart::build(
            traceRunLog(*a.logs[i]), MeasureOptions{20, 120}, QStringLiteral("run"), run.monitor));
        const auto vertical = chart->axes(Qt::Vertical);
        QLineSeries* curve = nullptr;
        for (auto* s : chart->series())
            if (auto* l = qobject_cast<QLineSeries*>(s);
                l && l->name().startsWith(QStringLiteral("Busiest other process")))
                curve = l;
        if (run.key.repeat != 2) {
            EXPECT_EQ(vertical.size(), 1) << "no samples, no second axis";
            EXPECT_EQ(curve, nullptr);
            continue;
        }
        ASSERT_EQ(vertical.size(), 2);
        ASSERT_NE(curve, nullptr);
        EXPECT_TRUE(curve->name().contains(QStringLiteral("load avg up to 2.7")))
            << curve->name().toStdString();
        // A step per sample: the first point, then two per later sample.
        ASSERT_EQ(curve->count(), 7);
        EXPECT_EQ(curve->at(6), QPointF(120, 97.0));
        EXPECT_EQ(curve->attachedAxes().size(), 2);
        const auto* right = qobject_cast<QValueAxis*>(vertical[1]);
        ASSERT_NE(right, nullptr);
        EXPECT_EQ(right->alignment(), Qt::AlignRight);
        EXPECT_GE(right->max(), 100.0);
    }
}

TEST(DisturbedRuns, ControlsToggleAsksForTheRunsToBeLeftOut) {
    ui::ControlPanel panel;
    std::vector<ui::AnalysisOptions> edited;
    QObject::connect(&panel, &ui::ControlPanel::optionsEdited, &panel,
                     [&](const ui::AnalysisOptions& o) { edited.push_back(o); });
    EXPECT_FALSE(panel.excludeDisturbedBox()->isChecked()); // default: include and warn
    panel.excludeDisturbedBox()->setChecked(true);
    ASSERT_EQ(edited.size(), 1u);
    EXPECT_TRUE(edited[0].excludeDisturbed);
    EXPECT_TRUE(panel.options().excludeDisturbed);
    ui::AnalysisOptions o;
    o.excludeDisturbed = false;
    panel.setOptions(o); // reflects without echoing back
    EXPECT_FALSE(panel.excludeDisturbedBox()->isChecked());
    EXPECT_EQ(edited.size(), 1u);
}
