// Several directories compared in the window: added as named series (menu, Ctrl-drop, the
// command line's extra directories), overlaid in the charts, compared case by case on Results
// with the same figures as `scaleview-cli compare --format json`, filtered on Runs.

#include "tests/ui/dialoganswer.h"
#include "tests/support/process.h"
#include "tests/ui/seriestrees.h"
#include "tests/ui/uifixture.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/models/comparisontablemodel.h"
#include "ui/browse/chartpage.h"
#include "ui/browse/controlpanel.h"
#include "ui/widgets/pagebanner.h"
#include "core/report/report.h"
#include "ui/browse/resultspage.h"
#include "ui/browse/runspage.h"
#include "ui/models/runtablemodel.h"
#include "ui/compare/seriesset.h"
#include "ui/browse/speeduppage.h"

#include <QAction>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCoreApplication>
#include <QDropEvent>
#include <QLineSeries>
#include <QPushButton>
#include <QScatterSeries>
#include <QLabel>
#include <QListWidget>
#include <QMimeData>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QUrl>
#include <QXmlStreamReader>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

using namespace sv;
using namespace sv::test;

namespace {

// A: 1n1g, 1n2g, 1n4g, 2n1g. B: 1n1g the same, 1n2g 10 % faster, 1n4g 10 % slower, 2n2g new.
struct Pair {
    TempDir dir;
    std::filesystem::path a = dir / "october", b = dir / "november";
    Pair() {
        writeSeriesTree(a, {{1, 1, 1.0}, {1, 2, 1.0}, {1, 4, 1.0}, {2, 1, 1.0}});
        writeSeriesTree(b, {{1, 1, 1.0}, {1, 2, 1.1}, {1, 4, 0.9}, {2, 2, 1.0}});
    }
};

QString q(const std::filesystem::path& p) {
    return QString::fromStdString(p.string());
}

// The window shows every series, each fully loaded, and their comparison.
ui::AnalysisPtr waitForSeries(ui::MainWindow& w, std::size_t series) {
    const bool ok = waitUntil(
        [&] {
            const auto a = w.analysis()->current();
            if (!a || !a->complete || a->others.size() + 1 != series || w.analysis()->isBusy())
                return false;
            for (const auto& o : a->others)
                if (!o.complete) return false;
            return series == 1 || a->comparison.has_value();
        },
        20000);
    EXPECT_TRUE(ok) << "the window never showed " << series << " series";
    return w.analysis()->current();
}

QStringList barSetNames(QChart* chart) {
    QStringList names;
    for (auto* s : chart->series())
        if (auto* bars = qobject_cast<QBarSeries*>(s))
            for (auto* set : bars->barSets())
                names << set->label();
    return names;
}

QStringList lineNames(QChart* chart) {
    QStringList names;
    for (auto* s : chart->series())
        if (qobject_cast<QLineSeries*>(s) && !qobject_cast<QScatterSeries*>(s)) names << s->name();
    return names;
}

// A campaign directory: campaign.json with the window {warmup, iterations}, and logs/ with runs
// that are fast until iteration 50 and slow after it, so that windows give other medians.
void writeWindowedCampaign(const std::filesystem::path& dir, int warmup, int iterations) {
    writeFile(dir / "campaign.json",
              "{\"profile\": \"ngc-mxnet-rn50\", \"warmup\": " + std::to_string(warmup) +
                  ", \"iterations\": " + std::to_string(iterations) + "}");
    for (const int ranks : {1, 2})
        for (int p = 1; p <= 3; ++p) {
            std::string text = "begin time: 2020-09-01 10:00:00\n";
            std::int64_t ms = 0;
            for (int k = 0; k < 120; ++k) {
                ms += (k < 50 ? 400 : 700) + 4 * p;
                for (int r = 0; r < ranks; ++r)
                    text += speedLine(TagStyle::OpenMpi, r, ms, k, "100.0");
            }
            writeFile(dir / "logs/bz64" / ("1n" + std::to_string(ranks) + "g") /
                          ("r50_b64_fp32_" + std::to_string(p) + ".log"),
                      text);
        }
}

int rowOf(const ui::ComparisonTableModel& m, const std::string& topology) {
    for (int r = 0; r < m.rowCount(); ++r)
        if (m.comparison().cases[static_cast<std::size_t>(r)].key.topology.name() == topology)
            return r;
    return -1;
}

} // namespace

