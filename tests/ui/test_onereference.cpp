// Issue 27: every page and output tells the same truth about which published figures a tree is
// compared with: the table of its framework, model, precision and batch, or none.

#include "tests/support/formatlogs.h"
#include "tests/support/process.h"
#include "tests/ui/snapshotfixture.h"
#include "tests/ui/uifixture.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/browse/chartpage.h"
#include "ui/browse/controlpanel.h"
#include "ui/browse/resultspage.h"
#include "ui/browse/speeduppage.h"
#include "ui/models/casetablemodel.h"
#include "ui/models/referencelistmodel.h"
#include "ui/charts/speedupchart.h"
#include "ui/charts/throughputchart.h"
#include "ui/window/mainwindow.h"

#include <QBarSeries>
#include <QCoreApplication>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QLineSeries>

#include <gtest/gtest.h>

#include <cstdlib>

using namespace sv;
using namespace sv::test;

namespace {

struct Window : AppWindow {
    bool open(const std::filesystem::path& root, std::size_t runs) {
        window.openDirectory(QString::fromStdString(root.string()));
        return waitFor([&](const ui::Analysis& a) {
            return a.summary.root == root.string() && a.summary.runs.size() == runs;
        });
    }
};

// Every name the chart shows: its bar sets' and its series'.
std::vector<std::string> chartNames(QChart* chart) {
    std::vector<std::string> out;
    for (auto* s : chart->series()) {
        out.push_back(s->name().toStdString());
        if (auto* bars = qobject_cast<QBarSeries*>(s))
            for (auto* set : bars->barSets())
                out.push_back(set->label().toStdString());
    }
    return out;
}

bool anyContains(const std::vector<std::string>& names, const std::string& part) {
    return std::any_of(names.begin(), names.end(),
                       [&](const std::string& n) { return n.find(part) != std::string::npos; });
}

ProcessResult plot(std::vector<std::string> args) {
    ::unsetenv("DISPLAY");
    ::unsetenv("WAYLAND_DISPLAY");
    args.insert(args.begin(), {SCALEVIEW_CLI, "plot"});
    return runProcess(args);
}

} // namespace

// A TensorFlow 2 tree was compared with NGC MXNet's table on the Throughput and Speedup charts,
// the reference tree and `plot`, while Results compared it with TensorFlow 2.3.0's: DLPerf's
// own TensorFlow 2 table (6 topologies, with its repeats) is the one everywhere.
TEST(OneReference, ATensorFlow2TreeIsChartedAgainstTensorFlow2Everywhere) {
    TempDir tree;
    writeTf2Rn50Tree(tree.path()); // 1n1g, 1n8g, 2n8g, rn50 fp32 batch 128, TensorFlow 2
    const std::string tf2 = "dlperf-tf2-fp32-bs128";
    const ReferenceTable* table = ReferenceCatalog::builtin().find(tf2);
    ASSERT_NE(table, nullptr);
    EXPECT_EQ(table->series.at(0).throughput.size(), 6u); // 1n2g and 1n4g too
    EXPECT_DOUBLE_EQ(table->series.at(0).throughput.at("4n8g"), 9418.44);

    Window w;
    ASSERT_TRUE(w.open(tree.path(), 9u));
    const auto a = w.window.analysis()->current();
    // The reference tree ticks it, and only it.
    EXPECT_EQ(a->references, std::vector<std::string>{tf2});
    EXPECT_EQ(w.window.controls()->references()->checked(), std::vector<std::string>{tf2});
    // Results: every case against it.
    const auto cases = a->groupCases();
    ASSERT_EQ(cases.size(), 3u);
    for (const CaseStats* c : cases) {
        ASSERT_TRUE(c->reference) << c->key.topology.name();
        EXPECT_EQ(c->reference->table->id, tf2) << c->key.topology.name();
        EXPECT_DOUBLE_EQ(c->reference->throughput,
                         table->series[0].throughput.at(c->key.topology.name()));
    }
    // Throughput and Speedup draw it, and no NGC MXNet figure.
    const auto throughput = chartNames(w.window.throughputPage()->view()->chart());
    const auto speedup = chartNames(w.window.speedupPage()->view()->chart());
    for (const auto* names : {&throughput, &speedup}) {
        EXPECT_TRUE(anyContains(*names, "DLPerf TensorFlow 2.3.0 (FP32, bs 128)"));
        EXPECT_FALSE(anyContains(*names, "MXNet"));
    }
    const auto d = a->scaling();
    ASSERT_EQ(d.references.size(), 1u);
    EXPECT_EQ(d.references[0].id, tf2);
    EXPECT_DOUBLE_EQ(d.references[0].throughput.at("2n8g"), 4849.68);

    // scaleview-cli plot picks the same.
    TempDir out;
    for (const char* chart : {"throughput", "speedup"}) {
        const auto svg = (out.path() / (std::string(chart) + ".svg")).string();
        const auto r =
            plot({tree.path().string(), "--chart", chart, "--output", svg, "--quiet"});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        const std::string text = readWhole(svg);
        EXPECT_NE(text.find("DLPerf TensorFlow 2.3.0 (FP32, bs 128)"), std::string::npos)
            << chart;
        EXPECT_EQ(text.find("MXNet"), std::string::npos) << chart;
    }
}

