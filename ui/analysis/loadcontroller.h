#pragma once
// Opens a log directory off the GUI thread: scan, then read every log in parallel
// (QtConcurrent::mapped), reporting progress with an ETA and partial snapshots so the first
// figures appear while the rest loads. Opening another directory drops the stale load: every
// callback checks the generation it was started for. The directory shown stays the open one
// (root(), snapshot()) until the new one has been scanned: a failed open changes nothing.

// moc trips over the C++20 standard headers behind the core types; it needs only their names.
#ifndef Q_MOC_RUN
#include "core/load/campaignwindow.h"
#include "ui/analysis/logsnapshot.h"
#endif

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QObject>
#include <QTimer>

namespace sv::ui {

class LoadController : public QObject {
    Q_OBJECT
  public:
    explicit LoadController(QObject* parent = nullptr);
    ~LoadController() override;

    void open(const QString& root);
    void cancel();
    bool isLoading() const { return m_loading; }
    // The directory open: the last one scanned successfully.
    const QString& root() const { return m_root; }
    // What the scan found about the window root's logs were written for (its campaign.json).
    const CampaignWindowLookup& campaignWindow() const { return m_campaignWindow; }
    quint64 generation() const { return m_generation; }
    // The snapshot as loaded so far (or finished).
    LogSnapshot snapshot() const;
    // How often partial snapshots are published while loading.
    void setPartialInterval(int ms) { m_partialTimer.setInterval(ms); }
    // The window logs are measured for as they are read: the one the directory will be shown
    // with (set it at the latest from a slot of scanned()), so no log is read twice.
    void setMeasure(const MeasureOptions& measure) { m_measure = measure; }

  signals:
    void started(const QString& root); // scanning root; what is open stays until scanned()
    void scanned(const QString& root); // root is now the directory open; its logs load next
    void progress(int done, int total, double etaSeconds);   // etaSeconds < 0: not known yet
    void snapshotReady(const sv::ui::LogSnapshot& snapshot); // partial while loading, then complete
    void finished(const QString& root, bool cancelled);
    void failed(const QString& root, const QString& error);
    // Before failed(), for a folder with no log read: a file with rate lines nothing read, the
    // one to teach ScaleView from, its best candidate line, and how many such files.
    void teachable(const QString& log, int line, int files);

  private:
    struct Scan {
        ScanResult logs;
        CampaignWindowLookup campaignWindow;
    };
    void onScanned(quint64 generation, Scan scan);
    void onRead(quint64 generation, int begin, int end);
    void onReadFinished(quint64 generation);
    void dropCurrent();

    QString m_root;
    QString m_opening; // being scanned; becomes m_root once it has logs
    CampaignWindowLookup m_campaignWindow;
    quint64 m_generation = 0;
    bool m_loading = false;
    bool m_cancelled = false;
    std::vector<Warning> m_scanWarnings;
    std::vector<RunLogPtr> m_slots; // by scan index; null until read
    MeasureOptions m_measure;       // for the next load
    MeasureOptions m_readMeasure;   // the logs in m_slots were read for
    std::size_t m_read = 0;
    bool m_scanning = false; // the scan (async::runInBackground) of m_opening is under way
    // A QFutureWatcher here, not async::runInBackground as elsewhere: the logs are read by
    // QtConcurrent::mapped, whose results arrive one by one (progress, partial snapshots) and
    // whose future is cancelled when another directory opens.
    QFutureWatcher<RunLogPtr>* m_readWatcher = nullptr;
    QElapsedTimer m_clock;
    QTimer m_partialTimer;
    bool m_partialDirty = false;
};

} // namespace sv::ui
