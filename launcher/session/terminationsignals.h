#pragma once
// SIGINT, SIGTERM and SIGHUP turned into a Qt signal in the event loop (the self-pipe trick), so
// that a campaign is cancelled cleanly (TERM, grace, KILL, journal flushed) instead of the process
// dying with its runs still going. One instance per process.

#include <QObject>
#include <QSocketNotifier>

#include <memory>

namespace sv::launcher {

class TerminationSignals : public QObject {
    Q_OBJECT
  public:
    explicit TerminationSignals(QObject* parent = nullptr);
    ~TerminationSignals() override;

  signals:
    void received(int signalNumber);

  private:
    std::unique_ptr<QSocketNotifier> m_notifier;
};

} // namespace sv::launcher
