#include "chartpage.h"

#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolTip>
#include <QVBoxLayout>

namespace sv::ui {

ChartPage::ChartPage(ChartKind kind, QWidget* parent)
    : QWidget(parent), m_kind(kind), m_view(new QChartView(this)), m_header(new QHBoxLayout),
      m_hint(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_hint->setText(tr("Open a DLPerf log directory (File › Open, or drop it on the window)."));
    m_hint->setAlignment(Qt::AlignCenter);
    m_header->addStretch();
    layout->addLayout(m_header);
    layout->addWidget(m_hint);
    layout->addWidget(m_view, 1);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setVisible(false);
}

void ChartPage::setAnalysis(AnalysisPtr analysis) {
    m_analysis = std::move(analysis);
    rebuild();
}

void ChartPage::rebuild() {
    QChart* chart = m_analysis ? ExportController::buildChart(*m_analysis, kind()) : nullptr;
    m_view->setVisible(chart != nullptr);
    m_hint->setVisible(chart == nullptr);
    if (!chart) return;
    // Exact figures on hover: bars are hard to read to the last image/s.
    for (auto* s : chart->series())
        if (auto* bars = qobject_cast<QBarSeries*>(s))
            connect(bars, &QBarSeries::hovered, this, [](bool on, int index, QBarSet* set) {
                if (on)
                    QToolTip::showText(QCursor::pos(), QStringLiteral("%1\n%2 images/s")
                                                           .arg(set->label())
                                                           .arg(set->at(index), 0, 'f', 2));
                else
                    QToolTip::hideText();
            });
    QChart* old = m_view->chart();
    m_view->setChart(chart);
    delete old; // setChart leaves the old chart to us
}

} // namespace sv::ui
