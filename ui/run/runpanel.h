#pragma once
// The Run page: set up a campaign (CampaignForm), see the exact commands, Preflight, Run,
// Cancel and Resume, and watch it (RunMonitor). Campaigns save and load as the launcher's JSON;
// reopening one shows its results and offers Resume. The window reads what is new in the
// campaign's log tree when resultsReady says a run has ended, so the usual tabs fill as it goes.

#ifndef Q_MOC_RUN
#include "campaign.h"
#include "preflight.h"
#endif

#include <QWidget>

class QLabel;
class QMenu;
class QPlainTextEdit;
class QPushButton;
class QTimer;

namespace sv::ui {

class CampaignForm;
class RecentCampaigns;
class RunController;
class RunMonitor;

class RunPanel : public QWidget {
    Q_OBJECT
  public:
    // settingsFile: where recent campaigns are remembered (the app's settings file).
    explicit RunPanel(const QString& settingsFile, QWidget* parent = nullptr);
    ~RunPanel() override;

    // Loads a campaign.json (or a campaign directory holding one): its settings, its journal's
    // states, its results; Resume is offered when something is left to run.
    bool openCampaign(const QString& fileOrDir);
    bool saveCampaign(const QString& file);
    void run();
    void resume();
    void cancel();
    void preflight();
    QStringList recentCampaigns() const;

    CampaignForm* form() const { return m_form; }
    RunMonitor* monitor() const { return m_monitor; }
    RunController* controller() const { return m_controller; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* resumeButton() const { return m_resume; }
    QPushButton* preflightButton() const { return m_preflight; }
    QString commandText() const;
    QString bannerText() const;

  signals:
    // The campaign's log tree has new results; measure them with the campaign's own window.
    void resultsReady(const QString& logRoot, int warmup, int iterations);
    // The user opened a campaign that has results: show them, measured as it was run.
    void campaignOpened(const QString& logRoot, int warmup, int iterations);
    void campaignFinished(bool cancelled, int ok, int total);
    // The log the current run is writing; empty when no run is going.
    void logInProgress(const QString& path);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showEvent(QShowEvent* event) override;

  private:
    void start(bool resume);
    void showBanner(const QString& text, bool problem);
    void updateCommand();
    void updateButtons();
    void showPreflight(const std::vector<launcher::PreflightFinding>& findings);
    void rebuildRecentMenu();
    void chooseOpen();
    void chooseSave();

    QString m_settingsFile;
    CampaignForm* m_form;
    RunMonitor* m_monitor;
    RunController* m_controller;
    RecentCampaigns* m_recent;
    QLabel* m_banner;
    QPlainTextEdit* m_command;
    QLabel* m_commandCaption;
    QPushButton* m_preflight;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QPushButton* m_resume;
    QMenu* m_recentMenu;
    QTimer* m_commandTimer;
    bool m_canResume = false;
    bool m_closeWhenDone = false;
    bool m_filterInstalled = false;
};

} // namespace sv::ui
