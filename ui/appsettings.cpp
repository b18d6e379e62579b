#include "appsettings.h"

#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include "runloader.h"

namespace sv::ui {

namespace {
constexpr int kRecentMax = 8;
constexpr int kRecentCampaignsMax = 10;
const QString kRecentCampaigns = QStringLiteral("run/recentCampaigns");
// "WARMUP ITERATIONS DIRECTORY" per entry, newest first: a list, since a directory's slashes
// would be QSettings groups as a key.
const QString kWindows = QStringLiteral("analysis/windows");
constexpr char kFormatDefaults[] = "dlperf"; // a window entry's: each format's defaults
constexpr int kWindowsMax = 200;
} // namespace

AppSettings::AppSettings() {
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation);
    open(dir + QStringLiteral("/scaleview.ini"));
}

AppSettings::AppSettings(const QString& iniFile) {
    open(iniFile);
}

void AppSettings::open(const QString& iniFile) {
    m_settings = std::make_unique<QSettings>(iniFile, QSettings::IniFormat);
    if (m_settings->status() == QSettings::NoError) return;
    // Unreadable or malformed: keep the file for the curious, and start from defaults.
    m_broken = true;
    m_settings.reset();
    QFile::remove(iniFile + QStringLiteral(".broken"));
    QFile::rename(iniFile, iniFile + QStringLiteral(".broken"));
    m_settings = std::make_unique<QSettings>(iniFile, QSettings::IniFormat);
}

int AppSettings::integer(const char* key, int fallback, int min, int max) const {
    bool ok = false;
    const int v = m_settings->value(QLatin1String(key)).toInt(&ok);
    return ok && v >= min && v <= max ? v : fallback;
}

QString AppSettings::lastDirectory() const {
    return m_settings->value(QStringLiteral("lastDirectory")).toString();
}

QStringList AppSettings::recentList(const QString& key, int max) const {
    QStringList out;
    for (const auto& v : m_settings->value(key).toStringList())
        if (!v.isEmpty() && !out.contains(v) && out.size() < max) out << v;
    return out;
}

void AppSettings::addToRecentList(const QString& key, const QString& entry, int max) {
    QStringList r = recentList(key, max);
    r.removeAll(entry);
    r.prepend(entry);
    while (r.size() > max)
        r.removeLast();
    m_settings->setValue(key, r);
}

QStringList AppSettings::recent() const {
    return recentList(QStringLiteral("recent"), kRecentMax);
}

void AppSettings::addRecent(const QString& directory) {
    addToRecentList(QStringLiteral("recent"), directory, kRecentMax);
    m_settings->setValue(QStringLiteral("lastDirectory"), directory);
}

void AppSettings::removeRecent(const QString& directory) {
    QStringList r = recent();
    r.removeAll(directory);
    m_settings->setValue(QStringLiteral("recent"), r);
}

QStringList AppSettings::recentCampaigns() const {
    QStringList out;
    // Written by us, but the file is the user's: what is no longer on disk is left out.
    for (const QString& f : recentList(kRecentCampaigns, kRecentCampaignsMax))
        if (QFileInfo::exists(f)) out << f;
    return out;
}

void AppSettings::addRecentCampaign(const QString& directoryOrFile) {
    addToRecentList(kRecentCampaigns, QFileInfo(directoryOrFile).absoluteFilePath(),
                    kRecentCampaignsMax);
}

QByteArray AppSettings::geometry() const {
    return m_settings->value(QStringLiteral("window/geometry")).toByteArray();
}
QByteArray AppSettings::windowState() const {
    return m_settings->value(QStringLiteral("window/state")).toByteArray();
}

void AppSettings::setWindow(const QByteArray& geometry, const QByteArray& state) {
    m_settings->setValue(QStringLiteral("window/geometry"), geometry);
    m_settings->setValue(QStringLiteral("window/state"), state);
}

AnalysisOptions AppSettings::analysisOptions() const {
    AnalysisOptions o;
    o.method =
        m_settings->value(QStringLiteral("analysis/method")).toString() == QLatin1String("speed")
            ? Method::Speed
            : Method::Time;
    const QVariant refs = m_settings->value(QStringLiteral("analysis/references"));
    if (refs.isValid() && refs.toString() != QLatin1String("auto")) {
        o.autoReferences = false;
        // The built-in tables only: the user's own are read later (checkedReferences).
        for (const auto& r : refs.toStringList())
            if (ReferenceCatalog::builtin().knows(r.toStdString()))
                o.references.push_back(r.toStdString());
    }
    const QStringList g = m_settings->value(QStringLiteral("analysis/group")).toStringList();
    bool ok = false;
    // A fourth field names one framework of a tree holding several.
    if ((g.size() == 3 || g.size() == 4) && g[2].toInt(&ok) > 0 && ok)
        o.group = CaseGroup{g[0].toStdString(), g[1].toStdString(), g[2].toInt(),
                            g.value(3).toStdString()};
    return o;
}

