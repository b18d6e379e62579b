#include "ui/run/consolefeed.h"

namespace sv::ui {
namespace {
// The console shows a tail; a run printing faster than this is summarized by its last lines.
constexpr qsizetype kMaxPending = 64 * 1024;
} // namespace

ConsoleFeed::ConsoleFeed(QObject* parent) : QObject(parent) {
    m_timer.setInterval(200);
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, [this] { emitLines(false); });
}

void ConsoleFeed::append(const QByteArray& bytes) {
    m_pending += bytes;
    if (m_pending.size() > kMaxPending) {
        // Keep the newest bytes, from a line's start.
        qsizetype from = m_pending.size() - kMaxPending;
        const qsizetype nl = m_pending.indexOf('\n', from);
        from = nl < 0 ? from : nl + 1;
        m_pending.remove(0, from);
        m_skipped = true;
    }
    if (!m_timer.isActive()) m_timer.start();
}

void ConsoleFeed::flush() {
    m_timer.stop();
    emitLines(true);
}

void ConsoleFeed::emitLines(bool all) {
    // Only whole lines, so that neither a line nor a UTF-8 sequence is cut in two.
    const qsizetype end = all ? m_pending.size() : m_pending.lastIndexOf('\n') + 1;
    if (end <= 0) return;
    QByteArray lines = m_pending.left(end);
    m_pending.remove(0, end);
    if (lines.endsWith('\n')) lines.chop(1);
    QString out = QString::fromUtf8(lines);
    if (m_skipped) out.prepend(tr("[… earlier output skipped; the log file holds all of it]\n"));
    m_skipped = false;
    emit text(out);
}

} // namespace sv::ui
