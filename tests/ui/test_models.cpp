// Every model under QAbstractItemModelTester, and its contents against the core's statistics.

#include "tests/ui/snapshotfixture.h"
#include "tests/ui/uifixture.h"

#include "ui/models/casetablemodel.h"
#include "ui/models/comparisontablemodel.h"
#include "ui/models/hosttablemodel.h"
#include "ui/browse/controlpanel.h"
#include "ui/models/referencelistmodel.h"
#include "core/compare/comparison.h"
#include "core/report/casenotes.h"
#include "core/report/report.h"
#include "ui/models/runtablemodel.h"
#include "ui/models/warninglistmodel.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTreeView>

#include <algorithm>
#include <map>
#include <QFontMetrics>
#include <gtest/gtest.h>

using namespace sv;
using namespace sv::test;

namespace {

constexpr auto kFatal = QAbstractItemModelTester::FailureReportingMode::Fatal;

// Two topologies complete, one repeat of 1n2g cut short: a warning and an excluded run.
struct Fixture {
    TempDir dir;
    CampaignSpec spec;
    Fixture() {
        writeCampaign(dir.path(), spec);
        writeFile(logPath(dir.path(), spec, 1, 2, 3), runText(spec, 2, 3, 50));
    }
    Summary core(Method m = Method::Time, MeasureOptions measure = {}) const {
        LoadOptions load;
        load.measure = measure;
        SummaryOptions o;
        o.method = m;
        return summarizeDirectory(dir.path(), load, o);
    }
};

QString cell(const QAbstractItemModel& m, int row, int col, int role = Qt::DisplayRole) {
    return m.data(m.index(row, col), role).toString();
}

// What a view shows of model: a proxy learns of rows and columns only from the model's signals,
// so a change made without them leaves it showing the old shape (the tester alone, which checks
// what the signals announce, cannot see a change never announced).
testing::AssertionResult shownAsModel(const QAbstractItemModel& shown,
                                      const QAbstractItemModel& model) {
    if (shown.rowCount() == model.rowCount() && shown.columnCount() == model.columnCount())
        return testing::AssertionSuccess();
    return testing::AssertionFailure()
           << "a view shows " << shown.rowCount() << "x" << shown.columnCount()
           << ", the model has " << model.rowCount() << "x" << model.columnCount();
}

} // namespace

TEST(CaseTableModel, RowsEqualCoreStatistics) {
    Fixture f;
    const Summary core = f.core();
    ui::CaseTableModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.setCases(core.cases);
    ASSERT_EQ(model.rowCount(), 3);
    for (int r = 0; r < 3; ++r) {
        const CaseStats& c = core.cases[static_cast<std::size_t>(r)];
        EXPECT_EQ(cell(model, r, ui::CaseTableModel::Gpus), QString::number(c.gpus()));
        EXPECT_EQ(cell(model, r, ui::CaseTableModel::Median).toStdString(),
                  formatFixed(*c.median, 2));
        EXPECT_EQ(cell(model, r, ui::CaseTableModel::Mean).toStdString(), formatFixed(*c.mean, 2));
        EXPECT_EQ(cell(model, r, ui::CaseTableModel::Speedup).toStdString(),
                  formatFixed(*c.speedup, 2));
        EXPECT_DOUBLE_EQ(
            model.data(model.index(r, ui::CaseTableModel::Median), ui::CaseTableModel::SortRole)
                .toDouble(),
            *c.median);
    }
    // The cut-short 1n2g repeat is excluded, with its reason as tooltip.
    EXPECT_EQ(cell(model, 1, ui::CaseTableModel::RunsExcluded), QStringLiteral("1"));
    EXPECT_EQ(cell(model, 1, ui::CaseTableModel::RunsUsed), QStringLiteral("2"));
    EXPECT_TRUE(cell(model, 1, ui::CaseTableModel::RunsExcluded, Qt::ToolTipRole)
                    .contains(QStringLiteral("r50_b64_fp32_3.log")));
    // Swapped whole: the tester checks the reset is consistent.
    model.setCases({});
    EXPECT_EQ(model.rowCount(), 0);
}

TEST(CaseTableModel, DeltaIsColouredAndReferenceExplained) {
    TempDir dir;
    CampaignSpec spec;
    spec.batch = 128; // the published fp32 table is for batch 128
    spec.topologies = {{1, 1}};
    writeCampaign(dir.path(), spec);
    const Summary core = summarizeDirectory(dir.path(), {}, {});
    ui::CaseTableModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.setCases(core.cases);
    ASSERT_EQ(model.rowCount(), 1);
    ASSERT_TRUE(core.cases[0].deltaPct);
    // 128 / 0.5 s = 256 images/s against 392.24 published: far below, so red.
    EXPECT_LT(*core.cases[0].deltaPct, -5.0);
    const QBrush brush =
        model.data(model.index(0, ui::CaseTableModel::Delta), Qt::ForegroundRole).value<QBrush>();
    // Red, of a shade the palette decides (tests/ui/test_usability.cpp: dark themes).
    EXPECT_TRUE(brush.color().hsvHue() <= 10 || brush.color().hsvHue() >= 350)
        << brush.color().name().toStdString();
    EXPECT_EQ(cell(model, 0, ui::CaseTableModel::Reference), QStringLiteral("392.24"));
    const QString tip = cell(model, 0, ui::CaseTableModel::Reference, Qt::ToolTipRole);
    EXPECT_TRUE(tip.contains(QStringLiteral("Source:"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("V100"))) << tip.toStdString();
    // The published FP32 table is the speed method: the tooltip says the delta is by it, and
    // gives the A/B against the table's seven repeats.
    EXPECT_TRUE(tip.contains(QStringLiteral("Compared by the speed method"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("Against the reference's 7 repeats: this case's "
                                            "median is ")))
        << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("slower than the reference"))) << tip.toStdString();
    EXPECT_FALSE(tip.contains(QStringLiteral("ratio"))) << tip.toStdString();
}

