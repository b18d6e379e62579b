#include "ui/settings/appsettings.h"

#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include "core/load/runloader.h"

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

// Every write marks the file for Qt to rewrite, and Qt rewrites it on the GUI thread with a
// lock file, a temporary copy and an fdatasync: what is unchanged is not written (the window
// stores its options each time it shows an analysis, which a load does many times over).
void AppSettings::put(const QString& key, const QVariant& value) {
    if (m_settings->contains(key)) {
        const QVariant now = m_settings->value(key);
        // As the file gives it back: a list of one as a string, a bool or number as its text.
        const bool same =
            value.metaType() == QMetaType::fromType<QStringList>()
                ? now.toStringList() == value.toStringList()
            : value.metaType() == QMetaType::fromType<QByteArray>()
                ? now.toByteArray() == value.toByteArray()
                : now.toString() == value.toString() && now.isValid() == value.isValid();
        if (same) return;
    }
    m_settings->setValue(key, value);
}

void AppSettings::drop(const QString& key) {
    if (m_settings->contains(key)) m_settings->remove(key);
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
    put(key, r);
}

QStringList AppSettings::recent() const {
    return recentList(QStringLiteral("recent"), kRecentMax);
}

void AppSettings::addRecent(const QString& directory) {
    addToRecentList(QStringLiteral("recent"), directory, kRecentMax);
    put(QStringLiteral("lastDirectory"), directory);
}

void AppSettings::removeRecent(const QString& directory) {
    QStringList r = recent();
    r.removeAll(directory);
    put(QStringLiteral("recent"), r);
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
    put(QStringLiteral("window/geometry"), geometry);
    put(QStringLiteral("window/state"), state);
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
    put(QStringLiteral("analysis/method"),
        o.method == Method::Speed ? QStringLiteral("speed") : QStringLiteral("time"));
    // A window saved by an older version would follow every directory: gone.
    drop(QStringLiteral("analysis/warmup"));
    drop(QStringLiteral("analysis/iterations"));
    QStringList refs;
    for (const auto& r : o.references)
        refs << QString::fromStdString(r);
    put(QStringLiteral("analysis/references"),
        o.autoReferences ? QVariant(QStringLiteral("auto")) : QVariant(refs));
    if (o.group)
        put(QStringLiteral("analysis/group"),
            QStringList{
                QString::fromStdString(o.group->model), QString::fromStdString(o.group->precision),
                QString::number(o.group->batchPerDevice), QString::fromStdString(o.group->format)});
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
    put(kWindows, kept);
}

int AppSettings::page() const {
    return integer("window/page", 0, 0, 4); // Results ... Run (MainWindow::Page)
}
void AppSettings::setPage(int page) {
    put(QStringLiteral("window/page"), page);
}
bool AppSettings::efficiency() const {
    return m_settings->value(QStringLiteral("charts/efficiency")).toBool();
}
void AppSettings::setEfficiency(bool on) {
    put(QStringLiteral("charts/efficiency"), on);
}
bool AppSettings::live() const {
    return m_settings->value(QStringLiteral("live"), true).toBool();
}
void AppSettings::setLive(bool on) {
    put(QStringLiteral("live"), on);
}
bool AppSettings::reopenLast() const {
    return m_settings->value(QStringLiteral("reopenLast"), true).toBool();
}
void AppSettings::setReopenLast(bool on) {
    put(QStringLiteral("reopenLast"), on);
}
QString AppSettings::historyDatabase() const {
    return m_settings->value(QStringLiteral("history/database")).toString();
}
void AppSettings::setHistoryDatabase(const QString& location) {
    if (location.isEmpty())
        drop(QStringLiteral("history/database"));
    else
        put(QStringLiteral("history/database"), location);
}
QString AppSettings::lastExportDirectory() const {
    return m_settings->value(QStringLiteral("lastExportDirectory")).toString();
}
void AppSettings::setLastExportDirectory(const QString& directory) {
    put(QStringLiteral("lastExportDirectory"), directory);
}
bool AppSettings::livePolling() const {
    return m_settings->value(QStringLiteral("livePoll"), false).toBool();
}
void AppSettings::setLivePolling(bool on) {
    put(QStringLiteral("livePoll"), on);
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
    put(QStringLiteral("export/width"), size.width());
    put(QStringLiteral("export/height"), size.height());
    put(QStringLiteral("export/scale"), scale);
}

void AppSettings::sync() {
    m_settings->sync();
}

} // namespace sv::ui