// The default is the case's framework's table or none: NGC MXNet's tables are never another
// framework's default, and a table with no figure at a topology gives none there (not another
// table's figure).
TEST(OneReference, TheDefaultMatchesFrameworkModelPrecisionAndBatchOrThereIsNone) {
    const auto& catalog = ReferenceCatalog::builtin();
    auto id = [&](std::string_view precision, int batch, std::string_view model,
                  std::string_view framework) -> std::string {
        auto v = catalog.match(precision, batch, model, framework);
        return v ? v->table->id : std::string("none");
    };
    EXPECT_EQ(id("fp32", 128, "rn50", "TensorFlow 2"), "dlperf-tf2-fp32-bs128");
    EXPECT_EQ(id("fp16", 256, "resnet50", "TensorFlow 2"), "dlperf-tf2-fp16-bs256");
    EXPECT_EQ(id("fp32", 128, "r50", "NGC MXNet"), "dlperf-ngc-mxnet-fp32-bs128");
    EXPECT_EQ(id("fp32", 32, "r50", "NGC MXNet"), "none");
    EXPECT_EQ(id("fp32", 128, "bert", "TensorFlow 2"), "none");
    // The TensorFlow 2 table has no 1n16g: no figure, where NGC MXNet's has none either.
    EXPECT_FALSE(catalog.lookup("fp32", 128, "1n2g", "r50", "NGC TensorFlow 1"));
    ASSERT_TRUE(catalog.lookup("fp32", 128, "1n2g", "rn50", "TensorFlow 2"));
    EXPECT_DOUBLE_EQ(catalog.lookup("fp32", 128, "1n2g", "rn50", "TensorFlow 2")->throughput,
                     574.66);
    // The app's and plot's default: the group's framework's.
    ui::CaseGroup group{"rn50", "fp32", 128};
    EXPECT_EQ(ui::matchingReference(group, "tf2-rn50"), "dlperf-tf2-fp32-bs128");
    EXPECT_EQ(ui::matchingReference(group, "ngc-mxnet"), "dlperf-ngc-mxnet-fp32-bs128");
    EXPECT_EQ(ui::matchingReferences(group, {"ngc-mxnet", "tf2-rn50"}),
              (std::vector<std::string>{"dlperf-ngc-mxnet-fp32-bs128", "dlperf-tf2-fp32-bs128"}));
}

