#include "ui/run/runprogressview.h"

#include "ui/models/cellvalues.h"

#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSplitter>
#include <QTableWidget>
#include <QTextCursor>
#include <QVBoxLayout>

#include <cmath>

namespace sv::ui {
namespace {

QString duration(double seconds) {
    if (seconds < 0) return QObject::tr("ETA unknown");
    const long s = std::lround(seconds);
    return s >= 3600 ? QObject::tr("ETA %1 h %2 min")
                           .arg(s / 3600)
                           .arg((s / 60) % 60, 2, 10, QLatin1Char('0'))
                     : QObject::tr("ETA %1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

QColor stateColour(launcher::RunState s) {
    using launcher::RunState;
    switch (s) {
    case RunState::Ok:
        return QColor(0x1b, 0x7f, 0x3b);
    case RunState::Running:
        return QColor(0x1f, 0x5f, 0xbf);
    case RunState::Pending:
        return QColor(0x70, 0x70, 0x70);
    case RunState::Cancelled:
    case RunState::Interrupted:
        return QColor(0xb0, 0x6a, 0x00);
    default:
        return QColor(0xc0, 0x20, 0x20);
    }
}

// Why an ended run was disturbed, in words; empty when it was not.
QString disturbance(const launcher::RunEnd& end) {
    if (!end.isDisturbed()) return {};
    const std::string why = end.disturbanceWhy();
    return why.empty() ? QObject::tr("the launcher's monitor marked it disturbed")
                       : QString::fromStdString(why);
}

} // namespace

RunProgressView::RunProgressView(QWidget* parent)
    : QWidget(parent),
      m_current(new QLabel(tr("Idle. Set up a campaign on the left and press Run."), this)),
      m_speed(new QLabel(this)), m_runBar(new QProgressBar(this)),
      m_campaignBar(new QProgressBar(this)), m_runs(new QTableWidget(0, 4, this)),
      m_console(new QPlainTextEdit(this)) {
    m_current->setWordWrap(true);
    QFont big = m_speed->font();
    big.setPointSizeF(big.pointSizeF() * 1.4);
    big.setBold(true);
    m_speed->setFont(big);
    m_runBar->setFormat(tr("Run: no run yet"));
    m_campaignBar->setFormat(tr("Campaign: not started"));
    for (auto* bar : {m_runBar, m_campaignBar}) {
        bar->setRange(0, 1);
        bar->setValue(0);
        bar->setTextVisible(true);
    }
    m_runs->setHorizontalHeaderLabels(
        {tr("Run"), tr("State"), tr("images/s (time)"), tr("images/s (speed)")});
    m_runs->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_runs->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_runs->verticalHeader()->hide();
    m_runs->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_runs->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_console->setReadOnly(true);
    m_console->setMaximumBlockCount(3000);
    m_console->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_console->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_console->setPlaceholderText(tr("The current run's output appears here."));

    // The console follows its last line until the user scrolls up, and again once they are
    // back at the end. A sideways scroll, or the horizontal bar coming or going as long lines
    // arrive, changes the vertical range but is no choice to stop following.
    QScrollBar* bar = m_console->verticalScrollBar();
    connect(bar, &QScrollBar::valueChanged, this, [this, bar](int value) {
        if (!m_writing) m_following = value >= bar->maximum();
    });
    connect(bar, &QScrollBar::rangeChanged, this, [this, bar](int, int max) {
        if (!m_following) return;
        m_writing = true;
        bar->setValue(max);
        m_writing = false;
    });

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_runs);
    split->addWidget(m_console);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_current);
    layout->addWidget(m_speed);
    layout->addWidget(m_runBar);
    layout->addWidget(m_campaignBar);
    layout->addWidget(split, 1);
}

void RunProgressView::setPlan(const QStringList& ids,
                              const std::map<std::string, launcher::JournalEntry>& journal,
                              int iterations) {
    m_iterations = iterations;
    m_done = 0;
    m_runSeconds = 0;
    m_timed = 0;
    m_runClock.invalidate();
    m_iteration = 0;
    m_runs->setRowCount(static_cast<int>(ids.size()));
    for (int row = 0; row < ids.size(); ++row) {
        m_runs->setItem(row, 0, new QTableWidgetItem(ids[row]));
        for (int c = 1; c < 4; ++c)
            m_runs->setItem(row, c, new QTableWidgetItem);
        auto it = journal.find(ids[row].toStdString());
        if (it == journal.end() || !it->second.end)
            setState(row, it == journal.end() ? launcher::RunState::Pending : it->second.state());
        else {
            const auto& end = *it->second.end;
            setState(row, end.state, disturbance(end));
            if (end.timeThroughput)
                m_runs->item(row, 2)->setText(QString::number(*end.timeThroughput, 'f', 2));
            if (end.speedThroughput)
                m_runs->item(row, 3)->setText(QString::number(*end.speedThroughput, 'f', 2));
            if (!end.reason.empty() && !end.isDisturbed())
                m_runs->item(row, 1)->setToolTip(QString::fromStdString(end.reason));
            if (launcher::isFinal(end.state)) ++m_done;
        }
    }
    m_runBar->setRange(0, qMax(1, iterations));
    m_runBar->setValue(0);
    m_runBar->setFormat(tr("Run: not started"));
    m_speed->clear();
    updateCampaignBar(-1, -1);
}

void RunProgressView::setState(int row, launcher::RunState state, const QString& disturbedBy) {
    if (row < 0 || row >= m_runs->rowCount()) return;
    QTableWidgetItem* item = m_runs->item(row, 1);
    const QString name = QString::fromStdString(std::string(launcher::runStateName(state)));
    const bool disturbed = state == launcher::RunState::Ok && !disturbedBy.isEmpty();
    item->setText(disturbed ? tr("%1, disturbed").arg(name) : name);
    item->setForeground(tintedText(disturbed ? QColor(0xb0, 0x6a, 0x00) : stateColour(state)));
    if (disturbed) item->setToolTip(tr("Disturbed: %1").arg(disturbedBy));
}

void RunProgressView::ensureRow(int index, const QString& id) {
    // Adaptive repeats add runs as they go (and a resume adopts those an earlier session
    // added): a run the table does not have yet gets its row.
    if (index < m_runs->rowCount() || index < 0) return;
    const int from = m_runs->rowCount();
    m_runs->setRowCount(index + 1);
    for (int row = from; row <= index; ++row) {
        m_runs->setItem(row, 0, new QTableWidgetItem(row == index ? id : QString()));
        for (int c = 1; c < 4; ++c)
            m_runs->setItem(row, c, new QTableWidgetItem);
        setState(row, launcher::RunState::Pending);
    }
}

void RunProgressView::runStarted(int index, const QString& id) {
    ensureRow(index, id);
    m_runClock.start();
    setState(index, launcher::RunState::Running);
    m_runs->scrollToItem(m_runs->item(index, 0));
    m_iteration = 0;
    m_current->setText(
        tr("Run %1 of %2: %3 — starting").arg(index + 1).arg(m_runs->rowCount()).arg(id));
    m_runBar->setValue(0);
    m_runBar->setFormat(tr("Run: starting (loading PyTorch, meeting the ranks)"));
    m_speed->clear();
    writeLine(QStringLiteral("──── %1 ────").arg(id), tintedText(QColor(0x2a, 0x70, 0xe0)), true);
}

void RunProgressView::showProgress(const launcher::RunProgress& p) {
    m_iteration = p.iteration;
    m_runBar->setRange(0, qMax(1, p.iterations));
    m_runBar->setValue(static_cast<int>(qMin<std::int64_t>(p.iteration, p.iterations)));
    m_runBar->setFormat(tr("Run: iteration %v of %m · %1").arg(duration(p.runEtaSeconds)));
    m_current->setText(
        tr("Run %1 of %2: %3").arg(p.index + 1).arg(p.total).arg(QString::fromStdString(p.id)));
    if (!p.jobId.empty() && p.index >= 0 && p.index < m_runs->rowCount()) {
        // Under Slurm: the job id and, while it waits, its queue state, in the run's row.
        QTableWidgetItem* state = m_runs->item(p.index, 1);
        state->setText(p.queue.empty()
                           ? tr("running (job %1)").arg(QString::fromStdString(p.jobId))
                           : tr("queued (job %1)").arg(QString::fromStdString(p.jobId)));
        state->setToolTip(QString::fromStdString(p.queue));
    }
    if (!p.queue.empty()) {
        // Waiting for nodes: Slurm's reason and estimated start, not a pace.
        m_runBar->setFormat(tr("Run: waiting in the Slurm queue"));
        m_current->setText(tr("Run %1 of %2: %3 — Slurm job %4 %5")
                               .arg(p.index + 1)
                               .arg(p.total)
                               .arg(QString::fromStdString(p.id), QString::fromStdString(p.jobId),
                                    QString::fromStdString(p.queue)));
        m_speed->clear();
        updateCampaignBar(p.campaignEtaSeconds, p.campaignEtaMaxSeconds);
        return;
    }
    // While running, the figure is one iteration's pace, and says so.
    m_speed->setText(tr("%1 images/s (current iteration)").arg(p.speed, 0, 'f', 2));
    updateCampaignBar(p.campaignEtaSeconds, p.campaignEtaMaxSeconds);
}

void RunProgressView::runFinished(int index, const launcher::RunEnd& end) {
    if (index >= 0 && index < m_runs->rowCount()) {
        m_runs->item(index, 1)->setToolTip(QString::fromStdString(end.reason));
        setState(index, end.state, disturbance(end));
        if (end.timeThroughput)
            m_runs->item(index, 2)->setText(QString::number(*end.timeThroughput, 'f', 2));
        if (end.speedThroughput)
            m_runs->item(index, 3)->setText(QString::number(*end.speedThroughput, 'f', 2));
        // One number for a finished run: its time-method result, as Results counts it, not the
        // last iteration's pace.
        const QString id = m_runs->item(index, 0)->text();
        m_speed->setText(end.timeThroughput
                             ? tr("%1: %2 images/s (time method, whole window)")
                                   .arg(id)
                                   .arg(*end.timeThroughput, 0, 'f', 2)
                             : tr("%1: no result (%2)")
                                   .arg(id, QString::fromStdString(
                                                std::string(launcher::runStateName(end.state)))));
    }
    ++m_done;
    m_iteration = 0;
    if (m_runClock.isValid()) {
        m_runSeconds += static_cast<double>(m_runClock.elapsed()) / 1000.0;
        ++m_timed;
        m_runClock.invalidate();
    }
    // Until the next run reports its pace: the runs so far, each as long as their mean.
    const int left = m_runs->rowCount() - m_done;
    updateCampaignBar(m_timed > 0 && left > 0 ? m_runSeconds / m_timed * left : -1, -1);
}

void RunProgressView::campaignFinished(bool cancelled, int ok, int total, int disturbed) {
    QString text =
        cancelled
            ? tr("Cancelled: %1 of %2 runs ok. Resume runs the rest.").arg(ok).arg(total)
            : tr("Finished: %1 of %2 runs ok. The Results, Throughput and Speedup tabs show them.")
                  .arg(ok)
                  .arg(total);
    if (disturbed > 0)
        text += QLatin1Char(' ') +
                (disturbed >= ok
                     ? tr("Every one of them was disturbed: their figures are not "
                          "reliable.")
                     : tr("%1 of them disturbed: their figures are not reliable.").arg(disturbed));
    m_current->setText(text);
    m_runBar->setFormat(cancelled ? tr("Run: cancelled") : tr("Run: done"));
    m_campaignBar->setFormat(
        disturbed > 0
            ? tr("Campaign: %1 of %2 runs ok, %3 disturbed").arg(ok).arg(total).arg(disturbed)
            : tr("Campaign: %1 of %2 runs ok").arg(ok).arg(total));
}

void RunProgressView::clearCampaign(const QString& headline) {
    m_current->setText(headline);
    m_speed->clear();
    m_console->clear();
    m_following = true;
    m_runBar->setRange(0, 1);
    m_runBar->setValue(0);
    m_runBar->setFormat(tr("Run: no run yet"));
}

void RunProgressView::updateCampaignBar(double etaSeconds, double etaMaxSeconds) {
    const int total = qMax(1, m_runs->rowCount() * qMax(1, m_iterations));
    m_campaignBar->setRange(0, total);
    m_campaignBar->setValue(static_cast<int>(
        qMin<std::int64_t>(total, std::int64_t(m_done) * m_iterations + m_iteration)));
    // Adaptive repeats: how many runs are left is known only as a range, and so is the time.
    const QString eta = etaMaxSeconds > etaSeconds && etaSeconds >= 0
                            ? tr("ETA %1").arg(QString::fromStdString(
                                  launcher::etaRangeText(etaSeconds, etaMaxSeconds)))
                            : duration(etaSeconds);
    // Every run ended: there is nothing left to estimate.
    if (m_runs->rowCount() > 0 && m_done >= m_runs->rowCount())
        m_campaignBar->setFormat(
            tr("Campaign: %1 of %2 runs done").arg(m_done).arg(m_runs->rowCount()));
    else
        m_campaignBar->setFormat(
            tr("Campaign: %1 of %2 runs done · %3").arg(m_done).arg(m_runs->rowCount()).arg(eta));
}

void RunProgressView::appendLog(const QString& text) {
    // Warnings and errors stand out; the rest stays plain, as the terminal would show it.
    static const QRegularExpression alarm(
        QStringLiteral("warn|error|traceback|exception|killed|abort"),
        QRegularExpression::CaseInsensitiveOption);
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        if (!alarm.match(line).hasMatch())
            writeLine(line, palette().color(QPalette::Text), false);
        else if (line.contains(QLatin1String("warn"), Qt::CaseInsensitive))
            writeLine(line, tintedText(QColor(0xd0, 0x85, 0x00)), true);
        else
            writeLine(line, tintedText(QColor(0xe0, 0x25, 0x25)), true);
    }
}

void RunProgressView::appendNote(const QString& text, bool problem) {
    writeLine(QStringLiteral("▶ ") + text,
              problem ? tintedText(QColor(0xe0, 0x25, 0x25)) : tintedText(QColor(0x2a, 0x70, 0xe0)),
              problem);
}

void RunProgressView::writeLine(const QString& line, const QColor& colour, bool bold) {
    QScrollBar* bar = m_console->verticalScrollBar();
    const bool following = m_following;
    // Lines dropped at the top and the bar's own moves below are no choice of the user's.
    m_writing = true;
    QTextCursor cursor(m_console->document());
    cursor.movePosition(QTextCursor::End);
    QTextCharFormat format;
    format.setForeground(colour);
    format.setFontWeight(bold ? QFont::Bold : QFont::Normal);
    if (!m_console->document()->isEmpty()) cursor.insertBlock();
    cursor.insertText(line, format);
    // Only follow the tail when the user has not scrolled up to read something.
    if (following) bar->setValue(bar->maximum());
    m_writing = false;
}

QString RunProgressView::speedText() const {
    return m_speed->text();
}

QString RunProgressView::currentText() const {
    return m_current->text();
}

} // namespace sv::ui
