// Issue 27, item 15: ScaleView's local workload writes NGC MXNet's line format on CPU ranks. Its
// pages must say what ran (PyTorch on CPU ranks, logs in NGC MXNet's line format) and call a
// rank a rank: the Results caption and column, and the throughput and speedup charts' axes,
// on screen and exported; a DLPerf tree keeps its GPUs.

#include "tests/ui/uifixture.h"
#include "tests/support/realworldwriter.h"
#include "tests/support/workloadlog.h"

#include "core/load/workloadheader.h"
#include "ui/analysis/devicewords.h"
#include "ui/browse/resultspage.h"
#include "ui/charts/speedupchart.h"
#include "ui/charts/throughputchart.h"
#include "ui/models/casetablemodel.h"

#include <QAbstractAxis>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>

#include <gtest/gtest.h>

using namespace sv;
using namespace sv::test;

namespace {

void writeWorkloadTree(const std::filesystem::path& root) {
    const CampaignSpec c;
    for (auto [nodes, gpus] : c.topologies)
        for (int p = 1; p <= c.repeats; ++p)
            writeFile(logPath(root, c, nodes, gpus, p),
                      withWorkloadHeader(runText(c, nodes * gpus, p), nodes * gpus));
}

QString axisTitle(QChart* chart, Qt::Orientation o) {
    const auto axes = chart->axes(o);
    return axes.isEmpty() ? QString() : axes.front()->titleText();
}

} // namespace

TEST(WorkloadHeader, FindsTheLocalWorkloadsOwnLineOnly) {
    const auto h = findWorkloadHeader(
        "begin\n[1,0]<stderr>:2026-12-05 03:00:00,000:INFO: ResNet-50 v1.5, PyTorch 1.13.1, CPU, "
        "synthetic data 64x64, batch 32 per rank, rank 0 of 2, 1 threads\n");
    ASSERT_TRUE(h);
    EXPECT_EQ(h->framework, "PyTorch 1.13.1");
    EXPECT_TRUE(h->onCpu());
    const auto gpu = findWorkloadHeader(
        "INFO: ResNet-50 v1.5, PyTorch 2.1.0, CUDA, synthetic data 224x224, batch 256 per rank\n");
    ASSERT_TRUE(gpu);
    EXPECT_FALSE(gpu->onCpu());
    // Lines that only name the model are not the workload's header.
    EXPECT_FALSE(findWorkloadHeader("ResNet-50 v1.5, PyTorch, CPU, synthetic data\n"));
    EXPECT_FALSE(findWorkloadHeader("model: ResNet-50 v1.5, MXNet 1.6.0, GPU, synthetic data\n"));
    EXPECT_FALSE(findWorkloadHeader("ResNet-50 v1.5, PyTorch 1.13.1, CPU, real data\n"));
}

TEST(CpuRanks, TheLocalWorkloadsTreeSaysRanksOnEveryPageAndChart) {
    QTemporaryDir dir;
    const std::filesystem::path root = dir.path().toStdString();
    writeWorkloadTree(root);
    AppWindow w;
    w.window.openDirectory(QString::fromStdString(root.string()));
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 9u; }));
    const auto analysis = w.window.analysis()->current();

    const QString caption = w.window.resultsPage()->caption();
    EXPECT_TRUE(caption.contains(QStringLiteral("ScaleView's local workload (ResNet-50 v1.5, "
                                                "PyTorch 1.13.1 on CPU ranks; logs in NGC "
                                                "MXNet's line format)")))
        << caption.toStdString();
    EXPECT_FALSE(caption.contains(QStringLiteral("logs in NGC MXNet format")));
    // No published figure for a CPU workload: no word of a Δ the table cannot show.
    EXPECT_TRUE(caption.contains(QStringLiteral("no published figure for these cases, so no Δ")))
        << caption.toStdString();
    EXPECT_FALSE(caption.contains(QStringLiteral("Δ compares")));
    const auto* model = w.window.resultsPage()->model();
    EXPECT_EQ(model->headerData(ui::CaseTableModel::Gpus, Qt::Horizontal).toString(),
              QStringLiteral("Ranks"));

    const ui::ScalingData data = ui::chartData(*analysis);
    std::unique_ptr<QChart> throughput(ui::ThroughputChart::build(data));
    EXPECT_EQ(axisTitle(throughput.get(), Qt::Horizontal),
              QStringLiteral("Ranks (nodes × ranks per node)"));
    std::unique_ptr<QChart> speedup(ui::SpeedupChart::build(data, false));
    EXPECT_EQ(axisTitle(speedup.get(), Qt::Horizontal), QStringLiteral("Ranks (log₂ scale)"));
    EXPECT_EQ(axisTitle(speedup.get(), Qt::Vertical), QStringLiteral("Speedup (×)"));
    EXPECT_TRUE(speedup->title().startsWith(QStringLiteral("Speedup over 1 rank — ")))
        << speedup->title().toStdString();
}

