#pragma once
// Drives the launcher's Runner for the window: preflight, run, cancel and resume, all through
// the event loop (the Runner's QProcess and timers; nothing here waits). Says what happens in
// plain words, follows the current run's log for the console, and says when a run's results
// are on disk (resultsChanged) for whoever shows them.

// moc trips over the C++20 standard headers behind the launcher types; it needs only names.
#ifndef Q_MOC_RUN
#include "launcher/campaign/campaign.h"
#include "launcher/campaign/campaignend.h"
#include "launcher/campaign/journal.h"
#include "launcher/campaign/runprogress.h"
#include "launcher/monitor/environmentcapture.h"
#include "launcher/session/preflight.h"
#endif

#include <QObject>
#include <QPointer>

#include <chrono>
#include <memory>

namespace sv::launcher {
class Runner;
}

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
    bool isRunning() const { return m_runner != nullptr; }
    bool isCancelling() const { return m_cancelling; }
    const launcher::Runner* runner() const { return m_runner; }
    // Where the campaign's logs go (output directory + the profile's log root).
    static QString logRoot(const launcher::Campaign& campaign);
    // How long the environment capture may take before the campaign goes on without it.
    void setEnvironmentTimeout(std::chrono::milliseconds timeout) {
        m_environmentTimeout = timeout;
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
    void onRunFinished(int index, const launcher::RunEnd& end);
    void onFinished(const launcher::CampaignEnd& end);

    launcher::Runner* m_runner = nullptr;
    launcher::Campaign m_campaign;
    ConsoleFeed* m_console;
    bool m_cancelling = false;
    bool m_preflighting = false;
    std::chrono::milliseconds m_environmentTimeout = launcher::EnvironmentCapture::kDefaultTimeout;
};

} // namespace sv::ui