// Issue 27 item 8: a reference ticked for one tree stayed drawn for the next (V100 batch-128
// bars beside a CPU batch-32 campaign). Opening another tree starts again from its own default.
TEST(OneReference, OpeningAnotherTreeResetsTheReferencesToItsDefault) {
    TempDir mxnet, tf2;
    CampaignSpec spec;
    spec.batch = 128;
    spec.topologies = {{1, 1}, {1, 8}};
    writeCampaign(mxnet.path(), spec);
    writeTf2Rn50Tree(tf2.path());
    Window w;
    ASSERT_TRUE(w.open(mxnet.path(), 6u));
    EXPECT_EQ(w.window.analysis()->current()->references,
              std::vector<std::string>{"dlperf-ngc-mxnet-fp32-bs128"});
    // The user ticks another table too.
    auto* refs = w.window.controls()->references();
    const QModelIndex oneflow = refs->indexOf("dlperf-report-v1-fp32-bs128:OneFlow 0.2.0");
    ASSERT_TRUE(oneflow.isValid());
    ASSERT_TRUE(refs->setData(oneflow, Qt::Checked, Qt::CheckStateRole));
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.references.size() == 2u; }));
    // Another tree: its own default, and nothing the previous one had ticked.
    ASSERT_TRUE(w.open(tf2.path(), 9u));
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) {
        return a.references == std::vector<std::string>{"dlperf-tf2-fp32-bs128"};
    })) << w.window.analysis()->current()->references.size();
    EXPECT_TRUE(w.window.controls()->options().autoReferences);
    EXPECT_EQ(w.window.controls()->references()->checked(),
              std::vector<std::string>{"dlperf-tf2-fp32-bs128"});
}

namespace {

// The texts the legend draws (its markers' labels, as Qt laid them out: cut short with "...").
void legendTexts(QGraphicsItem* item, QStringList* out) {
    if (auto* text = dynamic_cast<QGraphicsTextItem*>(item)) *out << text->toPlainText();
    for (auto* child : item->childItems())
        legendTexts(child, out);
}

} // namespace

// Item 13: legends cut to "Measur… DLPerf … NGC M…", names that cannot be told apart. Every
// entry reads in full, at a narrow width as at a wide one, and a name's hover text is its own.
TEST(OneReference, LegendsShowEveryNameInFull) {
    TempDir dir;
    CampaignSpec spec;
    spec.batch = 128;
    spec.topologies = {{1, 1}, {1, 2}, {1, 4}, {1, 8}};
    writeCampaign(dir.path(), spec);
    ui::AnalysisOptions o;
    o.autoReferences = false;
    o.references = {"dlperf-ngc-mxnet-fp32-bs128", "dlperf-ngc-mxnet-fp16-amp-bs256",
                    "dlperf-ngc-mxnet-fp16-noamp-bs256", "dlperf-report-v1-fp32-bs128:OneFlow 0.2.0"};
    const ui::Analysis a = ui::analyze(readSnapshot(dir.path()), o);
    for (int width : {560, 1400})
        for (bool speedup : {false, true}) {
            QChart* chart = speedup ? ui::SpeedupChart::build(a.scaling(), false)
                                    : ui::ThroughputChart::build(a.scaling());
            QChartView view(chart);
            view.resize(width, 420);
            view.show();
            QCoreApplication::processEvents();
            QStringList shown;
            legendTexts(chart->legend(), &shown);
            // The names as drawn: a long one may be in lines (rich text), never cut.
            for (QString& s : shown)
                s.replace(QLatin1Char('\n'), QLatin1Char(' ')).replace(QChar(0x2028), QLatin1Char(' '));
            QStringList labels;
            for (auto* m : chart->legend()->markers())
                if (m->isVisible())
                    labels << QString(m->label())
                                  .replace(QStringLiteral("<br>"), QStringLiteral(" "))
                                  .replace(QStringLiteral("&amp;"), QStringLiteral("&"));
            ASSERT_GE(labels.size(), 5) << width; // measured and four references
            for (const QString& label : labels)
                EXPECT_TRUE(shown.contains(label))
                    << width << (speedup ? " speedup: " : " throughput: ") << label.toStdString()
                    << " drawn as " << shown.join(QStringLiteral(" | ")).toStdString();
            for (const QString& s : shown)
                EXPECT_FALSE(s.contains(QLatin1String("...")) || s.contains(QChar(0x2026)))
                    << width << ": " << s.toStdString();
        }
}
