#pragma once
// Which window measures the directory shown, as the user sees it: the directory's own (its
// campaign's, or what the user chose for it, ui/settings/directorywindow.h) applied to the
// analysis and named in the controls; on the window banner, why a campaign's window is not used
// and, when every log stops short of the window, an offer of their length.

#include "ui/analysis/analysis.h"
#include "ui/settings/directorywindow.h"

#include <QObject>

namespace sv::ui {

class AnalysisController;
class ControlPanel;
class LoadController;
class PageBanner;

class MeasureWindowFlow : public QObject {
    Q_OBJECT
  public:
    MeasureWindowFlow(AppSettings* settings, LoadController* loader, AnalysisController* analysis,
                      ControlPanel* controls, PageBanner* banner, QObject* parent);

    // root's logs have been found: measured over root's window, and read for it.
    void choose(const QString& root);
    // What the user set in the controls: a window they edit becomes the directory's.
    void edit(AnalysisOptions options);
    // A complete analysis is shown: offers the logs' own length when none reaches the window.
    void offerFor(const AnalysisPtr& analysis);
    // A campaign started: a window the user edits from now on wins over the campaign's.
    void campaignStarted() { m_editedSinceCampaignStart = false; }
    // A campaign's run ended in a directory about to open: its window is the campaign's, unless
    // the user chose another since the campaign started.
    void setNextForRunEnd(const MeasureOptions& campaign);
    // The next directory opened is the campaign's, measured as it was run.
    void setNextForCampaign(const MeasureOptions& campaign);
    // The open directory's campaign was opened: its window, the user's forgotten.
    void useCampaign(const MeasureOptions& campaign);
    // The open failed: the window meant for it is not kept for the next.
    void dropNext() { m_window.dropNext(); }

  private:
    void apply(const WindowChoice& choice);
    void remember(const MeasureOptions& measure);

    LoadController* m_loader;
    AnalysisController* m_analysis;
    ControlPanel* m_controls;
    PageBanner* m_banner;
    DirectoryWindow m_window;
    QString m_note;      // why the directory's campaign window is not used, if it is not
    QString m_lastOffer; // the window offered last (directory, window, N)
    bool m_editedSinceCampaignStart = false;
};

} // namespace sv::ui
