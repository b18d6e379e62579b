// RunPanel's campaign files: a campaign file or directory read off the GUI thread and shown
// (with what it says about itself), a campaign saved, and the recent campaigns.

#include "ui/run/runpanel.h"

#include "launcher/campaign/campaignscaling.h"
#include "ui/settings/appsettings.h"
#include "async/backgroundtask.h"
#include "ui/run/campaignform.h"
#include "ui/run/runprogressview.h"
#include "ui/run/stdstrings.h"

#include <QDir>
#include <QFileDialog>
#include <QLabel>
#include <QMenu>

#include <filesystem>

namespace sv::ui {

void RunPanel::readCampaign(const std::string& fileOrDir,
                            std::function<void(const launcher::CampaignDirectory&)> then) {
    const quint64 generation = m_generation;
    m_reading = true;
    showBanner(tr("Reading campaign %1…").arg(native(fileOrDir)), false);
    updateButtons();
    // The launcher's pool, not Qt's global one: a read stuck on a hung disk must not hold the
    // app's exit (QCoreApplication waits for the global pool).
    async::runInBackground(
        this, [fileOrDir] { return launcher::CampaignDirectory::open(fileOrDir); },
        [this, generation, then = std::move(then)](const launcher::CampaignDirectory& opened) {
            // The panel moved on meanwhile (another campaign, a run, New): that owns the form
            // and the banner now.
            if (generation != m_generation) return;
            m_reading = false;
            then(opened);
            updateButtons();
        },
        async::backgroundPool());
}

void RunPanel::openCampaign(const QString& fileOrDir) {
    // Whatever was being read or described before is dropped when it returns.
    ++m_generation;
    m_choice->hide();
    readCampaign(fileOrDir.toStdString(),
                 [this, fileOrDir](const auto& opened) { showOpened(fileOrDir, opened); });
}

void RunPanel::showOpened(const QString& fileOrDir, const launcher::CampaignDirectory& opened) {
    if (!opened.ok()) {
        showBanner(tr("Cannot open the campaign: %1").arg(QString::fromStdString(opened.error())),
                   true);
        emit campaignRead(fileOrDir, false);
        return;
    }
    m_opened = opened;
    m_choice->hide();
    m_form->setCampaign(opened.campaign());
    // The previous campaign's headline ("Cancelled: 1 of 6 runs ok") and output are not this
    // one's: they go.
    m_monitor->clearCampaign(
        tr("Opened %1.").arg(native(opened.isOwnDirectory() ? opened.directory() : opened.file())));
    m_monitor->setPlan(toQt(opened.plannedIds()), opened.journal(), opened.campaign().iterations);
    m_canResume = opened.hasJournal() && !opened.runsLeft().empty();
    describeOpened(opened);
    if (!opened.journal().empty() && opened.profile())
        emit campaignOpened(QString::fromStdString((std::filesystem::path(opened.directory()) /
                                                    opened.profile()->logRoot)
                                                       .lexically_normal()
                                                       .string()),
                            opened.campaign().warmup, opened.campaign().iterations);
    m_settings->addRecentCampaign(
        QString::fromStdString(opened.isOwnDirectory() ? opened.directory() : opened.file()));
    rebuildRecentMenu();
    updateButtons();
    emit campaignRead(fileOrDir, true);
}

void RunPanel::describeOpened(const launcher::CampaignDirectory& opened) {
    const QString where = native(opened.isOwnDirectory() ? opened.directory() : opened.file());
    const int total = static_cast<int>(opened.plan().size());
    const int left = static_cast<int>(opened.runsLeft().size());
    QStringList text;
    bool problem = false;
    // The plan is kept as saved; what this machine (or these hosts) cannot run is said, not
    // dropped.
    const QStringList cannot = m_form->problems();
    if (!opened.hasJournal())
        text << (cannot.isEmpty() ? tr("Opened %1: not run yet. Press Run.")
                                  : tr("Opened %1: not run yet."))
                    .arg(where);
    else if (left)
        text << tr("Opened %1: %2 of %3 runs finished; Resume runs the other %4.")
                    .arg(where)
                    .arg(total - left)
                    .arg(total)
                    .arg(left);
    else {
        const auto worst = launcher::worstScaling(opened);
        // What the live view said when it ended, said again: the journal keeps each run's
        // "disturbed" and its evidence.
        const int disturbed = launcher::disturbedOkRuns(opened.journal());
        const QString finished =
            disturbed == 0
                ? tr("Opened %1: all %2 runs finished; its results are in the other tabs.")
                      .arg(where)
                      .arg(total)
            : disturbed >= total
                ? tr("Opened %1: all %2 runs finished, but every one was disturbed: something "
                     "else used the machine while they ran, and their figures are not "
                     "reliable. The Runs tab says what disturbed each.")
                      .arg(where)
                      .arg(total)
                : tr("Opened %1: all %2 runs finished, but %3 were disturbed: something else "
                     "used the machine while they ran, and their figures are not reliable. The "
                     "Runs tab says what disturbed each.")
                      .arg(where)
                      .arg(total)
                      .arg(disturbed);
        text << finished + scalingSentence(worst);
        problem = disturbed > 0 || (worst && worst->cannotBeTrue);
    }
    if (!opened.movedFrom().empty())
        text << tr("It was written in %1 and has moved: it runs here, in %2.")
                    .arg(native(opened.movedFrom()), native(opened.directory()));
    if (!opened.profileError().empty()) {
        text << tr("Its workload cannot be loaded: %1")
                    .arg(QString::fromStdString(opened.profileError()));
        problem = true;
    }
    if (!opened.journalError().empty()) {
        text << tr("Its journal cannot be read: %1")
                    .arg(QString::fromStdString(opened.journalError()));
        problem = true;
    }
    if (!cannot.isEmpty()) {
        text << tr("This campaign cannot run here as saved; its plan is kept as it is (ticked "
                   "in red):")
             << QStringLiteral("  • ") + cannot.join(QStringLiteral("\n  • "))
             << tr("To run it here, add hosts or untick what cannot run, and run it as a new "
                   "campaign.");
        problem = true;
    }
    showBanner(text.join(QLatin1Char('\n')), problem);
}

bool RunPanel::saveCampaign(const QString& file) {
    // Absolute, like campaign.json: opened later, from anywhere, it names the same directory.
    launcher::Campaign c = m_form->campaign();
    c.outputDir = launcher::absoluteOutputDir(c.outputDir);
    // The write (a temporary, fsync, rename: core/model/atomicfile.h) is on a worker thread: a slow
    // or hung disk must not freeze the window; campaignSaved says how it went.
    async::runInBackground(
        this,
        [c, path = file.toStdString()] {
            std::string why;
            return launcher::saveCampaign(c, path, &why) ? QString() : QString::fromStdString(why);
        },
        [this, file](const QString& why) {
            if (why.isEmpty()) {
                m_settings->addRecentCampaign(file);
                rebuildRecentMenu();
            } else {
                showBanner(tr("Cannot save %1: %2").arg(QDir::toNativeSeparators(file), why), true);
            }
            emit campaignSaved(file, why);
        },
        async::workPool());
    return true;
}

QStringList RunPanel::recentCampaigns() const {
    return m_settings->recentCampaigns();
}

void RunPanel::rebuildRecentMenu() {
    m_recentMenu->clear();
    for (const QString& f : m_settings->recentCampaigns())
        m_recentMenu->addAction(QDir::toNativeSeparators(f), this, [this, f] { openCampaign(f); });
    if (m_recentMenu->isEmpty())
        m_recentMenu->addAction(tr("No recent campaigns"))->setEnabled(false);
}

void RunPanel::chooseOpen() {
    const QString file =
        QFileDialog::getOpenFileName(this, tr("Open campaign"), QString(), tr("Campaign (*.json)"));
    if (!file.isEmpty()) openCampaign(file);
}

void RunPanel::chooseSave() {
    const QString file = QFileDialog::getSaveFileName(
        this, tr("Save campaign"), QStringLiteral("campaign.json"), tr("Campaign (*.json)"));
    if (!file.isEmpty()) saveCampaign(file);
}

} // namespace sv::ui
