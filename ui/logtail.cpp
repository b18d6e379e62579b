#include "logtail.h"

namespace sv::ui {
namespace {
// The console shows a tail; a run printing faster than this is summarized by its last lines.
constexpr qint64 kMaxChunk = 64 * 1024;
} // namespace

LogTail::LogTail(QObject* parent) : QObject(parent) {
    m_timer.setInterval(300);
    connect(&m_timer, &QTimer::timeout, this, &LogTail::poll);
}

void LogTail::follow(const QString& path) {
    stop();
    m_path = path;
    m_partial.clear();
    m_timer.start();
}

void LogTail::stop() {
    // What the run wrote last is shown once; then the file is forgotten, so that following the
    // next run never re-reads this one from its start.
    if (m_file.isOpen()) poll();
    m_timer.stop();
    m_file.close();
    m_path.clear();
}

void LogTail::poll() {
    if (!m_file.isOpen()) {
        m_file.setFileName(m_path);
        // The runner creates the log when the run starts; until then there is nothing to show.
        if (!m_file.open(QIODevice::ReadOnly)) return;
    }
    const qint64 available = m_file.size() - m_file.pos();
    if (available <= 0) return;
    if (available > kMaxChunk) m_file.seek(m_file.size() - kMaxChunk);
    m_partial += m_file.read(kMaxChunk);
    const qsizetype lastNewline = m_partial.lastIndexOf('\n');
    if (lastNewline < 0) return;
    emit text(QString::fromUtf8(m_partial.left(lastNewline)));
    m_partial.remove(0, lastNewline + 1);
}

} // namespace sv::ui