TEST(ComparisonUi, AddedDirectoryIsANamedSeriesOverlaidAndComparedCaseByCase) {
    Pair pair;
    AppWindow app;
    app.window.openDirectory(q(pair.a));
    app.window.addToComparison(q(pair.b));
    const auto a = waitForSeries(app.window, 2);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->label, "october");
    ASSERT_EQ(a->others.size(), 1u);
    EXPECT_EQ(a->others[0].label, "november");

    // Results: each case once, both medians, ratio, interval and the verdict in words.
    auto* model = app.window.resultsPage()->comparisonModel();
    EXPECT_FALSE(app.window.resultsPage()->comparisonView()->parentWidget()->isHidden());
    ASSERT_EQ(model->rowCount(), 5);
    EXPECT_EQ(model->headerData(model->medianColumn(0), Qt::Horizontal).toString(), "october");
    // On one line, or on two where the capped column is too narrow for one, B's name cut at the
    // left where it must be ("…mber /" over "october").
    const QString ratio = model->headerData(model->ratioColumn(1), Qt::Horizontal)
                              .toString()
                              .replace(QLatin1Char('\n'), QLatin1Char(' '));
    EXPECT_TRUE(ratio == QStringLiteral("november / october") ||
                (ratio.startsWith(QChar(0x2026)) &&
                 QStringLiteral("november / october").endsWith(ratio.mid(1)) && ratio.size() > 12))
        << ratio.toStdString();
    auto verdict = [&](const char* topo) {
        return model->index(rowOf(*model, topo), model->verdictColumn(1)).data().toString();
    };
    EXPECT_EQ(verdict("1n1g"), "no measurable difference");
    EXPECT_EQ(verdict("1n2g"), "faster");
    EXPECT_EQ(verdict("1n4g"), "slower");
    EXPECT_EQ(verdict("2n1g"), "only in october");
    EXPECT_EQ(verdict("2n2g"), "only in november");
    EXPECT_EQ(model->index(rowOf(*model, "2n2g"), model->medianColumn(0)).data().toString(), "–");

    // Charts: one bar set and one speedup line per series, named as the series, and the
    // published reference still beside them.
    app.window.showPage(ui::MainWindow::Throughput);
    const QStringList bars = barSetNames(app.window.throughputPage()->view()->chart());
    ASSERT_GE(bars.size(), 2);
    EXPECT_EQ(bars[0], "october");
    EXPECT_EQ(bars[1], "november");
    const QStringList lines = lineNames(app.window.speedupPage()->view()->chart());
    EXPECT_TRUE(lines.contains("october")) << lines.join(", ").toStdString();
    EXPECT_TRUE(lines.contains("november")) << lines.join(", ").toStdString();
    const auto data = a->scaling();
    ASSERT_EQ(data.others.size(), 1u);
    ASSERT_EQ(data.points.size(), 5u);   // the union of both series' topologies
    EXPECT_FALSE(data.points[4].median); // 2n2g: not in october
    EXPECT_TRUE(data.others[0].points[4].median);

    // Renamed in the Controls' list: every view follows.
    QListWidget* list = app.window.controls()->seriesList();
    ASSERT_EQ(list->count(), 2);
    list->item(1)->setText(QStringLiteral("after upgrade"));
    ASSERT_TRUE(waitUntil([&] {
        const auto now = app.window.analysis()->current();
        return now && !now->others.empty() && now->others[0].label == "after upgrade";
    }));
    EXPECT_EQ(barSetNames(app.window.throughputPage()->view()->chart())[1], "after upgrade");
    EXPECT_EQ(verdict("2n2g"), "only in after upgrade");

    // Removed: back to one directory, no comparison shown.
    list->setCurrentRow(1);
    app.window.controls()->removeSeriesButton()->click();
    const auto one = waitForSeries(app.window, 1);
    ASSERT_TRUE(one);
    EXPECT_FALSE(one->comparison);
    EXPECT_TRUE(app.window.resultsPage()->comparisonView()->parentWidget()->isHidden());
    EXPECT_EQ(barSetNames(app.window.throughputPage()->view()->chart()).first(),
              "Measured median (time method)");
}

