#pragma once
// The Run tab's side of the launcher's campaign session: it starts one for the window (run,
// resume), cancels it, runs preflight, and says what the session reports in plain words (notes
// and problems), the current run's log for the console, and when a run's results are on disk
// (resultsChanged) for whoever shows them. Nothing here waits; the order of the steps, and
// when a campaign belongs in the history, are the session's.

// moc trips over the C++20 standard headers behind the launcher types; it needs only names.
#ifndef Q_MOC_RUN
#include "launcher/campaign/campaign.h"
#include "launcher/campaign/journal.h"
#include "launcher/campaign/plannedrun.h"
#include "launcher/campaign/runprogress.h"
#include "launcher/session/campaignsession.h"
#include "launcher/session/preflight.h"
#endif

#include <QObject>

#include <chrono>
#include <functional>
#include <vector>

namespace sv::ui {

class ConsoleFeed;

class RunController : public QObject {
    Q_OBJECT
  public:
    explicit RunController(QObject* parent = nullptr);
    ~RunController() override;

    // False with the reason when it cannot start (invalid campaign, directory already used...).
    bool start(const launcher::Campaign& campaign, bool resume, QString* error);
    void cancel();
    void preflight(const launcher::Campaign& campaign);
    bool isRunning() const { return m_session != nullptr; }
    bool isCancelling() const { return m_session && m_session->isCancelling(); }
    // The running campaign's plan (empty when none runs).
    const std::vector<launcher::PlannedRun>& runs() const;
    // Where the campaign's logs go (output directory + the profile's log root).
    static QString logRoot(const launcher::Campaign& campaign);
    // How long the environment capture may take before the campaign goes on without it.
    void setEnvironmentTimeout(std::chrono::milliseconds timeout) {
        m_environmentTimeout = timeout;
    }
    // The history's recording step (the window's History page), handed to each session: the
    // session calls it with the campaign's directory when the campaign belongs in the history.
    void setRecorder(std::function<void(const QString& directory)> record) {
        m_record = std::move(record);
    }

  signals:
    void started(int runs);
    void runStarted(int index, int total, const QString& id, const QString& command);
    void progress(const sv::launcher::RunProgress& progress);
    void runFinished(int index, const QString& id, const sv::launcher::RunEnd& end);
    void logText(const QString& text);
    void resultsChanged(const QString& logRoot);
    // failure: why the campaign could not go on (its journal or a log could not be written);
    // empty when it ran to its end or was cancelled.
    void finished(bool cancelled, int ok, int total, const QString& failure);
    void preflightDone(const std::vector<sv::launcher::PreflightFinding>& findings);
    // For the user, in words: what went wrong, where, and what to do.
    void problem(const QString& text);
    void note(const QString& text);

  private:
    void connectSession();
    void onRunFinished(int index, const launcher::RunEnd& end);
    void onFinished(const launcher::SessionEnd& end);

    launcher::CampaignSession* m_session = nullptr;
    ConsoleFeed* m_console;
    bool m_preflighting = false;
    std::chrono::milliseconds m_environmentTimeout = launcher::SessionOptions().environmentTimeout;
    std::function<void(const QString&)> m_record;
};

} // namespace sv::ui
