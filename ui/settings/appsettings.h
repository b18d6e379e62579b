#pragma once
// What the app remembers between sessions (last directory, recent list, window geometry, the
// user's selections), read defensively: a broken or hostile settings file gives defaults, is
// set aside as "<file>.broken", and never stops the app.

#include "ui/analysis/analysisoptions.h"

#include <QByteArray>
#include <QSettings>
#include <QSize>
#include <QStringList>

#include <memory>
#include <optional>

namespace sv::ui {

class AppSettings {
  public:
    // The user's settings file; or an explicit INI file (tests, --settings).
    AppSettings();
    explicit AppSettings(const QString& iniFile);

    bool wasBroken() const { return m_broken; }
    QString fileName() const { return m_settings->fileName(); }

    QString lastDirectory() const;
    QStringList recent() const;
    void addRecent(const QString& directory); // also the last directory
    void removeRecent(const QString& directory);
    // Campaigns run or opened (their directories, or campaign files saved elsewhere), newest
    // first; only those still on disk.
    QStringList recentCampaigns() const;
    void addRecentCampaign(const QString& directoryOrFile);

    QByteArray geometry() const;
    QByteArray windowState() const;
    void setWindow(const QByteArray& geometry, const QByteArray& state);

    // Method, group and references; the measured window is DLPerf's here, since it belongs to
    // a directory (windowFor), never to the app.
    AnalysisOptions analysisOptions() const;
    void setAnalysisOptions(const AnalysisOptions& options);
    // The references checked when the settings were saved, every id as saved (analysisOptions
    // keeps the built-in ones only: the user's tables are read later); nullopt for "auto".
    std::optional<QStringList> checkedReferences() const;
    // The window the user chose for a directory, if any; nullopt forgets it.
    std::optional<MeasureOptions> windowFor(const QString& directory) const;
    void setWindowFor(const QString& directory, const std::optional<MeasureOptions>& window);
    int page() const;
    void setPage(int page);
    bool efficiency() const;
    void setEfficiency(bool on);
    bool live() const;
    void setLive(bool on);
    // Poll the open directory even where inotify should see its changes (network mounts always).
    bool livePolling() const;
    void setLivePolling(bool on);
    // Open the last directory again when the app starts without one.
    bool reopenLast() const;
    void setReopenLast(bool on);
    // The history database the user chose (a SQLite path or a postgresql:// URI without a
    // password; ui/history/historylocationdialog.h checks it before it is saved); "" for the
    // default. SCALEVIEW_HISTORY_DB, when set, wins over it.
    QString historyDatabase() const;
    void setHistoryDatabase(const QString& location);
    // Where the last export went: the next one is suggested there.
    QString lastExportDirectory() const;
    void setLastExportDirectory(const QString& directory);
    QSize exportSize() const;
    double exportScale() const;
    void setExport(QSize size, double scale);

    void sync();

  private:
    void put(const QString& key, const QVariant& value); // written only when it changes
    void drop(const QString& key);
    void open(const QString& iniFile);
    int integer(const char* key, int fallback, int min, int max) const;
    // One mechanism for every recent list: newest first, no duplicates, at most `max`.
    QStringList recentList(const QString& key, int max) const;
    void addToRecentList(const QString& key, const QString& entry, int max);

    std::unique_ptr<QSettings> m_settings;
    bool m_broken = false;
};

} // namespace sv::ui