TEST(CaseTableModel, SortsNumbersAsNumbers) {
    TempDir dir;
    CampaignSpec spec;
    spec.batch = 16; // 1 GPU about 32 images/s, 4 GPUs about 121: "32" sorts above "121" as text
    writeCampaign(dir.path(), spec);
    ui::CaseTableModel model;
    model.setCases(summarizeDirectory(dir.path(), {}, {}).cases);
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(ui::CaseTableModel::SortRole);
    QAbstractItemModelTester tester(&proxy, kFatal);
    proxy.sort(ui::CaseTableModel::Median, Qt::DescendingOrder);
    // As text 1 GPU would come first; as numbers 4 GPUs do.
    EXPECT_EQ(proxy.data(proxy.index(0, ui::CaseTableModel::Gpus)).toInt(), 4);
    EXPECT_EQ(proxy.data(proxy.index(2, ui::CaseTableModel::Gpus)).toInt(), 1);
}

TEST(RunTableModel, EveryRunWithStatusBothMethodsAndFlags) {
    Fixture f;
    const Summary core = f.core();
    ui::RunTableModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.setSummary(core);
    ASSERT_EQ(static_cast<std::size_t>(model.rowCount()), core.runs.size());
    int incomplete = 0;
    for (int r = 0; r < model.rowCount(); ++r) {
        const RunResult& run = core.runs[static_cast<std::size_t>(r)];
        EXPECT_EQ(cell(model, r, ui::RunTableModel::Log).toStdString(), run.path);
        EXPECT_EQ(cell(model, r, ui::RunTableModel::Status).toStdString(),
                  std::string(statusName(run.status)));
        if (run.usable()) {
            EXPECT_EQ(cell(model, r, ui::RunTableModel::TimeMethod).toStdString(),
                      formatFixed(*run.timeThroughput, 2));
            EXPECT_EQ(cell(model, r, ui::RunTableModel::SpeedMethod).toStdString(),
                      formatFixed(*run.speedThroughput, 2));
        } else {
            ++incomplete;
            // Visible, with its reason, not hidden.
            EXPECT_TRUE(model.data(model.index(r, 0), Qt::BackgroundRole).isValid());
            EXPECT_TRUE(cell(model, r, ui::RunTableModel::Reason).contains(QStringLiteral("found")))
                << cell(model, r, ui::RunTableModel::Reason).toStdString();
        }
    }
    EXPECT_EQ(incomplete, 1);
}

// A log that states no GPU count (a general reader's log found as it is) shows "?" as every other
// page does, not "0n0g"; one whose node count nobody states, its GPUs alone.
TEST(RunTableModel, AnUnknownTopologyIsAQuestionMarkNotZeros) {
    Summary s;
    RunResult unknown, gpusOnly, known;
    unknown.path = "bigdl-ncf/result_0.txt";
    gpusOnly.path = "horovod/synthetic_benchmark.log";
    gpusOnly.key.topology = {1, 8};
    gpusOnly.key.origins.nodesUnknown = true;
    known.path = "bz128/4n8g/r50_b128_fp32_1.log";
    known.key.topology = {4, 8};
    s.runs = {unknown, gpusOnly, known};
    ui::RunTableModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.setSummary(s);
    ASSERT_EQ(model.rowCount(), 3);
    EXPECT_EQ(cell(model, 0, ui::RunTableModel::Topology), QStringLiteral("?"));
    EXPECT_EQ(cell(model, 1, ui::RunTableModel::Topology), QStringLiteral("8 GPUs"));
    EXPECT_EQ(cell(model, 2, ui::RunTableModel::Topology), QStringLiteral("4n8g"));
}

// Issue 37's polish: a case whose nodes no log states read "8 GPUs" on the Runs page but Nodes 1
// on Results (and "1n8g" in the warnings): its Nodes is "?", its GPUs 8.
TEST(CaseTableModel, ACaseWhoseNodesNoLogStatesHasNodesQuestionMark) {
    Summary s;
    RunResult r;
    r.key = RunKey{"r50", "fp32", 296, Topology{1, 8}, 1};
    r.key.origins.nodesUnknown = true;
    r.path = "results/8xV100/r50.log";
    r.status = RunStatus::Complete;
    r.timeThroughput = r.speedThroughput = 2890.82;
    s.runs = {r};
    recomputeCases(s);
    ASSERT_EQ(s.cases.size(), 1u);
    ASSERT_TRUE(nodesUnstated(s.cases[0], s.runs));
    ui::CaseTableModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.setCases(s.cases, false, {true});
    ASSERT_EQ(model.rowCount(), 1);
    EXPECT_EQ(cell(model, 0, ui::CaseTableModel::Nodes), QStringLiteral("?"));
    EXPECT_EQ(cell(model, 0, ui::CaseTableModel::Gpus), QStringLiteral("8"));
    // Where a log states them, the count stays.
    s.runs[0].key.origins.nodesUnknown = false;
    recomputeCases(s);
    EXPECT_FALSE(nodesUnstated(s.cases[0], s.runs));
    model.setCases(s.cases, false, {false});
    EXPECT_EQ(cell(model, 0, ui::CaseTableModel::Nodes), QStringLiteral("1"));
}