std::optional<QStringList> AppSettings::checkedReferences() const {
    const QVariant refs = m_settings->value(QStringLiteral("analysis/references"));
    if (!refs.isValid() || refs.toString() == QLatin1String("auto")) return std::nullopt;
    QStringList out;
    for (const QString& r : refs.toStringList())
        if (!r.isEmpty() && r.size() <= 400) out << r; // an id, not a hostile blob
    return out;
}

void AppSettings::setAnalysisOptions(const AnalysisOptions& o) {
    m_settings->setValue(QStringLiteral("analysis/method"), o.method == Method::Speed
                                                                ? QStringLiteral("speed")
                                                                : QStringLiteral("time"));
    // A window saved by an older version would follow every directory: gone.
    m_settings->remove(QStringLiteral("analysis/warmup"));
    m_settings->remove(QStringLiteral("analysis/iterations"));
    QStringList refs;
    for (const auto& r : o.references)
        refs << QString::fromStdString(r);
    m_settings->setValue(QStringLiteral("analysis/references"),
                         o.autoReferences ? QVariant(QStringLiteral("auto")) : QVariant(refs));
    if (o.group)
        m_settings->setValue(QStringLiteral("analysis/group"),
                             QStringList{QString::fromStdString(o.group->model),
                                         QString::fromStdString(o.group->precision),
                                         QString::number(o.group->batchPerDevice),
                                         QString::fromStdString(o.group->format)});
}

std::optional<MeasureOptions> AppSettings::windowFor(const QString& directory) const {
    for (const QString& entry : m_settings->value(kWindows).toStringList()) {
        const QStringList parts = entry.split(QLatin1Char(' '));
        if (parts.size() < 3) continue;
        const QString dir = entry.section(QLatin1Char(' '), 2);
        if (dir != directory) continue;
        // "dlperf -": each format's DLPerf defaults, chosen over the directory's campaign's.
        if (parts[0] == QLatin1String(kFormatDefaults)) {
            MeasureOptions m;
            m.formatDefaults = true;
            return m;
        }
        bool okW = false, okI = false;
        const MeasureOptions m{parts[0].toInt(&okW), parts[1].toInt(&okI)};
        // The file is the user's: a value out of range is as if never chosen.
        if (!okW || !okI || validateMeasureOptions(m)) return std::nullopt;
        return m;
    }
    return std::nullopt;
}

void AppSettings::setWindowFor(const QString& directory,
                               const std::optional<MeasureOptions>& window) {
    QStringList kept;
    for (const QString& entry : m_settings->value(kWindows).toStringList())
        if (entry.section(QLatin1Char(' '), 2) != directory) kept << entry;
    if (window && window->formatDefaults)
        kept.prepend(QStringLiteral("%1 - %2").arg(QLatin1String(kFormatDefaults), directory));
    else if (window)
        kept.prepend(
            QStringLiteral("%1 %2 %3").arg(window->warmup).arg(window->iterations).arg(directory));
    while (kept.size() > kWindowsMax)
        kept.removeLast();
    m_settings->setValue(kWindows, kept);
}

int AppSettings::page() const {
    return integer("window/page", 0, 0, 4); // Results ... Run (MainWindow::Page)
}
void AppSettings::setPage(int page) {
    m_settings->setValue(QStringLiteral("window/page"), page);
}
bool AppSettings::efficiency() const {
    return m_settings->value(QStringLiteral("charts/efficiency")).toBool();
}
void AppSettings::setEfficiency(bool on) {
    m_settings->setValue(QStringLiteral("charts/efficiency"), on);
}
bool AppSettings::live() const {
    return m_settings->value(QStringLiteral("live"), true).toBool();
}
void AppSettings::setLive(bool on) {
    m_settings->setValue(QStringLiteral("live"), on);
}
bool AppSettings::reopenLast() const {
    return m_settings->value(QStringLiteral("reopenLast"), true).toBool();
}
void AppSettings::setReopenLast(bool on) {
    m_settings->setValue(QStringLiteral("reopenLast"), on);
}
QString AppSettings::lastExportDirectory() const {
    return m_settings->value(QStringLiteral("lastExportDirectory")).toString();
}
void AppSettings::setLastExportDirectory(const QString& directory) {
    m_settings->setValue(QStringLiteral("lastExportDirectory"), directory);
}
bool AppSettings::livePolling() const {
    return m_settings->value(QStringLiteral("livePoll"), false).toBool();
}
void AppSettings::setLivePolling(bool on) {
    m_settings->setValue(QStringLiteral("livePoll"), on);
}

QSize AppSettings::exportSize() const {
    return QSize(integer("export/width", 1200, 100, 10000),
                 integer("export/height", 800, 100, 10000));
}

double AppSettings::exportScale() const {
    bool ok = false;
    const double s = m_settings->value(QStringLiteral("export/scale")).toDouble(&ok);
    return ok && s >= 0.5 && s <= 4 ? s : 2.0;
}

void AppSettings::setExport(QSize size, double scale) {
    m_settings->setValue(QStringLiteral("export/width"), size.width());
    m_settings->setValue(QStringLiteral("export/height"), size.height());
    m_settings->setValue(QStringLiteral("export/scale"), scale);
}

void AppSettings::sync() {
    m_settings->sync();
}

} // namespace sv::ui