// The GUI's figures are core's comparison, as `compare --format json` prints them.
TEST(ComparisonUi, GuiAndCliAgreeOnAGeneratedPair) {
    Pair pair;
    const auto cli = runProcess({SCALEVIEW_CLI, "compare", pair.a.string(), pair.b.string(),
                                 "--format", "json", "--quiet"});
    ASSERT_EQ(cli.exitCode, 0) << cli.err;
    const auto json = nlohmann::json::parse(cli.out);
    AppWindow app;
    app.window.openDirectory(q(pair.a));
    app.window.addToComparison(q(pair.b));
    const auto a = waitForSeries(app.window, 2);
    ASSERT_TRUE(a && a->comparison);
    const auto* model = app.window.resultsPage()->comparisonModel();
    ASSERT_EQ(static_cast<std::size_t>(model->rowCount()), json["cases"].size());
    for (const auto& jc : json["cases"]) {
        const std::string topo = jc["topology"];
        const int row = rowOf(*model, topo);
        ASSERT_GE(row, 0) << topo;
        const auto& c = model->comparison().cases[static_cast<std::size_t>(row)];
        for (std::size_t s = 0; s < 2; ++s) {
            if (jc["series"][s].is_null()) {
                EXPECT_FALSE(c.medians[s]) << topo;
            } else {
                ASSERT_TRUE(c.medians[s]) << topo;
                EXPECT_DOUBLE_EQ(*c.medians[s], jc["series"][s].get<double>()) << topo;
            }
        }
        const auto& k = c.contrasts.at(0);
        EXPECT_EQ(std::string(verdictName(k.verdict)), jc["verdict"].get<std::string>()) << topo;
        EXPECT_EQ(model->index(row, model->verdictColumn(1))
                      .data(ui::ComparisonTableModel::VerdictRole)
                      .toString()
                      .toStdString(),
                  jc["verdict"].get<std::string>());
        if (jc["ratio"].is_null()) {
            EXPECT_FALSE(k.ratio) << topo;
            continue;
        }
        ASSERT_TRUE(k.ratio && k.ratioCi95) << topo;
        EXPECT_DOUBLE_EQ(*k.ratio, jc["ratio"].get<double>()) << topo;
        EXPECT_DOUBLE_EQ(k.ratioCi95->lo, jc["ratio_ci95"][0].get<double>()) << topo;
        EXPECT_DOUBLE_EQ(k.ratioCi95->hi, jc["ratio_ci95"][1].get<double>()) << topo;
        // And the cells say the same numbers.
        EXPECT_EQ(model->index(row, model->ratioColumn(1)).data().toString().toStdString(),
                  formatFixed(jc["ratio"].get<double>(), 4));
        EXPECT_EQ(model->index(row, model->intervalColumn(1)).data().toString().toStdString(),
                  formatFixed(jc["ratio_ci95"][0].get<double>(), 4) + " – " +
                      formatFixed(jc["ratio_ci95"][1].get<double>(), 4));
    }
}

