#pragma once
// Follows an open directory while a campaign writes into it: QFileSystemWatcher says something
// changed, a short debounce gathers a burst of writes, then a worker re-scans the tree and reads
// only what is new — new logs whole, grown logs from where they stopped (IncrementalRunLog).
// Where inotify sees nothing (a network mount written by another host) it polls as well.

// moc trips over the C++20 standard headers behind the core types; it needs only their names.
#ifndef Q_MOC_RUN
#include "ui/analysis/logsnapshot.h"
#endif

#include <QFileSystemWatcher>
#include <QObject>
#include <QTimer>

#include <map>
#include <memory>

namespace sv::ui {

class LiveController : public QObject {
    Q_OBJECT
  public:
    // Auto: poll only where the directory is on a network or cluster mount; Always: poll too.
    enum class Polling { Auto, Always };

    explicit LiveController(QObject* parent = nullptr);
    ~LiveController() override;

    // Starts following the directory of a complete snapshot; stop() forgets it.
    void start(const LogSnapshot& snapshot);
    void stop();
    // One look now (a run ended): while following, at once; otherwise a single look at the
    // snapshot's directory, without following it afterwards.
    void refreshNow(const LogSnapshot& snapshot);
    bool isActive() const { return m_active; }
    void setDebounce(int ms) { m_debounce.setInterval(ms); }
    void setPolling(Polling polling);
    void setPollInterval(int ms) { m_poll.setInterval(ms); }
    // Whether it polls now, and why: the mount's type on Auto, empty when local or Always.
    bool isPolling() const { return m_poll.isActive(); }
    const QString& remoteFileSystem() const { return m_remote; }
    // Off: file system events are ignored, as on a mount where inotify sees nothing (tests).
    void setFileSystemEvents(bool on) { m_events = on; }

  signals:
    void snapshotReady(const sv::ui::LogSnapshot& snapshot); // only when something changed
    void updated(int changedLogs);
    void refreshed(); // after every look, changed or not
    void pollingChanged(bool polling);

  public:
    struct FileState {
        std::int64_t size = -1;
        std::int64_t mtimeNs = -1;
        std::uint64_t inode = 0;
        bool operator==(const FileState&) const = default;
    };
    // Owned here, used by one worker at a time: the readers of logs that grew since the load.
    using Readers = std::map<std::string, std::shared_ptr<IncrementalRunLog>>;
    struct Refresh {
        LogSnapshot snapshot;
        std::map<std::string, FileState> states;
        QStringList watchPaths; // directories and logs
        QString remote;         // the mount's type when it is a network or cluster one
        int changed = 0;
    };

  private:
    void schedule();
    void refresh();
    void watch(const QStringList& paths);
    void updatePolling();

    bool m_active = false;
    bool m_once = false; // refreshNow() without following: stop after the look
    bool m_pending = false;
    bool m_events = true;
    Polling m_polling = Polling::Auto;
    QString m_remote;
    quint64 m_generation = 0;
    LogSnapshot m_snapshot;
    std::map<std::string, FileState> m_states;
    std::shared_ptr<Readers> m_readers;
    QFileSystemWatcher* m_watcher = nullptr;
    bool m_running = false; // a look is on the work pool (one at a time)
    QTimer m_debounce;
    QTimer m_poll;
};

} // namespace sv::ui
