#pragma once
// Follows the log a run is writing, for the live console: every few hundred ms it reads what
// was appended since, at most a bounded chunk per tick, so a chatty run cannot stall the window.

#include <QFile>
#include <QObject>
#include <QTimer>

namespace sv::ui {

class LogTail : public QObject {
    Q_OBJECT
  public:
    explicit LogTail(QObject* parent = nullptr);

    void follow(const QString& path); // from its start
    void stop();                      // reads what is left, then stops
    const QString& path() const { return m_path; }

  signals:
    void text(const QString& appended);

  private:
    void poll();

    QString m_path;
    QFile m_file;
    QByteArray m_partial; // an unfinished UTF-8 sequence or line
    QTimer m_timer;
};

} // namespace sv::ui
