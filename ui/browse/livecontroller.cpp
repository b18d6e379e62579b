#include "ui/browse/livecontroller.h"
#include "async/backgroundtask.h"

#include "ui/browse/remotefilesystem.h"

#include <QSet>

#include <set>

#include <sys/stat.h>

namespace sv::ui {

namespace {

LiveController::FileState stateOf(const std::filesystem::path& p) {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) return {};
    return {static_cast<std::int64_t>(st.st_size),
            static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec,
            static_cast<std::uint64_t>(st.st_ino)};
}

// Whether a log is as it was when last read: against its last look, or, the first time,
// against what the load read (a campaign may have appended since).
bool unchanged(const RunLog& log, const LiveController::FileState* last,
               const LiveController::FileState& now) {
    if (last) return *last == now;
    return !log.readError && log.position.inode == now.inode &&
           static_cast<std::int64_t>(log.position.offset) == now.size;
}

// On a worker: what the directory holds now, reusing every log that has not changed.
LiveController::Refresh rescan(LogSnapshot current,
                               std::map<std::string, LiveController::FileState> states,
                               std::shared_ptr<LiveController::Readers> readers) {
    LiveController::Refresh out;
    const std::filesystem::path root = current.root.toStdString();
    ScanResult scan = scanLogDirectory(root);
    std::map<std::string, RunLogPtr> known;
    for (const auto& l : current.logs)
        known[l->file.path.string()] = l;
    out.snapshot.root = current.root;
    out.snapshot.scanWarnings = std::move(scan.warnings);
    out.snapshot.complete = true;
    out.snapshot.measure = current.measure;
    out.remote = QString::fromStdString(ui::remoteFileSystem(root));
    out.watchPaths << current.root;
    std::set<QString> dirs;
    for (const auto& file : scan.logs) {
        const std::string path = file.path.string();
        const auto state = stateOf(file.path);
        out.states[path] = state;
        for (auto d = file.path.parent_path(); d.string().size() > root.string().size();
             d = d.parent_path())
            dirs.insert(QString::fromStdString(d.string()));
        out.watchPaths << QString::fromStdString(path);
        const auto k = known.find(path);
        const auto s = states.find(path);
        if (k != known.end() &&
            unchanged(*k->second, s == states.end() ? nullptr : &s->second, state)) {
            out.snapshot.logs.push_back(k->second);
            continue;
        }
        auto& reader = (*readers)[path];
        // Readers measure for the snapshot's window; one for another window starts afresh.
        if (!reader || !sameMeasure(reader->measure(), current.measure))
            reader = std::make_shared<IncrementalRunLog>(file, current.measure);
        reader->update();
        out.snapshot.logs.push_back(std::make_shared<const RunLog>(reader->log()));
        ++out.changed;
    }
    std::size_t stillThere = 0;
    for (const auto& file : scan.logs)
        stillThere += known.count(file.path.string());
    out.changed += static_cast<int>(known.size() - stillThere); // logs that went away
    out.snapshot.expected = out.snapshot.logs.size();
    for (const auto& d : dirs)
        out.watchPaths << d;
    return out;
}

} // namespace

LiveController::LiveController(QObject* parent)
    : QObject(parent), m_readers(std::make_shared<Readers>()) {
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(500);
    connect(&m_debounce, &QTimer::timeout, this, &LiveController::refresh);
    // Every few seconds: a re-scan stats every log, and reads only those that changed.
    m_poll.setInterval(3000);
    connect(&m_poll, &QTimer::timeout, this, &LiveController::refresh);
}

LiveController::~LiveController() {
    stop();
}

void LiveController::start(const LogSnapshot& snapshot) {
    stop();
    m_active = true;
    m_snapshot = snapshot;
    m_watcher = new QFileSystemWatcher(this);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, &LiveController::schedule);
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &LiveController::schedule);
    // The first refresh reads what was appended since the load, records every file's size and
    // time, sets up the watches, and finds out whether the mount needs polling.
    refresh();
    updatePolling();
}

void LiveController::refreshNow(const LogSnapshot& snapshot) {
    if (m_active && !m_once && m_snapshot.root == snapshot.root) {
        m_debounce.stop();
        refresh();
        return;
    }
    stop();
    m_active = true;
    m_once = true;
    m_snapshot = snapshot;
    refresh();
}

void LiveController::setPolling(Polling polling) {
    m_polling = polling;
    updatePolling();
}

void LiveController::updatePolling() {
    const bool poll = m_active && !m_once && (m_polling == Polling::Always || !m_remote.isEmpty());
    if (poll == m_poll.isActive()) return;
    if (poll)
        m_poll.start();
    else
        m_poll.stop();
    emit pollingChanged(poll);
}

void LiveController::stop() {
    ++m_generation;
    m_active = false;
    m_once = false;
    m_pending = false;
    m_remote.clear();
    m_debounce.stop();
    updatePolling();
    delete m_watcher;
    m_watcher = nullptr;
    m_states.clear();
    // A worker may still hold the old readers; it keeps them alive, and we start afresh.
    m_readers = std::make_shared<Readers>();
    // A look under way is dropped when it returns (its generation is gone).
    m_running = false;
}

void LiveController::schedule() {
    if (m_active && m_events) m_debounce.start();
}

void LiveController::refresh() {
    if (!m_active) return;
    if (m_running) {
        m_pending = true;
        return;
    }
    const quint64 generation = m_generation;
    m_running = true;
    async::runInBackground(
        this,
        [snapshot = m_snapshot, states = m_states, readers = m_readers]() mutable {
            return rescan(std::move(snapshot), std::move(states), std::move(readers));
        },
        [this, generation](Refresh r) {
            if (generation != m_generation) return; // stopped since
            m_running = false;
            m_states = std::move(r.states);
            watch(r.watchPaths);
            if (r.remote != m_remote) {
                m_remote = r.remote;
                updatePolling();
            }
            if (r.changed > 0 || r.snapshot.logs.size() != m_snapshot.logs.size()) {
                m_snapshot = r.snapshot;
                emit snapshotReady(m_snapshot);
                emit updated(r.changed);
            }
            if (m_pending) {
                m_pending = false;
                refresh();
            } else if (m_once) {
                stop();
            }
            emit refreshed();
        },
        async::workPool());
}

void LiveController::watch(const QStringList& paths) {
    if (!m_watcher) return;
    const QStringList watched = m_watcher->files() + m_watcher->directories();
    const QSet<QString> have(watched.begin(), watched.end());
    QStringList add;
    for (const auto& p : paths)
        if (!have.contains(p)) add << p;
    if (!add.isEmpty()) m_watcher->addPaths(add);
}

} // namespace sv::ui
