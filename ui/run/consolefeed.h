#pragma once
// Feeds the live console from a run's output as the runner hands it over: bytes are gathered
// and shown as whole lines a few times a second, at most a bounded tail per update, so a chatty
// run cannot flood the window.

#include <QByteArray>
#include <QObject>
#include <QTimer>

namespace sv::ui {

class ConsoleFeed : public QObject {
    Q_OBJECT
  public:
    explicit ConsoleFeed(QObject* parent = nullptr);

    void append(const QByteArray& bytes);
    // Shows what is gathered now, an unfinished last line included, and starts afresh.
    void flush();

  signals:
    void text(const QString& lines);

  private:
    void emitLines(bool all);

    QByteArray m_pending;
    bool m_skipped = false; // bytes were dropped from the front since the last update
    QTimer m_timer;
};

} // namespace sv::ui
