#include "ui/analysis/analysiscontroller.h"
#include "async/backgroundtask.h"

#include "core/load/runloader.h"


namespace sv::ui {

AnalysisController::AnalysisController(QObject* parent) : QObject(parent) {
    qRegisterMetaType<sv::ui::AnalysisPtr>();
}

void AnalysisController::setSnapshot(const LogSnapshot& snapshot) {
    m_snapshot = snapshot;
    request();
}

void AnalysisController::setOptions(const AnalysisOptions& options) {
    if (auto why = validateMeasureOptions(options.measure)) {
        emit invalidOptions(QString::fromStdString(*why));
        return;
    }
    m_options = options;
    request();
}

void AnalysisController::setLogsInProgress(std::vector<std::filesystem::path> paths) {
    if (paths == m_inProgress) return;
    m_inProgress = std::move(paths);
    if (!m_snapshot.logs.empty()) request();
}

void AnalysisController::setSeries(std::string label, std::vector<SeriesInput> others) {
    m_label = std::move(label);
    m_others = std::move(others);
    if (!m_snapshot.logs.empty()) request();
}

void AnalysisController::clear() {
    ++m_epoch;
    m_pending = false;
    m_snapshot = {};
    m_current.reset();
    m_remeasured.clear();
}

void AnalysisController::showEmpty(const QString& root, const QString& error) {
    clear();
    m_snapshot.root = root;
    m_snapshot.complete = true;
    // No logs: nothing to compute, so no worker.
    Analysis empty = analyze(m_snapshot, m_options); // no series: an empty page compares nothing
    empty.summary.error = error.toStdString();
    m_current = std::make_shared<const Analysis>(std::move(empty));
    emit analysisReady(m_current);
}

void AnalysisController::remember(const std::vector<RunLogPtr>& sent,
                                  const std::vector<RunLogPtr>& got) {
    for (std::size_t i = 0; i < sent.size() && i < got.size(); ++i) {
        if (got[i] == sent[i]) continue;
        // sent[i] is the snapshot's own log (one kept for this window would not be read again).
        m_remeasured[sent[i].get()] = Remeasured{sent[i], got[i]};
    }
}

void AnalysisController::request() {
    if (m_running) {
        m_pending = true; // one job at a time; the latest inputs run next
        return;
    }
    start();
}

void AnalysisController::start() {
    m_pending = false;
    const quint64 epoch = m_epoch;
    m_running = true;
    LogSnapshot snapshot = m_snapshot;
    snapshot.inProgress = m_inProgress;
    // Logs read again for this window before are not read a third time; those read for an
    // older window are forgotten, as are those no longer in the snapshot.
    std::map<const RunLog*, Remeasured> kept;
    for (auto& log : snapshot.logs) {
        const auto r = m_remeasured.find(log.get());
        if (r == m_remeasured.end() || !sameMeasure(r->second.log->measure, m_options.measure))
            continue;
        log = r->second.log;
        kept.insert(*r);
    }
    m_remeasured = std::move(kept);
    std::vector<RunLogPtr> sent = snapshot.logs;
    async::runInBackground(
        this,
        [snapshot = std::move(snapshot), options = m_options, label = m_label, others = m_others] {
            return AnalysisPtr(std::make_shared<const Analysis>(
                analyze(snapshot, options, ReferenceCatalog::builtin(), label, others)));
        },
        [this, epoch, sent = std::move(sent)](AnalysisPtr result) {
            m_running = false;
            // A result for older options of the same directory is still true for what it
            // shows, and showing it keeps a long partial load filling in; one for another
            // directory is not.
            if (epoch == m_epoch) {
                remember(sent, result->logs);
                m_current = result;
                emit analysisReady(result);
            }
            if (m_pending) start();
        },
        async::workPool());
}

} // namespace sv::ui