TEST(RunTableModel, FlagsTheOutlierRepeat) {
    TempDir dir;
    CampaignSpec spec;
    spec.topologies = {{1, 1}};
    spec.repeats = 5;
    writeCampaign(dir.path(), spec);
    // Repeat 5 at half speed: far outside the others' spread.
    RunSpec slow;
    slow.stepMs = 1000;
    writeFile(logPath(dir.path(), spec, 1, 1, 5),
              makeLog(slow, [](int, int) { return std::string("64.0"); }));
    const Summary core = summarizeDirectory(dir.path(), {}, {});
    ASSERT_EQ(core.cases.size(), 1u);
    ASSERT_EQ(core.cases[0].outlierRepeats, std::vector<int>{5});
    ui::RunTableModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.setSummary(core);
    for (int r = 0; r < model.rowCount(); ++r)
        EXPECT_EQ(model.isOutlier(r), model.run(r).key.repeat == 5) << r;
    EXPECT_EQ(cell(model, 4, ui::RunTableModel::Outlier), QStringLiteral("outlier"));
    // Issue 37 (last round's): the outlier's row had an empty Reason. It says why it is one and
    // that it still counts; the other rows say nothing of outliers.
    for (int r = 0; r < model.rowCount(); ++r) {
        const QString reason = cell(model, r, ui::RunTableModel::Reason);
        if (model.run(r).key.repeat == 5)
            EXPECT_TRUE(reason.contains(QStringLiteral("an outlier: more than 3.5 robust "
                                                       "deviations")) &&
                        reason.contains(QStringLiteral("still counted")))
                << reason.toStdString();
        else
            EXPECT_FALSE(reason.contains(QStringLiteral("outlier"))) << reason.toStdString();
    }
}

TEST(WarningListModel, ShowsEveryWarningText) {
    Fixture f;
    const Summary core = f.core();
    ui::WarningListModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.setWarnings(core.warnings);
    ASSERT_EQ(static_cast<std::size_t>(model.rowCount()), core.warnings.size());
    ASSERT_EQ(model.rowCount(), 1);
    EXPECT_EQ(model.data(model.index(0)).toString().toStdString(), core.warnings[0].text());
}

// The local workload's CPU ranks are no GPUs: the comparison's device column says "Ranks", as
// the case table beside it and the details do.
TEST(ComparisonTableModel, CpuRanksAreCalledRanks) {
    Fixture f;
    const Summary core = f.core();
    const ComparisonSeries a{"a", f.dir.path().string(), Method::Time, core.cases};
    const ComparisonSeries b{"b", f.dir.path().string(), Method::Time, core.cases};
    ui::ComparisonTableModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.setComparison(compareSeries({a, b}), true);
    EXPECT_EQ(model.headerData(ui::ComparisonTableModel::Gpus, Qt::Horizontal).toString(),
              QStringLiteral("Ranks"));
    model.setComparison(compareSeries({a, b}), false);
    EXPECT_EQ(model.headerData(ui::ComparisonTableModel::Gpus, Qt::Horizontal).toString(),
              QStringLiteral("GPUs"));
}

