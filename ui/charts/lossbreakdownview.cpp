#include "ui/charts/lossbreakdownview.h"

#include <QAbstractBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>

namespace sv::ui {

LossBreakdownView::LossBreakdownView(QWidget* parent)
    : QWidget(parent), m_view(new QChartView(this)), m_notes(new QLabel(this)),
      m_rerun(new QPushButton(this)) {
    setObjectName(QStringLiteral("lossBreakdown"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_view, 1);
    auto* under = new QHBoxLayout;
    // The notes scroll past four lines: many cases' notes once left the speedup chart above a
    // 70-pixel strip at 1400 x 900 (issue 37 item 9).
    m_notesArea = new QScrollArea(this);
    m_notesArea->setObjectName(QStringLiteral("lossNotes"));
    m_notesArea->setWidget(m_notes);
    m_notesArea->setWidgetResizable(true);
    m_notesArea->setFrameShape(QFrame::NoFrame);
    m_notesArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_notesArea->setMaximumHeight(4 * m_notes->fontMetrics().lineSpacing() + 6);
    m_notesArea->setVisible(false);
    under->addWidget(m_notesArea, 1);
    under->addWidget(m_rerun, 0, Qt::AlignTop);
    layout->addLayout(under);
    m_view->setRenderHint(QPainter::Antialiasing);
    // Room for the axis labels and title under one or two bars (at 160 px they were all "…").
    m_view->setMinimumHeight(230);
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notes->setVisible(false);
    m_tip = new HoverTip(m_view->viewport());
    m_rerun->setObjectName(QStringLiteral("rerunWithoutNode"));
    m_rerun->setVisible(false);
    connect(m_rerun, &QPushButton::clicked, this,
            [this] { emit rerunWithout(m_slowNode, m_slowWhy); });
}

// The slowest node the probes name (the most slower of the cases'), offered to leave out.
void LossBreakdownView::offerRerun() {
    const SlowNode* worst = nullptr;
    for (const LossBar& bar : m_data.bars)
        for (const SlowNode& n : bar.loss.slowNodes)
            if (!worst || n.slowerPct > worst->slowerPct) worst = &n;
    m_rerun->setVisible(worst != nullptr);
    if (!worst) return;
    m_slowNode = QString::fromStdString(worst->node);
    m_slowWhy = tr("%1 % slower alone than the median node: %2")
                    .arg(QString::number(worst->slowerPct, 'f', 1),
                         QString::fromStdString(worst->evidence));
    m_rerun->setText(tr("Rerun without %1…").arg(m_slowNode));
    m_rerun->setToolTip(tr("Open this campaign on the Run tab without %1, the reason recorded "
                           "in its journal: %2")
                            .arg(m_slowNode, m_slowWhy));
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
    // A breakdown not to trust is said in the warning colour, not as small print.
    const bool doubtful = std::any_of(m_data.bars.begin(), m_data.bars.end(),
                                      [](const LossBar& b) { return !b.loss.unreliable.empty(); });
    m_notes->setStyleSheet(doubtful ? QStringLiteral("color: #b3261e; font-weight: bold;")
                                    : QString());
    m_notes->setVisible(!notes.isEmpty());
    m_notesArea->setVisible(!notes.isEmpty());
    offerRerun();
}

void LossBreakdownView::hover(const QString& text) {
    m_tip->show(text);
}

} // namespace sv::ui
