#include "ui/compare/seriesset.h"

#include "ui/analysis/loadcontroller.h"

#include "core/compare/serieslabels.h"
#include "core/formats/formatregistry.h"

#include <QDir>
#include <QFileInfo>

namespace sv::ui {

SeriesSet::SeriesSet(QObject* parent) : QObject(parent) {}

QString SeriesSet::directoryLabel(const QString& root) {
    const QString name = QFileInfo(QDir::cleanPath(root)).fileName();
    return name.isEmpty() ? QDir::cleanPath(root) : name;
}

QString SeriesSet::uniqueLabel(const QString& wanted, int skip) const {
    // "(N)" after a name another series has, N the series' place, as the CLI does.
    QStringList taken = labels();
    if (skip >= 0 && skip < taken.size()) taken.removeAt(skip);
    const int place = skip >= 0 ? skip : count();
    return taken.contains(wanted) ? QStringLiteral("%1 (%2)").arg(wanted).arg(place + 1) : wanted;
}

namespace {
std::vector<std::string> frameworksOf(const std::vector<std::string>& formats) {
    std::vector<std::string> out;
    for (const auto& f : formats)
        if (!f.empty()) out.emplace_back(logFormatOf(f).framework);
    return out;
}
} // namespace

bool SeriesSet::relabel() {
    // With no directory open yet (series added first), the added ones among themselves.
    // Those named by the user are theirs: the others are told apart among themselves.
    const bool main = !m_mainRoot.isEmpty() && !m_mainRenamed;
    std::vector<SeriesOrigin> origins;
    if (main) origins.push_back({m_mainRoot.toStdString(), m_mainFrameworks});
    for (const auto& e : m_entries) {
        if (e.renamed) continue;
        std::vector<std::string> formats;
        for (const auto& log : e.snapshot.logs)
            if (log) formats.push_back(log->result.key.format);
        origins.push_back({e.root.toStdString(), frameworksOf(formats)});
    }
    const auto named = distinguishingLabels(origins);
    bool changed = false;
    auto set = [&](QString& label, const std::string& wanted) {
        const QString w = QString::fromStdString(wanted);
        if (label != w) changed = true;
        label = w;
    };
    std::size_t next = 0;
    if (main) set(m_mainLabel, named[next++]);
    for (auto& e : m_entries)
        if (!e.renamed) set(e.label, named[next++]);
    // A name the user gave another series: "(N)" after it, as before.
    for (std::size_t i = 0; i < m_entries.size(); ++i)
        if (!m_entries[i].renamed) {
            const QString unique = uniqueLabel(m_entries[i].label, static_cast<int>(i) + 1);
            if (unique != m_entries[i].label) changed = true;
            m_entries[i].label = unique;
        }
    return changed;
}

void SeriesSet::setMainFormats(const std::vector<std::string>& formats) {
    auto frameworks = frameworksOf(formats);
    if (frameworks == m_mainFrameworks) return;
    m_mainFrameworks = std::move(frameworks);
    if (relabel()) emit changed();
}

void SeriesSet::setMainRoot(const QString& root) {
    // The first directory opened (also when series were added before it finished scanning, as
    // `scaleview A B` does) keeps them; another directory starts afresh.
    if (!m_mainRoot.isEmpty() && root != m_mainRoot) clear();
    if (root == m_mainRoot && !m_mainLabel.isEmpty()) return;
    if (root != m_mainRoot) m_mainFrameworks.clear();
    m_mainRoot = root;
    if (!m_mainRenamed) m_mainLabel = directoryLabel(root);
    relabel();
    emit changed();
}

void SeriesSet::add(const QString& root) {
    Entry e;
    e.root = QFileInfo(root).absoluteFilePath();
    e.label = directoryLabel(e.root);
    e.loader = new LoadController(this);
    LoadController* loader = e.loader;
    // Its window before its logs are read, so that each is read once, for it.
    connect(loader, &LoadController::scanned, this, [this, loader](const QString& scannedRoot) {
        const SeriesWindow window = seriesWindow(loader->campaignWindow());
        loader->setMeasure(window.measure);
        for (auto& entry : m_entries)
            if (entry.loader == loader) entry.window = window;
        if (const auto& error = loader->campaignWindow().error)
            emit windowUnreadable(scannedRoot, QString::fromStdString(*error));
    });
    connect(loader, &LoadController::snapshotReady, this, [this, loader](const LogSnapshot& s) {
        for (auto& entry : m_entries)
            if (entry.loader == loader) {
                entry.snapshot = s;
                relabel(); // its frameworks are known now
                emit changed();
            }
    });
    connect(loader, &LoadController::failed, this,
            [this, loader](const QString& failedRoot, const QString& error) {
                for (std::size_t i = 0; i < m_entries.size(); ++i)
                    if (m_entries[i].loader == loader) {
                        remove(static_cast<int>(i) + 1);
                        break;
                    }
                emit failed(failedRoot, error);
            });
    m_entries.push_back(std::move(e));
    relabel();
    loader->open(m_entries.back().root);
    emit changed();
}

void SeriesSet::remove(int index) {
    if (index < 1 || index > static_cast<int>(m_entries.size())) return;
    auto it = m_entries.begin() + (index - 1);
    // Its load, if still going, is dropped with it (the controller cancels on destruction).
    it->loader->deleteLater();
    m_entries.erase(it);
    relabel();
    emit changed();
}

void SeriesSet::rename(int index, const QString& label) {
    const QString trimmed = label.trimmed();
    if (trimmed.isEmpty() || index < 0 || index >= count()) return;
    const QString unique = uniqueLabel(trimmed, index);
    if (index == 0) {
        if (unique == m_mainLabel) return;
        m_mainLabel = unique;
        m_mainRenamed = true;
    } else {
        auto& e = m_entries[static_cast<std::size_t>(index - 1)];
        if (unique == e.label) return;
        e.label = unique;
        e.renamed = true;
    }
    relabel(); // the others may no longer need telling apart
    emit changed();
}

void SeriesSet::clear() {
    const bool had = !m_entries.empty() || m_mainRenamed;
    for (auto& e : m_entries)
        e.loader->deleteLater();
    m_entries.clear();
    m_mainRenamed = false;
    m_mainFrameworks.clear();
    m_mainRoot.clear();
    m_mainLabel.clear();
    if (had) emit changed();
}

QStringList SeriesSet::labels() const {
    QStringList out{m_mainLabel};
    for (const auto& e : m_entries)
        out << e.label;
    return out;
}

QStringList SeriesSet::roots() const {
    QStringList out{m_mainRoot};
    for (const auto& e : m_entries)
        out << e.root;
    return out;
}

std::vector<SeriesInput> SeriesSet::inputs() const {
    std::vector<SeriesInput> out;
    for (const auto& e : m_entries)
        out.push_back(SeriesInput{e.label.toStdString(), e.snapshot, e.window.measure,
                                  e.window.source, e.window.campaignFile});
    return out;
}

bool SeriesSet::isLoading() const {
    for (const auto& e : m_entries)
        if (e.loader->isLoading()) return true;
    return false;
}

} // namespace sv::ui