// The Results page's comparison, swapped whole under the tester: three series (one faster, one
// slower, a case missing from the faster one), then two, then none. The figures are the core's
// (compareSeries over the cases summarizeDirectory computed), the verdicts its own.
TEST(ComparisonTableModel, ComparisonsSwappedWholeKeepTheModelConsistentWithTheirVerdicts) {
    Fixture f;
    const Summary core = f.core();
    ASSERT_EQ(core.cases.size(), 3u);
    // The same repeats a fixed factor faster or slower: a change the verdict must call.
    const auto scaled = [&](const std::string& label, double by, bool withoutLast) {
        ComparisonSeries s{label, "/" + label, Method::Time, core.cases};
        for (CaseStats& c : s.cases) {
            for (double& v : c.values)
                v *= by;
            c.median = *c.median * by;
        }
        if (withoutLast) s.cases.pop_back();
        return s;
    };
    const ComparisonSeries a{"october", f.dir.path().string(), Method::Time, core.cases};
    const std::string missing = core.cases.back().key.topology.name();

    ui::ComparisonTableModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    // The Results page sorts it through a proxy (ui/browse/resultspage.cpp).
    QSortFilterProxyModel shown;
    shown.setSourceModel(&model);
    shown.setSortRole(ui::ComparisonTableModel::SortRole);
    QAbstractItemModelTester shownTester(&shown, kFatal);
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_EQ(model.columnCount(), 0);
    model.setComparison(
        compareSeries({a, scaled("faster", 1.25, true), scaled("slower", 0.8, false)}));
    EXPECT_TRUE(shownAsModel(shown, model));
    ASSERT_EQ(model.rowCount(), 3);
    // Nodes, GPUs, three medians, then ratio, interval, verdict and what changed per pair.
    ASSERT_EQ(model.columnCount(), 2 + 3 + 2 * ui::ComparisonTableModel::PairColumns);
    EXPECT_EQ(model.headerData(model.medianColumn(1), Qt::Horizontal).toString(),
              QStringLiteral("faster"));
    EXPECT_EQ(model.headerData(model.verdictColumn(2), Qt::Horizontal).toString(),
              QStringLiteral("Verdict (slower)"));
    EXPECT_EQ(model.headerData(ui::ComparisonTableModel::Gpus, Qt::Horizontal).toString(),
              QStringLiteral("GPUs"));
    for (int r = 0; r < model.rowCount(); ++r) {
        const CaseComparison& c = model.comparison().cases[static_cast<std::size_t>(r)];
        const auto verdict = [&](int pair) {
            return model.index(r, model.verdictColumn(pair))
                .data(ui::ComparisonTableModel::VerdictRole)
                .toString()
                .toStdString();
        };
        const auto own =
            std::find_if(core.cases.begin(), core.cases.end(),
                         [&](const CaseStats& k) { return k.key.topology == c.key.topology; });
        ASSERT_NE(own, core.cases.end()) << c.key.topology.name();
        EXPECT_EQ(model.index(r, model.medianColumn(0)).data().toString().toStdString(),
                  formatFixed(*own->median, 2));
        if (c.key.topology.name() == missing) {
            EXPECT_EQ(verdict(1), "only-in-A");
            EXPECT_EQ(model.index(r, model.medianColumn(1)).data().toString(), QStringLiteral("–"));
        } else {
            EXPECT_EQ(verdict(1), "faster") << c.key.topology.name();
            EXPECT_EQ(model.index(r, model.ratioColumn(1)).data().toString(),
                      QStringLiteral("1.2500"));
        }
        EXPECT_EQ(verdict(2), "slower") << c.key.topology.name();
        EXPECT_EQ(model.index(r, model.ratioColumn(2)).data().toString(), QStringLiteral("0.8000"));
    }
    // Fewer columns, the same rows: a reset, not a stale column the view would still ask for.
    shown.sort(model.ratioColumn(1), Qt::DescendingOrder);
    model.setComparison(compareSeries({a, scaled("slower", 0.8, false)}));
    EXPECT_TRUE(shownAsModel(shown, model));
    EXPECT_EQ(model.columnCount(), 2 + 2 + ui::ComparisonTableModel::PairColumns);
    EXPECT_FALSE(model.index(0, 2 + 2 + ui::ComparisonTableModel::PairColumns).isValid());
    model.setComparison(Comparison{});
    EXPECT_TRUE(shownAsModel(shown, model));
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_EQ(model.columnCount(), 0);
    EXPECT_FALSE(model.headerData(0, Qt::Horizontal).isValid());
}

// The Run panel's hosts under the tester through every edit the form makes: the list replaced,
// a host added, cells typed (trimmed and bounded), a host removed; and what the launcher gets.
TEST(HostTableModel, EveryEditTheFormMakesKeepsTheModelConsistent) {
    ui::HostTableModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    QSortFilterProxyModel shown; // as a view sees it
    shown.setSourceModel(&model);
    QAbstractItemModelTester shownTester(&shown, kFatal);
    QSignalSpy edited(&model, &ui::HostTableModel::hostsEdited);
    QSignalSpy cellsChanged(&model, &QAbstractItemModel::dataChanged);
    model.setHosts({launcher::Host{"node1", "", 0, "", 8},
                    launcher::Host{"node2", "10.0.0.2", 2222, "bench", 4}});
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_EQ(model.columnCount(), int(ui::HostTableModel::ColumnCount));
    using Col = ui::HostTableModel::Column;
    // Port 0 is ssh's own: said in words, edited as the number.
    EXPECT_EQ(cell(model, 0, Col::Port), QStringLiteral("default"));
    EXPECT_EQ(model.data(model.index(0, Col::Port), Qt::EditRole).toInt(), 0);
    EXPECT_EQ(cell(model, 1, Col::Address), QStringLiteral("10.0.0.2"));
    EXPECT_TRUE(model.flags(model.index(1, Col::User)) & Qt::ItemIsEditable);

    EXPECT_TRUE(shownAsModel(shown, model));
    model.addHost(launcher::Host{"node3", "", 0, "", 8});
    EXPECT_TRUE(shownAsModel(shown, model));
    ASSERT_EQ(model.rowCount(), 3);
    EXPECT_TRUE(model.setData(model.index(2, Col::Gpus), 0));
    EXPECT_TRUE(model.setData(model.index(2, Col::Port), 70000));
    EXPECT_TRUE(model.setData(model.index(2, Col::User), QStringLiteral("  ops ")));
    EXPECT_EQ(model.hosts()[2].gpus, 1);
    EXPECT_EQ(model.hosts()[2].port, 65535);
    EXPECT_EQ(model.hosts()[2].user, "ops");
    // A name the launcher would refuse is red here, before Run says so; a good one is not.
    EXPECT_TRUE(model.setData(model.index(2, Col::Name), QStringLiteral("node3;reboot")));
    EXPECT_TRUE(model.data(model.index(2, Col::Name), Qt::ForegroundRole).isValid());
    EXPECT_FALSE(model.data(model.index(0, Col::Name), Qt::ForegroundRole).isValid());
    EXPECT_FALSE(model.setData(model.index(0, Col::Name), QStringLiteral("x"), Qt::DisplayRole));

    // Each typed cell is announced: a view repaints it.
    EXPECT_EQ(cellsChanged.count(), 4);
    EXPECT_EQ(shown.index(2, Col::User).data().toString(), QStringLiteral("ops"));

    model.removeHost(0);
    EXPECT_TRUE(shownAsModel(shown, model));
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_EQ(model.hosts()[0].name, "node2");
    model.removeHost(5); // no such row: nothing
    EXPECT_EQ(model.rowCount(), 2);
    model.setHosts({});
    EXPECT_TRUE(shownAsModel(shown, model));
    EXPECT_EQ(model.rowCount(), 0);
    // Each change the Run panel must hear of, once: replace, add, four cells, remove, replace.
    EXPECT_EQ(edited.count(), 8);
}

