// The History page's chart marks each change point at its campaign, labelled with the step and
// what changed there: eight generated nights recorded into a real history, the last four on a
// new driver and 10 % slower.

#include "tests/history/historyfixture.h"
#include "tests/ui/uifixture.h"

#include "history/campaignrecord.h"
#include "history/historydatabase.h"
#include "ui/history/historychart.h"
#include "ui/history/historypage.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QValueAxis>

#include <gtest/gtest.h>

#include <cmath>

using namespace sv::test;
using sv::history::HistoryDatabase;
using sv::ui::HistoryPage;

namespace {

// A little noise per night (so each night's logs, and so its identity, differ): +-0.3 %.
double jitter(int night) {
    const double j[] = {0.0, 0.002, -0.001, 0.001, 0.003, -0.002, 0.0015, -0.0025};
    return 1.0 + j[(night - 1) % 8];
}

// The chart's scatter series whose name starts with prefix.
std::vector<QScatterSeries*> scatterNamed(QChart* chart, const QString& prefix) {
    std::vector<QScatterSeries*> out;
    for (auto* s : chart->series())
        if (auto* scatter = qobject_cast<QScatterSeries*>(s);
            scatter && scatter->name().startsWith(prefix))
            out.push_back(scatter);
    return out;
}

std::vector<QScatterSeries*> changePointMarks(QChart* chart) {
    return scatterNamed(chart, QStringLiteral("change point:"));
}

} // namespace

TEST(HistoryChart, TheChangePointIsMarkedAtItsCampaignWithWhatChanged) {
    TempDir dir;
    const auto db = dir / "history.sqlite";
    {
        HistoryDatabase history(db);
        for (int night = 1; night <= 8; ++night) {
            const bool after = night >= 5;
            const auto root = dir / ("night" + std::to_string(night));
            const double level = (after ? 0.9 : 1.0) * jitter(night);
            writeHistoryCampaign(root, level, level, 20 - night,
                                 after ? "550.54.14" : "535.104.05");
            auto read = sv::history::readCampaign(root);
            ASSERT_TRUE(read.record) << read.error;
            ASSERT_EQ(history.record(*read.record).outcome, HistoryDatabase::Outcome::Added);
        }
    }
    HistoryPage page;
    QSignalSpy loaded(&page, &HistoryPage::loaded);
    page.setDatabasePath(db);
    ASSERT_TRUE(loaded.wait(20000));
    ASSERT_EQ(page.caseBox()->count(), 2);
    for (int c = 0; c < 2; ++c) {
        page.caseBox()->setCurrentIndex(c);
        const auto& trend = page.trends()[static_cast<std::size_t>(c)];
        ASSERT_EQ(trend.points.size(), 8u);
        ASSERT_EQ(trend.steps.size(), 1u) << "case " << c;
        ASSERT_EQ(trend.steps[0].point.index, 4u); // night5, the first on the new driver
        const auto marks = changePointMarks(page.chartView()->chart());
        ASSERT_EQ(marks.size(), 1u);
        QScatterSeries* mark = marks.front();
        ASSERT_EQ(mark->count(), 1);
        EXPECT_DOUBLE_EQ(mark->at(0).x(), 4.0);
        EXPECT_DOUBLE_EQ(mark->at(0).y(), trend.points[4].median);
        EXPECT_TRUE(mark->name().startsWith(QStringLiteral("change point: night5 (-10.")))
            << mark->name().toStdString();
        // Its text, just before night5 above the data: the step and what changed there.
        const auto texts =
            scatterNamed(page.chartView()->chart(), QStringLiteral("change point label"));
        ASSERT_EQ(texts.size(), 1u);
        QScatterSeries* text = texts.front();
        ASSERT_EQ(text->count(), 1);
        EXPECT_DOUBLE_EQ(text->at(0).x(), 3.5);
        EXPECT_GT(text->at(0).y(), trend.points[0].max);
        EXPECT_TRUE(text->pointLabelsVisible());
        EXPECT_TRUE(text->pointLabelsFormat().startsWith(QStringLiteral("step -10.")))
            << text->pointLabelsFormat().toStdString();
        EXPECT_TRUE(text->pointLabelsFormat().endsWith(
            QStringLiteral(" %: driver 535.104.05 -> 550.54.14")))
            << text->pointLabelsFormat().toStdString();
    }
}