TEST(ComparisonUi, ATreeAgainstItselfIsNoMeasurableDifferenceEverywhere) {
    Pair pair;
    AppWindow app;
    app.window.openDirectory(q(pair.a));
    app.window.addToComparison(q(pair.a)); // `scaleview A A`
    const auto a = waitForSeries(app.window, 2);
    ASSERT_TRUE(a && a->comparison);
    EXPECT_EQ(a->label, "october");
    EXPECT_EQ(a->others[0].label, "october (2)");
    const auto* model = app.window.resultsPage()->comparisonModel();
    ASSERT_EQ(model->rowCount(), 4);
    for (int r = 0; r < model->rowCount(); ++r) {
        EXPECT_EQ(model->index(r, model->verdictColumn(1)).data().toString(),
                  "no measurable difference");
        EXPECT_EQ(model->index(r, model->ratioColumn(1)).data().toString(), "1.0000");
    }
}

// A folder dropped with Ctrl joins the comparison; without, it replaces what is open and ends it.
TEST(ComparisonUi, CtrlDropAddsASeriesAndOpeningAnotherDirectoryEndsTheComparison) {
    Pair pair;
    AppWindow app;
    app.window.openDirectory(q(pair.a));
    ASSERT_TRUE(waitForSeries(app.window, 1));
    // What dropEvent does with the dropped URL and the modifiers held (a synthetic QDropEvent sent
    // to the window does not reach dropEvent on the offscreen platform).
    auto drop = [&](const std::filesystem::path& dir, Qt::KeyboardModifiers modifiers) {
        app.window.openDropped(q(dir), modifiers);
    };
    drop(pair.b, Qt::ControlModifier);
    const auto two = waitForSeries(app.window, 2);
    ASSERT_TRUE(two && two->others.size() == 1) << app.window.statusText().toStdString();
    EXPECT_EQ(two->summary.root, pair.a.string());
    EXPECT_EQ(two->others[0].label, "november");
    EXPECT_NE(app.window.statusText().indexOf("compared with november"), -1)
        << app.window.statusText().toStdString();

    // The Runs page shows one series' runs at a time.
    ui::RunsPage* runs = app.window.runsPage();
    ASSERT_FALSE(runs->seriesBox()->isHidden());
    ASSERT_EQ(runs->seriesBox()->count(), 2);
    EXPECT_EQ(runs->model()->rowCount(), 12);
    runs->showSeries(1);
    EXPECT_EQ(runs->model()->rowCount(), 12);
    for (int r = 0; r < runs->model()->rowCount(); ++r)
        EXPECT_NE(runs->model()->run(r).path.find("bz64/"), std::string::npos);
    EXPECT_EQ(runs->model()->run(11).key.topology.name(), "2n2g"); // november's own topology
    runs->selectRun(0); // a run of the open directory (a warning): its series again
    EXPECT_EQ(runs->shownSeries(), 0);

    drop(pair.b, Qt::NoModifier);
    ASSERT_TRUE(waitUntil([&] {
        const auto a = app.window.analysis()->current();
        return a && a->complete && a->summary.root == pair.b.string() &&
               !app.window.analysis()->isBusy();
    }));
    const auto now = app.window.analysis()->current();
    EXPECT_TRUE(now->others.empty());
    EXPECT_FALSE(now->comparison);
    EXPECT_EQ(app.window.series()->count(), 1);
}

