#pragma once
// The directories of a comparison: the open one (series A) and those added to it (File › Add to
// Comparison…, a Ctrl-drop, `scaleview A B …`), each a named series loaded in the background by
// its own LoadController, renamed or removed by the user. The views get them through the
// Analysis, which measures every series by the open directory's method; each added directory
// over its own window (its campaign.json's, else DLPerf's: core's seriesWindow, as
// `scaleview-cli compare` does), read for that window as it loads.

#ifndef Q_MOC_RUN
#include "ui/analysis/analysis.h"
#include "core/load/campaignwindow.h"
#endif

#include <QObject>
#include <QStringList>

#include <string>
#include <vector>

namespace sv::ui {

class LoadController;

class SeriesSet : public QObject {
    Q_OBJECT
  public:
    explicit SeriesSet(QObject* parent = nullptr);

    // The open directory (series A). Another directory than before ends the comparison: the
    // added series belonged to what was open.
    void setMainRoot(const QString& root);
    // Starts loading root as a new series, named after its directory (unique among the names).
    void add(const QString& root);
    // Index 0 is the open directory (it cannot be removed), 1… the added ones.
    void remove(int index);
    void rename(int index, const QString& label);
    void clear();

    int count() const { return static_cast<int>(m_entries.size()) + 1; }
    QStringList labels() const;
    QStringList roots() const;
    std::string mainLabel() const { return m_mainLabel.toStdString(); }
    // The added series as loaded so far, for AnalysisController::setSeries.
    std::vector<SeriesInput> inputs() const;
    bool isLoading() const;

    // The directory's own name ("campaign-2026-11"), as `scaleview-cli compare` names a series.
    static QString directoryLabel(const QString& root);
    // The open directory's frameworks (its logs' formats' ids), once read: series that share a
    // directory name are named after their frameworks where these differ (distinguishingLabels).
    void setMainFormats(const std::vector<std::string>& formats);

  signals:
    void changed();
    // An added directory could not be read: it is dropped, and this says why.
    void failed(const QString& root, const QString& error);
    // An added directory's campaign.json could not be read (error names the file and why): it
    // is measured over DLPerf's window instead, as `compare` does after its warning.
    void windowUnreadable(const QString& root, const QString& error);

  private:
    struct Entry {
        QString root;
        QString label;
        bool renamed = false; // by the user: kept as given
        LoadController* loader = nullptr;
        LogSnapshot snapshot;
        SeriesWindow window; // known once scanned (its campaign.json is read by the scan)
    };
    QString uniqueLabel(const QString& wanted, int skip) const;
    // The labels not given by the user, after what tells their directories apart; true when one
    // changed.
    bool relabel();

    QString m_mainRoot;
    QString m_mainLabel;
    bool m_mainRenamed = false;
    std::vector<std::string> m_mainFrameworks;
    std::vector<Entry> m_entries;
};

} // namespace sv::ui
