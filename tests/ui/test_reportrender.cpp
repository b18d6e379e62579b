// The report drawn without a browser (scaleview --render-html, the fallback for the
// documentation's report.png): each inline SVG chart sits right under its caption, with no blank
// the chart's height above it, and each caption starts a line of its own.

#include "core/report/reportdocument.h"
#include "ui/export/reportrender.h"

#include <QColor>
#include <QImage>
#include <QString>

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace {

bool redRow(const QImage& image, int y) {
    for (int x = 0; x < image.width(); x += 4)
        if (QColor(image.pixel(x, y)) == QColor(Qt::red)) return true;
    return false;
}

// The charts (each a red fill) as [first, last] rows, top to bottom.
std::vector<std::pair<int, int>> charts(const QImage& image) {
    std::vector<std::pair<int, int>> out;
    for (int y = 0; y < image.height(); ++y) {
        if (!redRow(image, y)) continue;
        if (!out.empty() && out.back().second == y - 1)
            out.back().second = y;
        else
            out.push_back({y, y});
    }
    return out;
}

// The rightmost column holding anything but white in rows [from, to); -1: none.
int rightmostInk(const QImage& image, int from, int to) {
    int right = -1;
    for (int y = from; y < to; ++y)
        for (int x = image.width() - 1; x > right; --x)
            if (QColor(image.pixel(x, y)) != QColor(Qt::white)) right = x;
    return right;
}

// How many blank (all white) rows lie right above row y.
int blankAbove(const QImage& image, int y) {
    int n = 0;
    for (int row = y - 1; row >= 0 && rightmostInk(image, row, row + 1) < 0; --row)
        ++n;
    return n;
}

// A red chart as QSvgGenerator writes it: width and height in mm, the viewBox in pixels, and a
// newline after it.
std::string redChart() {
    return "<svg width=\"423.333mm\" height=\"282.222mm\" viewBox=\"0 0 1200 800\" "
           "xmlns=\"http://www.w3.org/2000/svg\" version=\"1.2\" baseProfile=\"tiny\">"
           "<rect x=\"0\" y=\"0\" width=\"1200\" height=\"800\" fill=\"#ff0000\"/></svg>\n";
}

// A report as core writes it, of one directory with its two charts.
QString page() {
    sv::ReportInput input;
    sv::ReportSeries series;
    series.label = "logs";
    series.charts = {{"logs: throughput", redChart()}, {"logs: speedup", redChart()}};
    input.series.push_back(series);
    return QString::fromStdString(sv::formatHtmlReport(input));
}

} // namespace

TEST(ReportRender, EachChartSitsRightUnderItsCaption) {
    for (const int width : {1200, 800}) {
        const QImage image = sv::ui::ReportRender::render(page(), width, 6000);
        const auto found = charts(image);
        ASSERT_EQ(found.size(), 2u) << "charts drawn at width " << width;
        for (const auto& [top, bottom] : found) // each keeps its aspect ratio, margins aside
            EXPECT_NEAR((bottom - top + 1) * 3.0 / 2.0, width - 80, 4.0) << width;
        // Each starts right under its caption, not under a blank as tall as the chart.
        for (const auto& [top, bottom] : found)
            EXPECT_LT(blankAbove(image, top), 60) << "a blank above the chart at row " << top;
        // The second caption starts a line of its own, whole: nothing of it runs on beside the
        // first chart (its first word was drawn there, at the chart's foot).
        int chartRight = 0;
        for (int x = 0; x < image.width(); ++x)
            if (QColor(image.pixel(x, found[0].second)) == QColor(Qt::red)) chartRight = x;
        QImage beside = image.copy(chartRight + 2, found[0].first, image.width() - chartRight - 2,
                                   found[0].second - found[0].first + 1);
        EXPECT_EQ(rightmostInk(beside, 0, beside.height()), -1)
            << "text beside the first chart, right of column " << chartRight;
    }
}