// An added directory that holds no logs is said, and the comparison goes on without it. The
// banner stays after the recompute that dropping the series starts (the status line alone was
// rewritten by it, on a loaded machine before the user could read it).
TEST(ComparisonUi, AnUnreadableAddedDirectoryIsSaidAndDropped) {
    Pair pair;
    AppWindow app;
    app.window.openDirectory(q(pair.a));
    ASSERT_TRUE(waitForSeries(app.window, 1));
    std::filesystem::create_directories(pair.dir / "empty");
    QSignalSpy failed(app.window.series(), &ui::SeriesSet::failed);
    app.window.addToComparison(q(pair.dir / "empty"));
    ASSERT_TRUE(failed.wait(10000));
    EXPECT_NE(failed.at(0).at(1).toString().indexOf(QStringLiteral("no throughput logs")), -1);
    EXPECT_EQ(app.window.series()->count(), 1);
    // The recompute over the one series left has been shown.
    const auto shown = app.window.analysis()->current();
    ASSERT_TRUE(waitUntil([&] {
        return app.window.analysis()->current() != shown && !app.window.analysis()->isBusy();
    }));
    QCoreApplication::processEvents();
    EXPECT_FALSE(app.window.openBanner()->isHidden());
    EXPECT_TRUE(app.window.openBanner()->text().startsWith(QStringLiteral("Cannot add")))
        << app.window.openBanner()->text().toStdString();
    EXPECT_NE(app.window.openBanner()->text().indexOf(QStringLiteral("no throughput logs")), -1);
    EXPECT_EQ(app.window.openBanner()->actionButton()->text(), QStringLiteral("Add another…"));
    EXPECT_EQ(app.window.analysis()->current()->summary.root, pair.a.string()); // still shown
    // Adding again takes the old failure away.
    app.window.addToComparison(q(pair.b));
    EXPECT_TRUE(app.window.openBanner()->isHidden());
    ASSERT_TRUE(waitForSeries(app.window, 2));
}

// Each series is measured over its own campaign's window, as `compare` measures it: an added
// campaign is not read over the open one's window (the GUI and the CLI disagreed on the same
// two directories), and the series list says whose window each is.
TEST(ComparisonUi, EachSeriesIsMeasuredOverItsOwnCampaignsWindowAsTheCliDoes) {
    TempDir dir;
    const auto a = dir / "early", b = dir / "late";
    writeWindowedCampaign(a, 10, 60);
    writeWindowedCampaign(b, 60, 120);
    const auto cli = runProcess({SCALEVIEW_CLI, "compare", (a / "logs").string(),
                                 (b / "logs").string(), "--format", "json", "--quiet"});
    ASSERT_EQ(cli.exitCode, 0) << cli.err;
    const auto json = nlohmann::json::parse(cli.out);
    ASSERT_EQ(json["cases"].size(), 2u);

    AppWindow app;
    app.window.openDirectory(q(a / "logs"));
    app.window.addToComparison(q(b / "logs"));
    const auto shown = waitForSeries(app.window, 2);
    ASSERT_TRUE(shown && shown->comparison);
    EXPECT_EQ(shown->summary.load.measure.warmup, 10);
    EXPECT_EQ(shown->summary.load.measure.iterations, 60);
    ASSERT_EQ(shown->others.size(), 1u);
    EXPECT_EQ(shown->others[0].summary.load.measure.warmup, 60);
    EXPECT_EQ(shown->others[0].summary.load.measure.iterations, 120);
    EXPECT_EQ(shown->others[0].summary.windowSource, "campaign");
    for (const auto& log : shown->others[0].logs)
        EXPECT_EQ(log->measure.warmup, 60) << log->file.path; // read once, for its own window

    const auto* model = app.window.resultsPage()->comparisonModel();
    ASSERT_EQ(model->rowCount(), 2);
    for (const auto& jc : json["cases"]) {
        const std::string topo = jc["topology"];
        const int row = rowOf(*model, topo);
        ASSERT_GE(row, 0) << topo;
        const auto& c = model->comparison().cases[static_cast<std::size_t>(row)];
        for (std::size_t s = 0; s < 2; ++s) {
            ASSERT_TRUE(c.medians[s]) << topo;
            EXPECT_DOUBLE_EQ(*c.medians[s], jc["series"][s].get<double>()) << topo << " " << s;
        }
        // The windows matter here: late's window is in the slow part only.
        EXPECT_LT(*c.medians[1], *c.medians[0] * 0.8) << topo;
        EXPECT_EQ(std::string(verdictName(c.contrasts.at(0).verdict)),
                  jc["verdict"].get<std::string>())
            << topo;
    }

    // The Controls' list says each series' window and whose it is.
    QListWidget* list = app.window.controls()->seriesList();
    ASSERT_EQ(list->count(), 2);
    const QString first = list->item(0)->toolTip(), second = list->item(1)->toolTip();
    EXPECT_TRUE(first.contains(QStringLiteral("warmup 10, iterations 60"))) << first.toStdString();
    EXPECT_TRUE(second.contains(QStringLiteral("warmup 60, iterations 120")))
        << second.toStdString();
    EXPECT_TRUE(second.contains(q(b / "campaign.json"))) << second.toStdString();
}