TEST(ReferenceListModel, IsATreeByTableAsTheCliListsIt) {
    ui::ReferenceListModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    const auto& tables = ReferenceCatalog::builtin().tables();
    ASSERT_EQ(model.rowCount(), static_cast<int>(tables.size()));
    int checkable = 0;
    for (int t = 0; t < model.rowCount(); ++t) {
        const QModelIndex table = model.index(t, 0);
        const ReferenceTable& rt = tables[static_cast<std::size_t>(t)]; // no match: catalog order
        // Short, with what tells it apart; the full title on hover.
        const QString label = model.data(table).toString();
        EXPECT_TRUE(QString::fromStdString(rt.title).startsWith(label.left(18)))
            << label.toStdString();
        EXPECT_TRUE(model.data(table, Qt::ToolTipRole)
                        .toString()
                        .contains(QString::fromStdString(rt.title)));
        if (rt.series.size() <= 1) {
            // A one-series table is itself the reference.
            EXPECT_EQ(model.rowCount(table), 0);
            EXPECT_EQ(model.data(table, ui::ReferenceListModel::IdRole).toString().toStdString(),
                      rt.id);
            EXPECT_TRUE(model.flags(table) & Qt::ItemIsUserCheckable);
            ++checkable;
            continue;
        }
        EXPECT_FALSE(model.flags(table) & Qt::ItemIsUserCheckable);
        ASSERT_EQ(model.rowCount(table), static_cast<int>(rt.series.size()));
        for (int s = 0; s < model.rowCount(table); ++s) {
            const QModelIndex series = model.index(s, 0, table);
            EXPECT_EQ(model.data(series).toString().toStdString(),
                      rt.series[static_cast<std::size_t>(s)].name);
            EXPECT_TRUE(ReferenceCatalog::builtin().knows(
                model.data(series, ui::ReferenceListModel::IdRole).toString().toStdString()));
            EXPECT_EQ(model.parent(series), table);
            ++checkable;
        }
    }
    int series = 0;
    for (const auto& t : tables)
        series += static_cast<int>(t.series.size());
    EXPECT_EQ(checkable, series);

    QSignalSpy spy(&model, &ui::ReferenceListModel::checkedChanged);
    model.setChecked({"dlperf-ngc-mxnet-fp32-bs128"}); // from an Analysis: no echo
    EXPECT_EQ(spy.count(), 0);
    EXPECT_EQ(model.checked(), std::vector<std::string>{"dlperf-ngc-mxnet-fp32-bs128"});
    const QModelIndex oneflow = model.indexOf("dlperf-report-v1-fp32-bs128:OneFlow 0.2.0");
    ASSERT_TRUE(oneflow.isValid());
    EXPECT_TRUE(oneflow.parent().isValid());
    EXPECT_TRUE(model.setData(oneflow, Qt::Checked, Qt::CheckStateRole));
    EXPECT_EQ(spy.count(), 1);
    EXPECT_EQ(model.checked().size(), 2u);
    // A comparison table's own row is no reference.
    EXPECT_FALSE(model.setData(oneflow.parent(), Qt::Checked, Qt::CheckStateRole));
}

