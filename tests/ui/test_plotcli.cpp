// scaleview-cli plot, run as a user runs it, with no display at all.

#include "tests/support/process.h"
#include "tests/ui/uifixture.h"

#include <QImage>

#include <gtest/gtest.h>

#include <cstdlib>

using namespace sv::test;

namespace {

// No DISPLAY, no platform chosen: the command must pick the offscreen one itself.
ProcessResult plot(std::vector<std::string> args) {
    ::unsetenv("DISPLAY");
    ::unsetenv("WAYLAND_DISPLAY");
    const std::string saved = qEnvironmentVariable("QT_QPA_PLATFORM").toStdString();
    ::unsetenv("QT_QPA_PLATFORM");
    args.insert(args.begin(), {SCALEVIEW_CLI, "plot"});
    ProcessResult r = runProcess(args);
    if (!saved.empty()) ::setenv("QT_QPA_PLATFORM", saved.c_str(), 1);
    return r;
}

} // namespace

TEST(PlotCli, WritesEachChartAsPngWithoutADisplay) {
    TempDir out;
    for (const char* chart : {"throughput", "speedup", "efficiency"}) {
        const auto file = (out.path() / (std::string(chart) + ".png")).string();
        const auto r = plot({SCALEVIEW_SAMPLES, "--chart", chart, "--output", file, "--size",
                             "800x500", "--quiet"});
        ASSERT_EQ(r.exitCode, 0) << chart << ": " << r.err;
        const QImage image(QString::fromStdString(file));
        EXPECT_EQ(image.size(), QSize(800, 500)) << chart;
        EXPECT_GT(distinctColours(image), 20) << chart;
    }
}

TEST(PlotCli, SvgWithReferencesAndScale) {
    TempDir out;
    const auto svg = (out.path() / "t.svg").string();
    auto r = plot({SCALEVIEW_SAMPLES, "--chart", "throughput", "--reference",
                   "dlperf-ngc-mxnet-fp32-bs128", "--reference",
                   "dlperf-report-v1-fp32-bs128:OneFlow 0.2.0", "--output", svg, "--quiet"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const std::string text = readWhole(svg);
    EXPECT_NE(text.find("Throughput — r50 fp32, batch 128"), std::string::npos);
    // 1n1g to 4n8g span more than a decade: the axis is logarithmic, and its title says so.
    EXPECT_NE(text.find("Throughput (images/s, log scale)"), std::string::npos);
    EXPECT_NE(text.find("OneFlow 0.2.0"), std::string::npos);
    EXPECT_NE(text.find("32 (4n8g)"), std::string::npos);
    const auto png = (out.path() / "t2.png").string();
    r = plot({SCALEVIEW_SAMPLES, "--output", png, "--size", "600x400", "--scale", "2", "--quiet"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(QImage(QString::fromStdString(png)).size(), QSize(1200, 800));
}

TEST(PlotCli, DrawsWhatTheGuiDrawsLog2SpeedupLabelledReferencesAndTheCiWhisker) {
    TempDir out;
    const auto speedup = (out.path() / "s.svg").string();
    auto r = plot({SCALEVIEW_SAMPLES, "--chart", "speedup", "--reference",
                   "dlperf-ngc-mxnet-fp32-bs128", "--output", speedup, "--quiet"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    std::string text = readWhole(speedup);
    EXPECT_NE(text.find("GPUs (log"), std::string::npos);
    EXPECT_NE(text.find("DLPerf NGC MXNet 20.03 (FP32, bs 128)"), std::string::npos);
    const auto ci = (out.path() / "c.svg").string();
    r = plot({SCALEVIEW_SAMPLES, "--whisker", "ci95", "--output", ci, "--quiet"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    text = readWhole(ci);
    EXPECT_NE(text.find("95 % CI of median"), std::string::npos);
    EXPECT_EQ(text.find("Min–max of repeats"), std::string::npos);
    r = plot({SCALEVIEW_SAMPLES, "--whisker", "stdev", "--output", ci});
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.err.find("--whisker must be minmax or ci95"), std::string::npos) << r.err;
}

TEST(PlotCli, UsageErrorsExitTwo) {
    TempDir out;
    const auto png = (out.path() / "x.png").string();
    EXPECT_EQ(plot({SCALEVIEW_SAMPLES, "--chart", "pie", "--output", png}).exitCode, 2);
    EXPECT_EQ(plot({SCALEVIEW_SAMPLES, "--output", (out.path() / "x.gif").string()}).exitCode, 2);
    EXPECT_EQ(plot({SCALEVIEW_SAMPLES, "--output", png, "--reference", "no-such-table"}).exitCode,
              2);
    EXPECT_EQ(plot({SCALEVIEW_SAMPLES, "--output", png, "--size", "big"}).exitCode, 2);
    EXPECT_EQ(plot({"/nonexistent", "--output", png}).exitCode, 2);
    const auto noValue = plot({SCALEVIEW_SAMPLES, "--output", png, "--reference"});
    EXPECT_EQ(noValue.exitCode, 2);
    EXPECT_NE(noValue.err.find("--reference needs a value"), std::string::npos) << noValue.err;
    EXPECT_FALSE(std::filesystem::exists(png));
}
