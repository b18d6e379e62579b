#pragma once
// The Run page: set up a campaign (CampaignForm), see the exact commands, Preflight, Run,
// Cancel and Resume, and watch it (RunProgressView). Campaigns save and load as the launcher's JSON;
// a campaign is its directory (launcher::CampaignDirectory): reopening one shows its plan and
// results, and Resume runs that directory's campaign.json, never the form's edits. The window
// reads what is new in the campaign's log tree when resultsReady says a run has ended.

#ifndef Q_MOC_RUN
#include "launcher/campaign/campaign.h"
#include "launcher/campaign/campaigndirectory.h"
#include "launcher/campaign/campaignscaling.h"
#include "launcher/session/preflight.h"
#endif

#include <QWidget>

#include <functional>

class QHBoxLayout;
class QLabel;
class QMenu;
class QPlainTextEdit;
class QPushButton;
class QTimer;

namespace sv::ui {

class AppSettings;
class CampaignForm;
class RunController;
class RunProgressView;

class RunPanel : public QWidget {
    Q_OBJECT
  public:
    // settings: where recent campaigns are remembered (the window's settings).
    explicit RunPanel(AppSettings* settings, QWidget* parent = nullptr);
    ~RunPanel() override;

    // Opens a campaign directory (or its campaign.json, or a campaign file saved elsewhere):
    // its settings and plan as saved (what cannot run here stays, with a banner saying why),
    // its journal's states, its results; Resume is offered when something is left to run.
    // Read on a worker thread (a journal may be long, a disk slow or hung): meanwhile the form
    // is disabled and the banner says "Reading campaign…"; campaignRead says how it went.
    void openCampaign(const QString& fileOrDir);
    // A campaign directory is being read (open, Resume, Revert): the form waits for it.
    bool isReading() const { return m_reading; }
    // Writes the form's campaign to file in the background; campaignSaved says how it went.
    bool saveCampaign(const QString& file);
    void run();
    // Runs what the opened directory's journal has not finished, with its campaign.json. When
    // the form differs from that file, says what differs and offers Run as a new campaign or
    // Revert the form instead.
    void resume();
    void runAsNewCampaign();
    void revertForm();
    void cancel();
    void preflight();
    QStringList recentCampaigns() const;
    // The window asks before closing: true when no campaign runs. Otherwise it calls
    // cancelBeforeClosing and closes on campaignFinished.
    bool mayClose() const;
    void cancelBeforeClosing();

    CampaignForm* form() const { return m_form; }
    RunProgressView* monitor() const { return m_monitor; }
    RunController* controller() const { return m_controller; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* resumeButton() const { return m_resume; }
    QPushButton* preflightButton() const { return m_preflight; }
    QPushButton* runAsNewButton() const { return m_runAsNew; }
    QPushButton* revertButton() const { return m_revert; }
    QString commandText() const;
    QString bannerText() const;
    bool bannerIsProblem() const { return m_bannerIsProblem; } // shown in red
    // Tests only: runs on the worker thread before a finished campaign's directory is read
    // again, so a test can hold that read back. Empty (the default) in the app.
    static void setFinishedReadHookForTest(std::function<void()> hook);

  signals:
    // The campaign's log tree has new results; measure them with the campaign's own window.
    void resultsReady(const QString& logRoot, int warmup, int iterations);
    // The user opened a campaign that has results: show them, measured as it was run.
    void campaignOpened(const QString& logRoot, int warmup, int iterations);
    // openCampaign's read has ended: ok when the campaign is now in the form.
    void campaignRead(const QString& fileOrDir, bool ok);
    void campaignFinished(bool cancelled, int ok, int total);
    // A Save has ended: error is empty when the file is written.
    void campaignSaved(const QString& file, const QString& error);
    // The log the current run is writing; empty when no run is going.
    void logInProgress(const QString& path);

  private:
    // The constructor's steps: the buttons said in words, the row of buttons (New, Open, Save
    // and Recent wired), the command preview and banner, the panel's layout, and what the
    // buttons and the controller set off.
    void describeButtons();
    QHBoxLayout* buildButtonRow();
    void setUpCommandArea();
    void layOut(QHBoxLayout* buttons);
    void connectButtons();
    void connectController();
    bool start(const launcher::Campaign& campaign, bool resume);
    // Reads fileOrDir as a campaign directory on a worker thread, the form disabled and the
    // banner saying so meanwhile; then(opened) on the GUI thread, unless the panel has moved
    // on since (another campaign opened, a run started, New).
    void readCampaign(const std::string& fileOrDir,
                      std::function<void(const launcher::CampaignDirectory&)> then);
    void showOpened(const QString& fileOrDir, const launcher::CampaignDirectory& opened);
    void resumeWith(const launcher::CampaignDirectory& opened);
    // The opened campaign in words: where it stands, whether it moved, what cannot run here.
    void describeOpened(const launcher::CampaignDirectory& opened);
    // failure: why the campaign itself failed (its directory could not be written); empty else.
    void onFinished(bool cancelled, int ok, int total, const QString& failure);
    // Once the finished campaign's directory is read again: where it stands, Resume or not.
    void showFinished(const launcher::CampaignDirectory& opened, bool cancelled, int ok, int total);
    // The campaign's worst scaling efficiency in a sentence (the finished and reopened
    // headlines); empty with no case of several ranks beside a one-rank case.
    static QString scalingSentence(const std::optional<launcher::WorstScaling>& worst);
    void showBanner(const QString& text, bool problem);
    void updateCommand();
    void updateButtons();
    void showPreflight(const std::vector<launcher::PreflightFinding>& findings);
    void rebuildRecentMenu();
    void chooseOpen();
    void chooseSave();

    AppSettings* m_settings;
    CampaignForm* m_form;
    RunProgressView* m_monitor;
    RunController* m_controller;
    QLabel* m_banner;
    bool m_bannerIsProblem = false;
    QWidget* m_choice; // Run as a new campaign / Revert the form, under the banner
    QPushButton* m_runAsNew;
    QPushButton* m_revert;
    QPlainTextEdit* m_command;
    QLabel* m_commandCaption;
    QPushButton* m_preflight;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QPushButton* m_resume;
    QMenu* m_recentMenu;
    QTimer* m_commandTimer;
    // The campaign directory the form came from (opened, or the last one run): what Resume runs.
    std::optional<launcher::CampaignDirectory> m_opened;
    launcher::Campaign m_running; // of the campaign running now
    bool m_canResume = false;
    bool m_reading = false; // a readCampaign of the current generation is under way
    // Bumped whenever the panel moves on (open, run, resume, New): a finished campaign's
    // directory read that returns after that describes the past and is dropped.
    quint64 m_generation = 0;
    // The profile the command view was drawn with, loaded once per choice of profile rather
    // than read from disk at every edit.
    std::optional<std::string> m_profileName;
    std::optional<launcher::WorkloadProfile> m_profile;
    std::string m_profileError;
};

} // namespace sv::ui
