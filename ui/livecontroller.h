#pragma once
// Follows an open directory while a campaign writes into it: QFileSystemWatcher says something
// changed, a short debounce gathers a burst of writes, then a worker re-scans the tree and reads
// only what is new — new logs whole, grown logs from where they stopped (IncrementalRunLog).

// moc trips over the C++20 standard headers behind the core types; it needs only their names.
#ifndef Q_MOC_RUN
#include "logsnapshot.h"
#endif

#include <QFileSystemWatcher>
#include <QFutureWatcher>
#include <QObject>
#include <QTimer>

#include <map>
#include <memory>

namespace sv::ui {

class LiveController : public QObject {
    Q_OBJECT
  public:
    explicit LiveController(QObject* parent = nullptr);
    ~LiveController() override;

    // Starts following the directory of a complete snapshot; stop() forgets it.
    void start(const LogSnapshot& snapshot);
    void stop();
    bool isActive() const { return m_active; }
    void setDebounce(int ms) { m_debounce.setInterval(ms); }

  signals:
    void snapshotReady(const sv::ui::LogSnapshot& snapshot); // only when something changed
    void updated(int changedLogs);

  public:
    struct FileState {
        std::int64_t size = -1;
        std::int64_t mtimeNs = -1;
        bool operator==(const FileState&) const = default;
    };
    // Owned here, used by one worker at a time: the readers of logs that grew since the load.
    using Readers = std::map<std::string, std::shared_ptr<IncrementalRunLog>>;
    struct Refresh {
        LogSnapshot snapshot;
        std::map<std::string, FileState> states;
        QStringList watchPaths; // directories and logs
        int changed = 0;
    };

  private:
    void schedule();
    void refresh();
    void watch(const QStringList& paths);

    bool m_active = false;
    bool m_pending = false;
    quint64 m_generation = 0;
    LogSnapshot m_snapshot;
    std::map<std::string, FileState> m_states;
    std::shared_ptr<Readers> m_readers;
    QFileSystemWatcher* m_watcher = nullptr;
    QFutureWatcher<Refresh>* m_job = nullptr;
    QTimer m_debounce;
};

} // namespace sv::ui