// An added campaign whose campaign.json cannot be read is measured over DLPerf's window, as
// `compare` does, and the status bar names the file and the reason.
TEST(ComparisonUi, AnAddedCampaignWithABrokenCampaignFileIsSaidAndMeasuredOverDlperfsWindow) {
    TempDir dir;
    const auto a = dir / "early", b = dir / "broken";
    writeWindowedCampaign(a, 10, 60);
    writeWindowedCampaign(b, 60, 120);
    writeFile(b / "campaign.json", "{\"warmup\": 60, ");
    AppWindow app;
    app.window.openDirectory(q(a / "logs"));
    app.window.addToComparison(q(b / "logs"));
    const auto shown = waitForSeries(app.window, 2);
    ASSERT_TRUE(shown && shown->others.size() == 1);
    EXPECT_EQ(shown->others[0].summary.load.measure.warmup, 20);
    EXPECT_EQ(shown->others[0].summary.load.measure.iterations, 120);
    EXPECT_EQ(shown->others[0].summary.windowSource, "dlperf");
    const QString said = app.window.statusBar()->currentMessage();
    EXPECT_TRUE(said.contains(q(b / "campaign.json"))) << said.toStdString();
    EXPECT_TRUE(said.contains(QStringLiteral("not a JSON object"))) << said.toStdString();
    EXPECT_TRUE(said.contains(QStringLiteral("DLPerf's window 20…119"))) << said.toStdString();
}

// File › Export Report… with a directory added: both directories, and their comparison over all
// their cases with the verdicts `scaleview-cli compare` gives (it exported the open one alone).
TEST(ComparisonUi, ExportReportHoldsEveryDirectoryAndTheirComparison) {
    Pair pair;
    AppWindow app;
    app.window.show();
    app.window.openDirectory(q(pair.a));
    app.window.addToComparison(q(pair.b));
    ASSERT_TRUE(waitForSeries(app.window, 2));
    QAction* action = app.window.findChild<QAction*>(QStringLiteral("exportReport"));
    ASSERT_TRUE(action && action->isEnabled());
    const QString target = q(pair.dir / "report.html");
    FileDialogAnswer answer(target);
    QSignalSpy written(&app.window, &ui::MainWindow::reportExported);
    action->trigger();
    ASSERT_TRUE(waitUntil([&] { return written.count() == 1; }, 30000));

    QFile file(target);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);
    QStringList cells, headings;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement) continue;
        if (xml.name() == QLatin1String("svg"))
            xml.skipCurrentElement();
        else if (xml.name() == QLatin1String("td"))
            cells << xml.readElementText(QXmlStreamReader::IncludeChildElements);
        else if (xml.name() == QLatin1String("h2"))
            headings << xml.readElementText(QXmlStreamReader::IncludeChildElements);
    }
    ASSERT_FALSE(xml.hasError()) << xml.errorString().toStdString();
    EXPECT_TRUE(headings.contains(QStringLiteral("october"))) << headings.join('|').toStdString();
    EXPECT_TRUE(headings.contains(QStringLiteral("november"))) << headings.join('|').toStdString();
    EXPECT_TRUE(headings.contains(QStringLiteral("Comparison")))
        << headings.join('|').toStdString();

    const auto cli = runProcess(
        {SCALEVIEW_CLI, "compare", pair.a.string(), pair.b.string(), "--format", "json"});
    ASSERT_EQ(cli.exitCode, 0) << cli.err;
    const auto json = nlohmann::json::parse(cli.out);
    ASSERT_EQ(json["cases"].size(), 5u);
    std::map<std::string, int> expected;
    for (const auto& c : json["cases"])
        ++expected[c["verdict"].get<std::string>()];
    EXPECT_EQ(expected.size(), 5u); // faster, slower, no-difference, only-in-A, only-in-B
    // The report says each verdict in the screen's words (JSON keeps the codes), a case in one
    // directory only by the directory's name.
    const std::map<std::string, QString> words{
        {"faster", QStringLiteral("faster")},
        {"slower", QStringLiteral("slower")},
        {"no-difference", QStringLiteral("no measurable difference")},
        {"only-in-A", QStringLiteral("only in october")},
        {"only-in-B", QStringLiteral("only in november")}};
    for (const auto& [verdict, count] : expected) {
        ASSERT_TRUE(words.count(verdict)) << verdict;
        const QString v = words.at(verdict);
        if (QString::fromStdString(verdict) != v) {
            EXPECT_FALSE(cells.contains(QString::fromStdString(verdict)))
                << verdict << ": a code in the report";
        }
        EXPECT_EQ(std::count_if(cells.begin(), cells.end(),
                                [&](const QString& c) { return c == v || c.endsWith(" " + v); }),
                  count)
            << verdict << ": " << cells.join('|').toStdString();
    }
    // November's own cases, with its medians.
    for (const auto& c : json["cases"]) {
        if (c["series"].size() != 2 || c["series"][1].is_null()) continue;
        EXPECT_TRUE(
            cells.contains(QString::fromStdString(formatFixed(c["series"][1].get<double>(), 2))))
            << c.dump();
    }
}