TEST(HistoryChart, NoChangePointNoMark) {
    TempDir dir;
    const auto db = dir / "history.sqlite";
    {
        HistoryDatabase history(db);
        for (int night = 1; night <= 6; ++night) {
            const auto root = dir / ("night" + std::to_string(night));
            writeHistoryCampaign(root, jitter(night), jitter(night), 20 - night, "535.104.05");
            auto read = sv::history::readCampaign(root);
            ASSERT_TRUE(read.record) << read.error;
            ASSERT_EQ(history.record(*read.record).outcome, HistoryDatabase::Outcome::Added);
        }
    }
    HistoryPage page;
    QSignalSpy loaded(&page, &HistoryPage::loaded);
    page.setDatabasePath(db);
    ASSERT_TRUE(loaded.wait(20000));
    ASSERT_GE(page.caseBox()->count(), 1);
    EXPECT_TRUE(page.trends()[0].steps.empty());
    EXPECT_TRUE(changePointMarks(page.chartView()->chart()).empty());
}

// Issue 37's polish: the throughput axis read 2657.0 / 2764.6. Its ticks are round (1, 2 or 5
// times a power of ten, from a multiple of the step) and labelled without needless decimals.
TEST(HistoryChart, TheThroughputAxisHasRoundTicks) {
    TempDir dir;
    const auto db = dir / "history.sqlite";
    {
        HistoryDatabase history(db);
        for (int night = 1; night <= 4; ++night) {
            const auto root = dir / ("night" + std::to_string(night));
            writeHistoryCampaign(root, jitter(night) * 1.037, jitter(night) * 0.963, 30 - night,
                                 "535.104.05");
            auto read = sv::history::readCampaign(root);
            ASSERT_TRUE(read.record) << read.error;
            ASSERT_EQ(history.record(*read.record).outcome, HistoryDatabase::Outcome::Added);
        }
    }
    HistoryPage page;
    QSignalSpy loaded(&page, &HistoryPage::loaded);
    page.setDatabasePath(db);
    ASSERT_TRUE(loaded.wait(20000));
    ASSERT_GE(page.caseBox()->count(), 2);
    for (int c = 0; c < page.caseBox()->count(); ++c) {
        page.caseBox()->setCurrentIndex(c);
        QValueAxis* y = nullptr;
        for (auto* axis : page.chartView()->chart()->axes(Qt::Vertical))
            if (auto* v = qobject_cast<QValueAxis*>(axis)) y = v;
        ASSERT_NE(y, nullptr);
        ASSERT_EQ(y->tickType(), QValueAxis::TicksDynamic);
        const double step = y->tickInterval();
        const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
        EXPECT_TRUE(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 ||
                    std::abs(mantissa - 5) < 1e-9)
            << step;
        const double ticks = y->min() / step;
        EXPECT_NEAR(ticks, std::round(ticks), 1e-6) << y->min() << " by " << step;
        const int count = static_cast<int>(std::lround((y->max() - y->min()) / step)) + 1;
        EXPECT_GE(count, 3);
        EXPECT_LE(count, 12);
        QStringList labels;
        for (int i = 0; i < count; ++i) {
            const QString label =
                QString::asprintf(y->labelFormat().toLatin1().constData(), y->min() + i * step);
            EXPECT_FALSE(label.contains(QLatin1Char('.')) && step >= 1) << label.toStdString();
            labels << label;
        }
        EXPECT_EQ(labels.removeDuplicates(), 0) << labels.join(QLatin1Char(' ')).toStdString();
    }
}