TEST(ReferenceListModel, TablesMatchingTheCaseComeFirstMarked) {
    ui::ReferenceListModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.setChecked({"dlperf-ngc-mxnet-fp16-amp-bs256", "dlperf-ngc-mxnet-fp32-bs128"});
    model.setMatch("fp32", 128);
    std::vector<std::string> ids;
    for (const QModelIndex& i : model.matchingTables())
        ids.push_back(model.data(i, Qt::DisplayRole).toString().toStdString());
    // No framework: every FP32 batch-128 table, in catalog order. The NGC MXNet fp32 table,
    // DLPerf's per-framework README tables (TensorFlow 2, NGC PyTorch, NGC TensorFlow 1,
    // PaddlePaddle, OneFlow, MindSpore, gluon-cv, and pytorch/examples' four, whose short labels
    // coincide and so are their whole titles), the report's fp32 comparison, and DGX-2's FP32
    // batch 128 series.
    const std::string pytorch = "DLPerf PyTorch 1.6.0 (pytorch/examples), ResNet-50 v1.5 FP32, "
                                "batch 128 per GPU, ";
    EXPECT_EQ(
        ids,
        (std::vector<std::string>{
            "DLPerf NGC MXNet 20.03 (FP32, bs 128)", "DLPerf TensorFlow 2.3.0 (FP32, bs 128)",
            "DLPerf NGC PyTorch 20.03 (FP32, bs 128)",
            "DLPerf NGC TensorFlow 1.15.2 (FP32, bs 128)",
            "DLPerf PaddlePaddle 1.8.3 (FP32, bs 128)", "DLPerf OneFlow 0.2.0 (FP32, bs 128)",
            "DLPerf MindSpore 1.1.0 (FP32, bs 128)", "DLPerf MXNet 1.6.0 gluon-cv (FP32, bs 128)",
            pytorch + "torch.utils.data.DataLoader, 48 workers",
            pytorch + "torch.utils.data.DataLoader, 8 workers", pytorch + "DALI, 8 workers",
            pytorch + "DALI, 48 workers", "DLPerf report v1.0 (FP32, bs 128)",
            "NVIDIA DeepLearningExamples MXNet RN50 v1.5 (DGX-2)"}));
    ASSERT_EQ(model.matchingTables().size(), 14u);
    for (int t = 0; t < 14; ++t)
        EXPECT_TRUE(model.data(model.index(t, 0), ui::ReferenceListModel::MatchesRole).toBool());
    for (int t = 14; t < model.rowCount(); ++t)
        EXPECT_FALSE(model.data(model.index(t, 0), ui::ReferenceListModel::MatchesRole).toBool());
    EXPECT_EQ(model.indexOf("dlperf-ngc-mxnet-fp32-bs128").row(), 0);
    EXPECT_EQ(model.indexOf("dlperf-report-v1-fp32-bs128:OneFlow 0.2.0").parent().row(), 12);
    const QModelIndex dgx2 = model.indexOf("nvidia-dle-mxnet-dgx2-19.07:FP32, batch 128");
    EXPECT_EQ(dgx2.parent().row(), 13);
    EXPECT_TRUE(model.data(dgx2, ui::ReferenceListModel::MatchesRole).toBool());
    EXPECT_FALSE(model
                     .data(model.indexOf("nvidia-dle-mxnet-dgx2-19.07:Mixed precision, batch 256"),
                           ui::ReferenceListModel::MatchesRole)
                     .toBool());
    EXPECT_TRUE(model.data(model.index(0, 0), Qt::FontRole).value<QFont>().bold());
    // Checks survive the reorder and keep catalog order (the first is the Results reference).
    EXPECT_EQ(model.checked(), (std::vector<std::string>{"dlperf-ngc-mxnet-fp32-bs128",
                                                         "dlperf-ngc-mxnet-fp16-amp-bs256"}));
    // Another batch: other tables first.
    model.setMatch("fp16", 256);
    EXPECT_EQ(model.indexOf("dlperf-ngc-mxnet-fp16-amp-bs256").row(), 0);
    EXPECT_FALSE(
        model
            .data(model.indexOf("dlperf-ngc-mxnet-fp32-bs128"), ui::ReferenceListModel::MatchesRole)
            .toBool());
}

// The tree matches the framework too, as the references checked by default do: an NGC MXNet
// case is not matched with TensorFlow 2's table, a TensorFlow 2 case not with NGC MXNet's (the
// issue's TF2 tree ticked "DLPerf NGC MXNet 20.03, FP32, bs 128"). A comparison table matches
// by the framework's own series; NVIDIA's "MXNet (NVIDIA container)" is NGC MXNet.
TEST(ReferenceListModel, TheCasesFrameworkChoosesTheMatchingTables) {
    ui::ReferenceListModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    const auto matching = [&] {
        std::vector<std::string> ids;
        for (const QModelIndex& i : model.matchingTables())
            ids.push_back(model.data(i, Qt::DisplayRole).toString().toStdString());
        return ids;
    };
    const auto matches = [&](const char* id) {
        return model.data(model.indexOf(id), ui::ReferenceListModel::MatchesRole).toBool();
    };
    model.setMatch("fp32", 128, "r50", {"NGC MXNet"});
    EXPECT_EQ(matching(),
              (std::vector<std::string>{"DLPerf NGC MXNet 20.03 (FP32, bs 128)",
                                        "DLPerf report v1.0 (FP32, bs 128)",
                                        "NVIDIA DeepLearningExamples MXNet RN50 v1.5 (DGX-2)"}));
    EXPECT_TRUE(matches("dlperf-report-v1-fp32-bs128:NGC MXNet 1.6.0"));
    EXPECT_FALSE(matches("dlperf-report-v1-fp32-bs128:TensorFlow 2.3.0"));
    EXPECT_FALSE(matches("dlperf-tf2-fp32-bs128"));

    model.setMatch("fp32", 128, "r50", {"TensorFlow 2"});
    EXPECT_EQ(matching(), (std::vector<std::string>{"DLPerf TensorFlow 2.3.0 (FP32, bs 128)",
                                                    "DLPerf report v1.0 (FP32, bs 128)"}));
    EXPECT_EQ(model.indexOf("dlperf-tf2-fp32-bs128").row(), 0);
    EXPECT_TRUE(matches("dlperf-report-v1-fp32-bs128:TensorFlow 2.3.0"));
    EXPECT_FALSE(matches("dlperf-report-v1-fp32-bs128:NGC MXNet 1.6.0"));
    EXPECT_FALSE(matches("dlperf-ngc-mxnet-fp32-bs128"));

    // Frameworks compared in one tree: either's tables match.
    model.setMatch("fp32", 128, "r50", {"NGC MXNet", "TensorFlow 2"});
    EXPECT_EQ(matching().size(), 4u);
}

