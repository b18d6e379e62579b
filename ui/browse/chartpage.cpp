#include "ui/browse/chartpage.h"

#include "ui/analysis/devicewords.h"
#include "ui/charts/charthover.h"
#include "ui/charts/speedupchart.h"

#include <QBarLegendMarker>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QVBoxLayout>
#include <QXYSeries>

#include <cmath>

namespace sv::ui {

ChartPage::ChartPage(ChartKind kind, QWidget* parent)
    : QWidget(parent), m_kind(kind), m_view(new QChartView(this)), m_header(new QHBoxLayout),
      m_hint(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_hint->setText(tr("Open a DLPerf log directory (File › Open, or drop it on the window)."));
    m_hint->setAlignment(Qt::AlignCenter);
    m_header->addStretch();
    if (kind == ChartKind::Throughput) {
        m_scaleBox = new QComboBox(this);
        m_scaleBox->addItem(tr("Throughput"));
        m_scaleBox->addItem(tr("% of the hardware's peak"));
        m_scaleBox->setToolTip(
            tr("Percent of the devices' dense peak for the run's precision (model FLOPs "
               "utilization, docs/percent-of-peak.md). A case whose device or peak is not known "
               "is left out, and the chart says why."));
        auto* scaleLabel = new QLabel(tr("&Show"), this);
        scaleLabel->setBuddy(m_scaleBox);
        m_header->addWidget(scaleLabel);
        m_header->addWidget(m_scaleBox);
        connect(m_scaleBox, &QComboBox::currentIndexChanged, this, [this](int i) {
            m_scale = i == 1 ? ThroughputScale::PeakPercent : ThroughputScale::Throughput;
            rebuild();
            emit scaleChanged(m_scale);
        });
        m_whiskerBox = new QComboBox(this);
        m_whiskerBox->addItem(tr("Min–max of the repeats"));
        m_whiskerBox->addItem(tr("95 % interval of the median"));
        m_whiskerBox->setToolTip(
            tr("Min–max: the spread of the repeats.\n95 % interval: where the median itself "
               "lies (bootstrap; two or more repeats)"));
        auto* label = new QLabel(tr("&Error bars"), this);
        label->setBuddy(m_whiskerBox);
        m_header->addWidget(label);
        m_header->addWidget(m_whiskerBox);
        connect(m_whiskerBox, &QComboBox::currentIndexChanged, this, [this](int i) {
            m_whisker = i == 1 ? Whisker::Ci95 : Whisker::MinMax;
            rebuild();
            emit whiskerChanged(m_whisker);
        });
    }
    layout->addLayout(m_header);
    layout->addWidget(m_hint);
    layout->addWidget(m_view, 1);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setVisible(false);
    m_tip = new HoverTip(m_view->viewport());
}

void ChartPage::setWhisker(Whisker whisker) {
    if (m_whiskerBox) m_whiskerBox->setCurrentIndex(whisker == Whisker::Ci95 ? 1 : 0);
}

void ChartPage::setScale(ThroughputScale scale) {
    if (m_scaleBox) m_scaleBox->setCurrentIndex(scale == ThroughputScale::PeakPercent ? 1 : 0);
}

void ChartPage::setAnalysis(AnalysisPtr analysis) {
    m_analysis = std::move(analysis);
    rebuild();
}

void ChartPage::rebuild() {
    hover({});
    QChart* chart = nullptr;
    const ChartKind k = kind();
    if (m_analysis && m_analysis->group && k != ChartKind::Trace) {
        m_data = chartData(*m_analysis);
        chart = k == ChartKind::Throughput
                    ? ThroughputChart::build(m_data, m_whisker, m_scale)
                    : SpeedupChart::build(m_data, k == ChartKind::Efficiency);
        connectHover(chart, k == ChartKind::Efficiency);
    }
    m_view->setVisible(chart != nullptr);
    m_hint->setVisible(chart == nullptr);
    if (!chart) return;
    QChart* old = m_view->chart();
    m_view->setChart(chart);
    delete old; // setChart leaves the old chart to us
}

void ChartPage::connectHover(QChart* chart, bool efficiency) {
    // Legend labels are short: hovering one names the reference in full.
    for (QLegendMarker* m : chart->legend()->markers()) {
        int reference = -1;
        if (auto* bar = qobject_cast<QBarLegendMarker*>(m))
            reference = static_cast<int>(bar->series()->barSets().indexOf(bar->barset())) - 1 -
                        static_cast<int>(m_data.others.size());
        else if (const QVariant curve = m->series()->property(SpeedupChart::kCurveProperty);
                 curve.isValid())
            reference = curve.toInt();
        const QString text = ChartHover::legendText(m_data, reference);
        if (!text.isEmpty())
            connect(m, &QLegendMarker::hovered, this,
                    [this, text](bool on) { hover(on ? text : QString()); });
    }
    for (auto* s : chart->series()) {
        if (auto* bars = qobject_cast<QBarSeries*>(s))
            connect(
                bars, &QBarSeries::hovered, this, [this, bars](bool on, int index, QBarSet* set) {
                    hover(on ? ChartHover::barText(m_data,
                                                   static_cast<int>(bars->barSets().indexOf(set)),
                                                   index, m_whisker)
                             : QString());
                });
        const QVariant curve = s->property(SpeedupChart::kCurveProperty);
        auto* xy = qobject_cast<QXYSeries*>(s);
        if (!xy || !curve.isValid()) continue;
        connect(xy, &QXYSeries::hovered, this,
                [this, xy, curve, efficiency](const QPointF& at, bool on) {
                    // A line reports the mouse's position on it: name the nearest data point.
                    int gpus = 0;
                    double best = 1e300;
                    for (const QPointF& p : xy->points())
                        if (std::abs(p.x() - at.x()) < best) {
                            best = std::abs(p.x() - at.x());
                            gpus = SpeedupChart::gpusAt(p.x());
                        }
                    hover(on && gpus > 0
                              ? ChartHover::pointText(m_data, curve.toInt(), gpus, efficiency)
                              : QString());
                });
    }
}

void ChartPage::hover(const QString& text) {
    m_tip->show(text);
}

} // namespace sv::ui