TEST(CpuRanks, ADlperfTreeKeepsItsGpus) {
    QTemporaryDir dir;
    writeCampaign(dir.path().toStdString());
    AppWindow w;
    w.window.openDirectory(dir.path());
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 9u; }));
    const auto analysis = w.window.analysis()->current();
    EXPECT_TRUE(
        w.window.resultsPage()->caption().contains(QStringLiteral("logs in NGC MXNet format")));
    EXPECT_EQ(w.window.resultsPage()
                  ->model()
                  ->headerData(ui::CaseTableModel::Gpus, Qt::Horizontal)
                  .toString(),
              QStringLiteral("GPUs"));
    std::unique_ptr<QChart> throughput(ui::ThroughputChart::build(ui::chartData(*analysis)));
    EXPECT_EQ(axisTitle(throughput.get(), Qt::Horizontal),
              QStringLiteral("GPUs (nodes × GPUs per node)"));
}

// A case whose figure is its log's own reports (gluon-nlp's throughput=, tokens/s) is not called
// a "time method" median in the chart's legend; an NGC MXNet case still is.
TEST(ChartLegends, ALogsOwnReportsAreNotCalledATimeMethod) {
    const auto legendOf = [](const std::string& format) {
        CaseStats c;
        c.key = {"bert", "fp16", 16, Topology{1, 8}, format};
        c.median = 133000.0;
        const ui::CaseGroup group{"bert", "fp16", 16, format};
        const ui::ScalingData data = ui::scalingData({&c}, group, Method::Time, {});
        std::unique_ptr<QChart> chart(ui::ThroughputChart::build(data));
        QStringList names;
        for (auto* s : chart->series())
            names << s->name();
        for (auto* m : chart->legend()->markers())
            names << m->label();
        return std::make_pair(names.join(QStringLiteral(" | ")),
                              axisTitle(chart.get(), Qt::Vertical));
    };
    const auto [nlp, nlpAxis] = legendOf("gluonnlp-throughput");
    EXPECT_TRUE(nlp.contains(QStringLiteral("Measured median (the log's own reports)")))
        << nlp.toStdString();
    EXPECT_FALSE(nlp.contains(QStringLiteral("time method"))) << nlp.toStdString();
    EXPECT_TRUE(nlpAxis.contains(QStringLiteral("tokens/s"))) << nlpAxis.toStdString();
    const auto [mxnet, mxnetAxis] = legendOf("ngc-mxnet");
    EXPECT_TRUE(mxnet.contains(QStringLiteral("Measured median (time method)")))
        << mxnet.toStdString();
}

// The Results caption of a log read from its own reports (gluon-nlp, tokens/s) says so, and its
// unit; an NGC MXNet tree keeps "by the time method".
TEST(ChartLegends, TheResultsCaptionOfALogsOwnReportsNamesNoMethod) {
    QTemporaryDir dir;
    writeFile(std::filesystem::path(dir.path().toStdString()) / "bert_base_pretrain.log",
              gluonnlpLog("0,1,2,3,4,5,6,7", 40, [](int) { return 133000.0; }));
    AppWindow w;
    w.window.openDirectory(dir.path());
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 1u; }));
    const QString caption = w.window.resultsPage()->caption();
    EXPECT_TRUE(caption.contains(QStringLiteral("throughput in tokens/s from <b>the log's own "
                                                "reports")))
        << caption.toStdString();
    EXPECT_FALSE(caption.contains(QStringLiteral("method"))) << caption.toStdString();
}