// Every table row reads differently (issue 27 item 13: entries elided into look-alikes), and in
// a narrow dock a long name wraps onto more lines rather than eliding.
TEST(ReferenceListModel, NoTwoTablesReadAlike) {
    ui::ReferenceListModel model;
    std::map<QString, int> seen;
    for (int t = 0; t < model.rowCount(); ++t)
        EXPECT_EQ(++seen[model.data(model.index(t, 0), Qt::DisplayRole).toString()], 1)
            << model.data(model.index(t, 0), Qt::DisplayRole).toString().toStdString();
    EXPECT_GT(model.rowCount(), 10);
}

TEST(ControlPanel, LongReferenceNamesWrapInANarrowDock) {
    ui::ControlPanel panel;
    panel.resize(260, 700);
    panel.show();
    QTreeView* view = panel.referenceView();
    EXPECT_EQ(view->textElideMode(), Qt::ElideNone);
    const QModelIndex noamp = panel.references()->indexOf("dlperf-ngc-mxnet-fp16-noamp-bs256");
    ASSERT_TRUE(noamp.isValid());
    view->scrollTo(noamp);
    const QString text = noamp.data(Qt::DisplayRole).toString();
    const QFontMetrics fm(view->font());
    ASSERT_GT(fm.horizontalAdvance(text), view->viewport()->width()) << "not long enough to wrap";
    // Two lines at least: the whole name is drawn, nothing elided.
    EXPECT_GE(view->visualRect(noamp).height(), 2 * fm.lineSpacing()) << text.toStdString();
    // Wider: one line again.
    panel.resize(900, 700);
    QCoreApplication::processEvents();
    EXPECT_LT(view->visualRect(noamp).height(), 2 * fm.lineSpacing());
}

// A ResNet-50 case lists ResNet-50's tables only (BERT's and InsightFace's are another model),
// except one the user checked; a BERT case lists BERT's; checks survive being hidden.
TEST(ReferenceListModel, OnlyTheCasesModelsTablesAreListed) {
    ui::ReferenceListModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    const int all = model.rowCount();
    model.setChecked({"dlperf-ngc-mxnet-fp32-bs128",
                      "dlperf-insightface-emore-r100-dp-bs64:OneFlow 0.3.4 (oneflow_face)"});
    model.setMatch("fp32", 128, "r50");
    EXPECT_LT(model.rowCount(), all);
    EXPECT_TRUE(model.indexOf("nvidia-dle-mxnet-dgx2-19.07:FP32, batch 128").isValid());
    for (int t = 0; t < model.rowCount(); ++t) {
        const QString tip = model.data(model.index(t, 0), Qt::ToolTipRole).toString();
        if (tip.startsWith(QLatin1String("dlperf-insightface-emore-r100-dp-bs64"))) continue;
        EXPECT_FALSE(tip.contains(QLatin1String("insightface"))) << tip.toStdString();
        EXPECT_FALSE(tip.contains(QLatin1String("bert"))) << tip.toStdString();
    }
    EXPECT_EQ(model.checked(),
              (std::vector<std::string>{
                  "dlperf-ngc-mxnet-fp32-bs128",
                  "dlperf-insightface-emore-r100-dp-bs64:OneFlow 0.3.4 (oneflow_face)"}));
    // A BERT case: BERT's tables, not ResNet-50's; the hidden check is still a check.
    model.setMatch("fp32", 32, "bert-base");
    bool bert = false;
    for (int t = 0; t < model.rowCount(); ++t) {
        const QString tip = model.data(model.index(t, 0), Qt::ToolTipRole).toString();
        bert = bert || tip.startsWith(QLatin1String("dlperf-report-v1-bert"));
        EXPECT_FALSE(tip.startsWith(QLatin1String("nvidia-dle-mxnet"))) << tip.toStdString();
    }
    EXPECT_TRUE(bert);
    EXPECT_EQ(model.checked().size(), 2u);
    // No model: every table, as before.
    model.setMatch("fp32", 32, "");
    EXPECT_EQ(model.rowCount(), all);
}

TEST(ControlPanel, ReferenceTreeOpensTheTableMatchingTheCase) {
    TempDir dir;
    CampaignSpec spec;
    spec.batch = 128;
    writeCampaign(dir.path(), spec);
    ui::ControlPanel panel;
    panel.resize(300, 700);
    panel.show();
    panel.setAnalysis(std::make_shared<ui::Analysis>(ui::analyze(readSnapshot(dir.path()), {})));
    ui::ReferenceListModel* refs = panel.references();
    QTreeView* view = panel.referenceView();
    const QModelIndex report = refs->indexOf("dlperf-report-v1-fp32-bs128:OneFlow 0.2.0").parent();
    // Matching tables first, in catalog order: NGC MXNet's, then the report (its NGC MXNet
    // series); DLPerf's TensorFlow 2 FP32 batch-128 table is another framework's.
    EXPECT_EQ(report.row(), 1);
    EXPECT_FALSE(
        refs->data(refs->indexOf("dlperf-tf2-fp32-bs128"), ui::ReferenceListModel::MatchesRole)
            .toBool());
    EXPECT_TRUE(view->isExpanded(report));
    EXPECT_FALSE(
        view->isExpanded(refs->indexOf("dlperf-report-v1-amp-bs256:OneFlow 0.2.0").parent()));
    EXPECT_EQ(refs->data(refs->indexOf("dlperf-ngc-mxnet-fp32-bs128"), Qt::CheckStateRole).toInt(),
              Qt::Checked);
    // Checking a series in the tree is an edit of the options.
    int edited = 0;
    QObject::connect(&panel, &ui::ControlPanel::optionsEdited, &panel, [&] { ++edited; });
    refs->setData(refs->indexOf("dlperf-report-v1-fp32-bs128:OneFlow 0.2.0"), Qt::Checked,
                  Qt::CheckStateRole);
    ASSERT_EQ(edited, 1);
    EXPECT_EQ(panel.options().references.size(), 2u);
}

