#include "ui/charts/lossbreakdownview.h"

#include <QAbstractBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QVBoxLayout>

namespace sv::ui {

LossBreakdownView::LossBreakdownView(QWidget* parent)
    : QWidget(parent), m_view(new QChartView(this)), m_notes(new QLabel(this)) {
    setObjectName(QStringLiteral("lossBreakdown"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_notes);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(160);
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notes->setVisible(false);
    m_tip = new HoverTip(m_view->viewport());
}

void LossBreakdownView::setAnalysis(const AnalysisPtr& analysis) {
    hover({});
    m_data = analysis ? LossBreakdownChart::breakdown(*analysis) : LossBreakdown{};
    QChart* chart = LossBreakdownChart::build(m_data);
    for (auto* s : chart->series()) {
        auto* bars = qobject_cast<QAbstractBarSeries*>(s);
        if (!bars) continue;
        connect(
            bars, &QAbstractBarSeries::hovered, this,
            [this, bars](bool on, int index, QBarSet* set) {
                const auto s = static_cast<int>(bars->barSets().indexOf(set));
                if (!on || index < 0 || index >= static_cast<int>(m_data.bars.size()) || s < 0) {
                    hover({});
                    return;
                }
                hover(LossBreakdownChart::hoverText(m_data.bars[static_cast<std::size_t>(index)],
                                                    static_cast<LossBreakdownChart::Set>(s)));
            });
    }
    QChart* old = m_view->chart();
    m_view->setChart(chart);
    delete old;
    const QStringList notes = LossBreakdownChart::notes(m_data);
    m_notes->setText(notes.join(QLatin1Char('\n')));
    m_notes->setVisible(!notes.isEmpty());
}

void LossBreakdownView::hover(const QString& text) {
    m_tip->show(text);
}

} // namespace sv::ui
