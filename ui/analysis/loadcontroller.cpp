#include "ui/analysis/loadcontroller.h"
#include "async/backgroundtask.h"

#include <QtConcurrent>

#include <filesystem>

namespace sv::ui {

LoadController::LoadController(QObject* parent) : QObject(parent) {
    qRegisterMetaType<sv::ui::LogSnapshot>();
    m_partialTimer.setInterval(300);
    connect(&m_partialTimer, &QTimer::timeout, this, [this] {
        if (!m_partialDirty) return;
        m_partialDirty = false;
        emit snapshotReady(snapshot());
    });
}

LoadController::~LoadController() {
    // Workers hold only their own copy of the file list and never touch this object; cancelling
    // lets them stop after the file at hand.
    dropCurrent();
}

void LoadController::dropCurrent() {
    ++m_generation;
    m_partialTimer.stop();
    // A scan under way ends unheard: its result carries an older generation.
    m_scanning = false;
    if (QFutureWatcherBase* w = m_readWatcher) {
        w->disconnect(this);
        w->cancel();
        // Deleted once the future is done, so a running worker never outlives its watcher's
        // connection to us in a harmful way: it reports into a future nobody listens to.
        connect(w, &QFutureWatcherBase::finished, w, &QObject::deleteLater);
        if (w->isFinished()) w->deleteLater();
    }
    m_readWatcher = nullptr;
    m_loading = false;
}

void LoadController::open(const QString& root) {
    // A load of the open directory cut short by this open stays shown, as cancelled, should
    // the new directory turn out unreadable.
    if (m_readWatcher) m_cancelled = true;
    dropCurrent();
    const quint64 generation = m_generation;
    m_opening = root;
    m_loading = true;
    m_clock.start();
    emit started(root);
    m_scanning = true;
    const std::filesystem::path path = root.toStdString();
    // campaign.json is read here too, so no file is touched on the GUI thread.
    async::runInBackground(
        this,
        [path] {
            return Scan{scanLogDirectory(path), findCampaignWindow(path)};
        },
        [this, generation](Scan scan) {
            if (generation != m_generation || !m_scanning) return; // another open since
            m_scanning = false;
            onScanned(generation, std::move(scan));
        },
        async::backgroundPool());
}

void LoadController::onScanned(quint64 generation, Scan found) {
    ScanResult& scan = found.logs;
    if (scan.error) {
        m_loading = false;
        emit failed(m_opening, QString::fromStdString(*scan.error));
        return;
    }
    if (scan.logs.empty()) {
        m_loading = false;
        if (!scan.notRead.empty())
            emit teachable(QString::fromStdString(scan.notRead.front().path.string()),
                           static_cast<int>(scan.notRead.front().line),
                           static_cast<int>(scan.notRead.size()));
        // Content decides (issue 26): say what was read, in one line.
        emit failed(m_opening,
                    QStringLiteral("no throughput logs found (%1; a DLPerf log "
                                   "…/<N>n<G>g/<model>_b<B>_<precision>_<repeat>.log, or any "
                                   "file whose lines a known format reads)")
                        .arg(QString::fromStdString(scan.summaryLine())));
        return;
    }
    m_root = m_opening;
    m_campaignWindow = std::move(found.campaignWindow);
    m_cancelled = false;
    m_read = 0;
    m_scanWarnings = std::move(scan.warnings);
    m_slots.assign(scan.logs.size(), nullptr);
    emit scanned(m_root);
    emit progress(0, static_cast<int>(m_slots.size()), -1);
    m_readWatcher = new QFutureWatcher<RunLogPtr>(this);
    connect(m_readWatcher, &QFutureWatcherBase::resultsReadyAt, this,
            [this, generation](int begin, int end) { onRead(generation, begin, end); });
    connect(m_readWatcher, &QFutureWatcherBase::finished, this,
            [this, generation] { onReadFinished(generation); });
    m_partialTimer.start();
    // After scanned(): its slots have chosen the window the directory is shown with.
    m_readMeasure = m_measure;
    m_readWatcher->setFuture(QtConcurrent::mapped(
        async::workPool(), std::move(scan.logs), [measure = m_readMeasure](const LogFile& f) {
            return std::make_shared<const RunLog>(readRunLog(f, measure));
        }));
}

void LoadController::onRead(quint64 generation, int begin, int end) {
    if (generation != m_generation || !m_readWatcher) return;
    for (int i = begin; i < end; ++i) {
        auto& slot = m_slots[static_cast<std::size_t>(i)];
        if (!slot) ++m_read;
        slot = m_readWatcher->resultAt(i);
    }
    m_partialDirty = true;
    const double elapsed = m_clock.elapsed() / 1000.0;
    const auto total = m_slots.size();
    // A rate from a handful of files is noise; say nothing until there is a trend.
    const double eta = m_read >= 4 && elapsed > 0.3 ? elapsed / static_cast<double>(m_read) *
                                                          static_cast<double>(total - m_read)
                                                    : -1;
    emit progress(static_cast<int>(m_read), static_cast<int>(total), eta);
}

void LoadController::onReadFinished(quint64 generation) {
    if (generation != m_generation || !m_readWatcher) return;
    m_cancelled = m_readWatcher->isCanceled();
    m_readWatcher->deleteLater();
    m_readWatcher = nullptr;
    m_partialTimer.stop();
    m_loading = false;
    emit snapshotReady(snapshot());
    emit finished(m_root, m_cancelled);
}

void LoadController::cancel() {
    if (m_readWatcher)
        m_readWatcher->cancel(); // finished() follows, with what was read
    else if (m_scanning) {
        dropCurrent(); // the open directory stays as it was
        emit finished(m_root, true);
    }
}

LogSnapshot LoadController::snapshot() const {
    LogSnapshot s;
    s.root = m_root;
    s.scanWarnings = m_scanWarnings;
    s.expected = m_slots.size();
    s.measure = m_readMeasure;
    for (const auto& l : m_slots)
        if (l) s.logs.push_back(l);
    s.complete = !m_readWatcher; // a scan under way leaves the open directory as it is
    s.cancelled = m_cancelled;
    return s;
}

} // namespace sv::ui