TEST(Analysis, EqualsTheCoreSummaryForEveryMethodAndWindow) {
    Fixture f;
    const ui::LogSnapshot snap = readSnapshot(f.dir.path());
    for (Method m : {Method::Time, Method::Speed})
        for (MeasureOptions w : {MeasureOptions{20, 120}, MeasureOptions{10, 40}}) {
            ui::AnalysisOptions o;
            o.method = m;
            o.measure = w;
            const ui::Analysis a = ui::analyze(snap, o);
            const Summary core = f.core(m, w);
            ASSERT_EQ(a.summary.cases.size(), core.cases.size());
            for (std::size_t i = 0; i < core.cases.size(); ++i) {
                EXPECT_EQ(a.summary.cases[i].median, core.cases[i].median);
                EXPECT_EQ(a.summary.cases[i].excluded.size(), core.cases[i].excluded.size());
            }
            EXPECT_EQ(a.summary.warnings.size(), core.warnings.size());
        }
}

TEST(CaseTableModel, WarnedCaseCarriesIconReasonAndInterval) {
    // Three repeats of 1n1g and 1n2g with 1n2g more than twice as fast: superlinear.
    CaseStats one, two;
    one.key = CaseKey{"r50", "fp32", 8, Topology{1, 1}};
    two.key = CaseKey{"r50", "fp32", 8, Topology{1, 2}};
    std::vector<RunResult> runs;
    for (int p = 1; p <= 3; ++p)
        for (auto [t, v] : {std::pair{Topology{1, 1}, 10.0 + p * 0.1},
                            std::pair{Topology{1, 2}, 30.0 + p * 0.1}}) {
            RunResult r;
            r.key = RunKey{"r50", "fp32", 8, t, p};
            r.path = t.name() + std::to_string(p);
            r.status = RunStatus::Complete;
            r.timeThroughput = r.speedThroughput = v;
            runs.push_back(r);
        }
    ui::CaseTableModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.setCases(computeCases(runs, {}));
    ASSERT_EQ(model.rowCount(), 2);
    // The quiet baseline: no icon, no amber.
    EXPECT_TRUE(model.data(model.index(0, ui::CaseTableModel::Nodes), Qt::DecorationRole).isNull());
    EXPECT_FALSE(
        model.data(model.index(1, ui::CaseTableModel::Nodes), Qt::DecorationRole).isNull());
    const QString tip = cell(model, 1, ui::CaseTableModel::Median, Qt::ToolTipRole);
    EXPECT_TRUE(tip.contains(QStringLiteral("more than linear"))) << tip.toStdString();
    const QBrush amber =
        model.data(model.index(1, ui::CaseTableModel::Efficiency), Qt::ForegroundRole)
            .value<QBrush>();
    EXPECT_GE(amber.color().hsvHue(), 25) << amber.color().name().toStdString();
    EXPECT_LE(amber.color().hsvHue(), 50) << amber.color().name().toStdString();
    // Three repeats: the bootstrap's 95 % interval is their min–max, and said so.
    EXPECT_EQ(cell(model, 1, ui::CaseTableModel::MedianCi),
              QStringLiteral("30.10 – 30.30 (min–max)"));
    EXPECT_TRUE(cell(model, 1, ui::CaseTableModel::MedianCi, Qt::ToolTipRole)
                    .contains(QStringLiteral("With 3 repeats")));
}

// A tree of several frameworks: each case row names its framework (from the log format).
TEST(CaseTableModel, FrameworkColumnNamesEachCasesFramework) {
    std::vector<RunResult> runs;
    for (const char* format : {"ngc-mxnet", "ngc-pytorch-rn50"}) {
        RunResult r;
        r.key = RunKey{"r50", "fp32", 8, Topology{1, 1}, 1, format};
        r.path = std::string(format) + ".log";
        r.status = RunStatus::Complete;
        r.timeThroughput = r.speedThroughput = 10.0;
        runs.push_back(r);
    }
    ui::CaseTableModel model;
    QAbstractItemModelTester tester(&model, kFatal);
    model.setCases(computeCases(runs, {}));
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_EQ(cell(model, 0, ui::CaseTableModel::Framework), QStringLiteral("NGC MXNet"));
    EXPECT_EQ(cell(model, 1, ui::CaseTableModel::Framework), QStringLiteral("NGC PyTorch"));
    EXPECT_EQ(model.headerData(ui::CaseTableModel::Framework, Qt::Horizontal).toString(),
              QStringLiteral("Framework"));
}