// Issue 37 item 11: Compare's verdict did not say that the runs it is over were disturbed; and
// What changed's tooltip listed "(none) -> value" for what only one side records.
TEST(ComparisonUi, TheVerdictSaysDisturbedRunsAndWhatOnlyOneSideRecordsIsSaidSo) {
    const auto side = [](const std::string& label, std::vector<double> values, bool disturbed) {
        CaseStats c;
        c.key = {"r50", "fp32", 64, {1, 2}, "ngc-mxnet"};
        c.values = values;
        c.median = values[1];
        if (disturbed) c.warnings.push_back({"disturbed", "repeat 2 ran on a busy host"});
        ComparisonSeries s;
        s.label = label;
        s.cases.push_back(c);
        return s;
    };
    Comparison c = compareSeries({side("nightly-1", {99.0, 100.0, 101.0}, false),
                                  side("nightly-2", {99.5, 100.5, 101.5}, true)});
    ASSERT_EQ(c.cases.size(), 1u);
    c.cases[0].changed[0] = {{"log.lr", "", "0.1"}, {"driver", "535", "550"}};
    ui::ComparisonTableModel model;
    model.setComparison(c);
    const QModelIndex verdict = model.index(0, model.verdictColumn(1));
    EXPECT_EQ(model.data(verdict).toString(),
              QStringLiteral("no measurable difference (runs disturbed)"));
    EXPECT_EQ(model.data(verdict, ui::ComparisonTableModel::VerdictRole).toString(),
              QStringLiteral("no-difference"));
    const QString why = model.data(verdict, Qt::ToolTipRole).toString();
    EXPECT_TRUE(why.contains(QStringLiteral("Disturbed in nightly-2: repeat 2 ran on a busy host")))
        << why.toStdString();
    const QString changed =
        model.data(model.index(0, model.changedColumn(1)), Qt::ToolTipRole).toString();
    EXPECT_FALSE(changed.contains(QStringLiteral("(none)"))) << changed.toStdString();
    EXPECT_TRUE(changed.contains(QStringLiteral("only in nightly-2: log.lr = 0.1")))
        << changed.toStdString();
    EXPECT_TRUE(changed.contains(QStringLiteral("driver: 535 -> 550"))) << changed.toStdString();
}
