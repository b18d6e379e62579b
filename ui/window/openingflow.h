#pragma once
// The opening flow: a directory opened, added to the comparison, dropped or read again goes
// through the loader to the analysis, measured over its own window; what shows meanwhile stays
// until the new directory turns out to hold logs, and what did not open is said on the banner.
// A campaign's run that ends brings its results into view without replacing what the user
// opened since.

#include <QObject>
#include <QString>

class QLabel;
class QMainWindow;

namespace sv::ui {

class AnalysisController;
class AppSettings;
class ControlPanel;
class LiveController;
class LoadController;
class LoadStatus;
class MeasureWindowFlow;
class PageBanner;
class PageStack;
class SeriesSet;

class OpeningFlow : public QObject {
    Q_OBJECT
  public:
    // The controllers it drives, and what it says where.
    struct Parts {
        LoadController* loader;
        AnalysisController* analysis;
        LiveController* live;
        SeriesSet* series;
        ControlPanel* controls;
        MeasureWindowFlow* windows;
        PageStack* pages;
        PageBanner* banner; // what did not open, or could not be added
        LoadStatus* loadStatus;
        QLabel* status;
    };

    OpeningFlow(QMainWindow* window, AppSettings* settings, Parts parts);

    void openDirectory(const QString& directory);
    // A folder that is not the user's to reopen (a bundle's private folder, gone once closed):
    // opened like any other, but never put on the recent list.
    void openPrivateFolder(const QString& directory);
    // Another series in the comparison (the first directory opened when none is).
    void addToComparison(const QString& directory);
    // A drop: the folder (a DLPerf log: its folder; any other file: itself), or with Ctrl the
    // comparison.
    void openDropped(const QString& path, Qt::KeyboardModifiers modifiers);
    // The directory shown, read again (F5).
    void reload();
    // The folder a Teach file chooser starts in: the one open, or the one that opened with
    // nothing read but a file to teach from.
    QString teachFolder() const;
    void chooseDirectory();
    void chooseComparisonDirectory();
    // The directory to open at start: the last one, unless the user turned that off or it is
    // gone; empty for the start page.
    QString directoryToReopen() const;

    // A campaign started: a run end opens its directory only while the user opens none.
    void campaignStarted();
    // A run of a campaign ended: update the open view, never replace what the user opened.
    void showRunResults(const QString& logRoot, int warmup, int iterations);
    // The user opened a campaign: its directory, measured as it was run.
    void showCampaignResults(const QString& logRoot, int warmup, int iterations);

  signals:
    // A load ended (cancelled or not): the recent directories may have changed.
    void loadEnded();

  private:
    void connectLoader();
    void connectSeries();
    // root's logs have been found: the view becomes root's.
    void switchTo(const QString& root);
    void finishLoad(const QString& root, bool cancelled);
    void showOpenFailure(const QString& root, const QString& error);
    void showAddFailure(const QString& root, const QString& error);

    QMainWindow* m_window;
    AppSettings* m_settings;
    Parts m_p;
    QString m_private;         // openPrivateFolder's, kept out of the recent list
    bool m_bannerAdds = false; // the banner says an added directory failed, not an open
    // A folder that opened with no log read, but with a file of rate lines nothing read: the
    // banner's Teach ScaleView this log… opens that file at its candidate line, and Reload (after
    // a format is saved) reads the folder again.
    QString m_teachLog, m_retryRoot;
    int m_teachLine = 0, m_teachFiles = 0;
    // How run ends reach the view: the open directory when the campaign started, and a run end
    // during a load.
    quint64 m_generationAtCampaignStart = 0;
    bool m_runEndedWhileLoading = false;
};

} // namespace sv::ui
