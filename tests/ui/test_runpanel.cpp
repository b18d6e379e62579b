// The Run panel as a user drives it (offscreen): a tiny local campaign of the real CPU workload
// set up through the widgets, Run, progress and the results filling in; Cancel mid-run leaving
// no process; reopening offering Resume; topologies the hosts cannot run greyed out with why.

#include "tests/ui/uifixture.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/settings/appsettings.h"
#include "launcher/campaign/campaigndiff.h"
#include "ui/run/campaignform.h"
#include "ui/models/casetablemodel.h"
#include "ui/models/hosttablemodel.h"
#include "launcher/campaign/journal.h"
#include "ui/window/mainwindow.h"
#include "ui/browse/resultspage.h"
#include "launcher/campaign/runcapacity.h"
#include "ui/run/runcontroller.h"
#include "ui/run/runprogressview.h"
#include "ui/run/runpanel.h"
#include "launcher/ssh/sshconfighosts.h"

#include <QApplication>
#include <QCheckBox>
#include <QDockWidget>
#include <QTabBar>
#include <QTabWidget>
#include <QComboBox>
#include <QDir>
#include <QSignalSpy>
#include <QFileInfo>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QWheelEvent>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QFutureWatcher>
#include <QThread>

#include <gtest/gtest.h>

#include <atomic>
#include <future>

using namespace sv;
using namespace sv::test;

namespace {

struct Window : AppWindow {
    ui::RunPanel* panel = window.runPanel();
    ui::CampaignForm* form = panel->form();
};

// The live processes whose command line mentions `needle` (the campaign's directory: the
// workload's script lives there, so any rank or launcher left behind shows up) or, with atStart,
// starts with it: a launcher about to exec the command (env /bin/sleep 617) is not running it
// yet, and its command line is empty while the exec is under way.
std::vector<int> processesMentioning(const std::string& needle, bool atStart = false) {
    std::vector<int> found;
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::string cmd = readWhole(e.path() / "cmdline");
        std::replace(cmd.begin(), cmd.end(), '\0', ' ');
        const std::string stat = readWhole(e.path() / "stat");
        const bool zombie = stat.find(") Z ") != std::string::npos;
        const auto at = cmd.find(needle);
        if (!zombie && at != std::string::npos && (!atStart || at == 0))
            found.push_back(std::stoi(name));
    }
    return found;
}

std::vector<int> processesRunning(const std::string& command) {
    return processesMentioning(command, true);
}

// Opens a campaign as the user does, and waits for its read (on a worker thread) to end:
// true when the campaign is in the form.
bool openAndWait(ui::RunPanel* panel, const QString& fileOrDir) {
    QSignalSpy read(panel, &ui::RunPanel::campaignRead);
    panel->openCampaign(fileOrDir);
    if (!waitUntil([&] { return read.count() > 0; }, 10000)) return false;
    return read.takeFirst().at(1).toBool();
}

// After a click that reads the campaign directory again (Resume, Revert): until it is read.
bool readDone(ui::RunPanel* panel) {
    return waitUntil([&] { return !panel->isReading(); }, 10000);
}

// A campaign that takes seconds: one rank, tiny images and batch, few iterations.
void setUpTiny(ui::CampaignForm* form, const QString& out, int iterations) {
    for (const char* t : {"1n2g", "1n4g", "1n8g", "2n8g", "4n8g"})
        if (auto* box = form->topologyBox(QString::fromLatin1(t))) box->setChecked(false);
    form->topologyBox(QStringLiteral("1n1g"))->setChecked(true);
    form->batchSize()->setValue(2);
    form->imageSize()->setValue(16);
    form->repeats()->setValue(1);
    form->warmup()->setValue(2);
    form->iterations()->setValue(iterations);
    form->cooldown()->setValue(0);
    form->outputDir()->setText(out);
}

} // namespace

TEST(RunPanel, FreshStartOffersTheSmallLocalCampaign) {
    Window w;
    const auto c = w.form->campaign();
    EXPECT_EQ(c.profile, "local-cpu-rn50");
    EXPECT_TRUE(c.hosts.empty());
    ASSERT_EQ(c.topologies.size(), 2u);
    EXPECT_EQ(c.topologies[0].name(), "1n1g");
    EXPECT_EQ(c.topologies[1].name(), "1n2g");
    EXPECT_EQ(c.repeats, 3);
    EXPECT_EQ(c.iterations, 40);
    EXPECT_TRUE(c.validate().empty());
    // What is measured is said in words under the workload, from the first moment.
    bool labelled = false;
    for (const QLabel* label : w.form->findChildren<QLabel*>())
        labelled =
            labelled || (label->text().startsWith(QLatin1String("ResNet-50 v1.5, PyTorch, CPU, "
                                                                "synthetic data\n")) &&
                         label->text().contains(QLatin1String("a \"GPU\" is one core")) &&
                         label->text().contains(QLatin1String("not GPU scaling")));
    EXPECT_TRUE(labelled);
    // The exact commands shown before anything runs: one per run, mpirun with the workload.
    ASSERT_TRUE(waitUntil([&] { return !w.panel->commandText().isEmpty(); }, 3000));
    const QStringList lines = w.panel->commandText().split(QLatin1Char('\n'));
    EXPECT_EQ(lines.size(), 6);
    EXPECT_TRUE(lines[0].contains(QLatin1String(" mpirun "))) << lines[0].toStdString();
    EXPECT_TRUE(lines[0].contains(QLatin1String("rn50_cpu.py")));
    EXPECT_TRUE(w.panel->runButton()->isEnabled());
    EXPECT_FALSE(w.panel->cancelButton()->isEnabled());
    EXPECT_FALSE(w.panel->resumeButton()->isEnabled());
}

TEST(RunPanel, DisablesTopologiesItCannotRunAndSaysWhy) {
    Window w;
    // No hosts: one node only.
    auto* twoNodes = w.form->topologyBox(QStringLiteral("2n8g"));
    EXPECT_FALSE(twoNodes->isEnabled());
    EXPECT_TRUE(twoNodes->toolTip().contains(QLatin1String("hosts")))
        << twoNodes->toolTip().toStdString();
    EXPECT_TRUE(w.form->topologyBox(QStringLiteral("1n1g"))->isEnabled());
    const int cores = QThread::idealThreadCount();
    EXPECT_EQ(w.form->topologyBox(QStringLiteral("1n8g"))->isEnabled(), cores >= 8);

    // Two hosts of 4 GPUs: 2n4g fits, 1n8g and 4n8g do not.
    launcher::Host a{"node1", {}, 0, {}, 4}, b{"node2", {}, 0, {}, 4};
    w.form->hosts()->setHosts({a, b});
    EXPECT_TRUE(w.form->topologyBox(QStringLiteral("1n4g"))->isEnabled());
    EXPECT_FALSE(w.form->topologyBox(QStringLiteral("1n8g"))->isEnabled());
    EXPECT_TRUE(
        w.form->topologyBox(QStringLiteral("1n8g"))->toolTip().contains(QLatin1String("node1")));
    EXPECT_FALSE(w.form->topologyBox(QStringLiteral("4n8g"))->isEnabled());
    EXPECT_FALSE(w.form->topologyBox(QStringLiteral("4n8g"))->isChecked());
    w.form->customTopologies()->setText(QStringLiteral("2n4g"));
    EXPECT_TRUE(w.form->problems().isEmpty());
    w.form->customTopologies()->setText(QStringLiteral("3n4g, 2x2"));
    ASSERT_EQ(w.form->problems().size(), 2);
    EXPECT_TRUE(w.form->problems()[0].contains(QLatin1String("3 hosts")));
    EXPECT_TRUE(w.form->problems()[1].contains(QLatin1String("NnGg")));
    // Run refuses with the reason where the user looks, and starts nothing.
    w.panel->runButton()->click();
    EXPECT_TRUE(w.panel->bannerText().contains(QLatin1String("3n4g")));
    EXPECT_FALSE(w.panel->controller()->isRunning());

    // The rule itself.
    const launcher::RunCapacity local({}, 2, QStringLiteral("CPU cores"));
    EXPECT_TRUE(local.canRun({1, 2}));
    EXPECT_TRUE(local.whyNot({1, 4}).contains(QLatin1String("2 CPU cores")));
}

TEST(RunPanel, ImportsHostsFromAnSshConfig) {
    const auto hosts = launcher::hostsFromSshConfig(
        "Host *\n  User everyone\n"
        "Host gpu1 gpu2\n  HostName=10.0.0.1\n  Port 2222\n  User alice\n"
        "# comment\nHost gpu3\n  hostname gpu3.lab\n",
        8);
    ASSERT_EQ(hosts.size(), 3u);
    EXPECT_EQ(hosts[0].name, "gpu1");
    EXPECT_EQ(hosts[0].address, "10.0.0.1");
    EXPECT_EQ(hosts[0].port, 2222);
    EXPECT_EQ(hosts[0].user, "alice");
    EXPECT_EQ(hosts[1].name, "gpu2");
    EXPECT_EQ(hosts[2].address, "gpu3.lab");
    EXPECT_EQ(hosts[2].user, "");
    EXPECT_EQ(hosts[2].gpus, 8);

    Window w;
    QTemporaryDir dir;
    writeFile(dir.filePath(QStringLiteral("ssh_config")).toStdString(),
              "Host n1\n  Port 2201\nHost n2\n");
    w.form->importSshConfig(dir.filePath(QStringLiteral("ssh_config")));
    ASSERT_EQ(w.form->hosts()->rowCount(), 2);
    EXPECT_EQ(w.form->campaign().hosts[0].port, 2201);
    EXPECT_EQ(w.form->campaign().sshConfig,
              dir.filePath(QStringLiteral("ssh_config")).toStdString());
    EXPECT_TRUE(w.form->topologyBox(QStringLiteral("2n8g"))->isEnabled());
}

TEST(RunPanel, SavesAndReopensCampaignsAsTheLaunchersJson) {
    Window w;
    QTemporaryDir dir;
    setUpTiny(w.form, dir.filePath(QStringLiteral("out")), 7);
    w.form->precision()->setCurrentIndex(2);
    // The local profile offers mpirun (its default) and torchrun.
    QStringList launchers;
    for (int i = 0; i < w.form->launcherChoice()->count(); ++i)
        launchers << w.form->launcherChoice()->itemData(i).toString();
    EXPECT_EQ(launchers, (QStringList{QStringLiteral("mpirun"), QStringLiteral("torchrun")}));
    EXPECT_EQ(w.form->launcherChoice()->currentData().toString(), QStringLiteral("mpirun"));
    EXPECT_TRUE(w.form->campaign().launcher.empty()); // the default stays unnamed
    w.form->launcherChoice()->setCurrentIndex(
        w.form->launcherChoice()->findData(QStringLiteral("torchrun")));
    const QString file = dir.filePath(QStringLiteral("mine.json"));
    QSignalSpy written(w.panel, &ui::RunPanel::campaignSaved);
    ASSERT_TRUE(w.panel->saveCampaign(file));
    ASSERT_TRUE(written.count() == 1 || written.wait(10000)); // written off the GUI thread
    EXPECT_EQ(written.at(0).at(1).toString(), QString()) << "no error";
    std::string error;
    const auto saved = launcher::loadCampaign(file.toStdString(), &error);
    ASSERT_TRUE(saved) << error;
    EXPECT_EQ(saved->iterations, 7);
    EXPECT_EQ(saved->precisions, std::vector<std::string>{"fp16-noamp"});
    EXPECT_EQ(saved->launcher, "torchrun");

    Window other;
    ASSERT_TRUE(openAndWait(other.panel, file));
    EXPECT_EQ(other.form->iterations()->value(), 7);
    EXPECT_EQ(other.form->precision()->currentData().toString(), QStringLiteral("fp16-noamp"));
    EXPECT_EQ(other.form->launcherChoice()->currentData().toString(), QStringLiteral("torchrun"));
    EXPECT_FALSE(other.panel->resumeButton()->isEnabled()); // never run: nothing to resume
    // The commands shown are the opened campaign's, not the ones before it.
    EXPECT_TRUE(waitUntil(
        [&] {
            return other.panel->commandText().contains(QLatin1String("--iterations 7")) &&
                   other.panel->commandText().contains(QLatin1String("torchrun --nnodes 1"));
        },
        3000))
        << other.panel->commandText().toStdString();
    EXPECT_EQ(other.panel->recentCampaigns().value(0), file);
}

TEST(RunPanel, OpeningACampaignKeepsWhatTheFormCannotShow) {
    // A campaign file with a profile file, two batch sizes and two precisions: Resume must run
    // that plan, not the one the form's single fields would make.
    Window w;
    QTemporaryDir dir;
    launcher::Campaign c = ui::CampaignForm::defaultCampaign();
    const QString profile = dir.filePath(QStringLiteral("mine-profile.json"));
    {
        QFile f(profile);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(
            std::string(R"({"name": "mine", "launchers": {"mpirun": ["mpirun", "-np", "{ranks}"]},)"
                        R"( "program": ["true"]})")));
    }
    c.profile = profile.toStdString();
    c.batchSizes = {8, 16};
    c.precisions = {"fp32", "fp16"};
    c.outputDir = dir.filePath(QStringLiteral("out")).toStdString();
    const QString file = dir.filePath(QStringLiteral("c.json"));
    std::string error;
    ASSERT_TRUE(launcher::saveCampaign(c, file.toStdString(), &error)) << error;
    ASSERT_TRUE(openAndWait(w.panel, file));
    auto shown = w.form->campaign();
    EXPECT_EQ(shown.profile, c.profile);
    EXPECT_EQ(shown.batchSizes, (std::vector<int>{8, 16}));
    EXPECT_EQ(shown.precisions, (std::vector<std::string>{"fp32", "fp16"}));
    // Changing the batch shown means that batch alone.
    w.form->batchSize()->setValue(32);
    EXPECT_EQ(w.form->campaign().batchSizes, std::vector<int>{32});
}

// Issue 28 from the Run tab: a campaign file's probes and its node left out (with why) survive
// the form, the Probes box shows and sets them, and saving writes both back.
TEST(RunPanel, ACampaignsProbesAndExcludedNodeSurviveTheForm) {
    Window w;
    QTemporaryDir dir;
    launcher::Campaign c = ui::CampaignForm::defaultCampaign();
    c.hosts = {{"node1", "", 0, "", 1}, {"node2", "", 0, "", 1}, {"node3", "", 0, "", 1}};
    c.topologies = {*parseTopology("2n1g")};
    c.probes = true;
    ASSERT_FALSE(launcher::excludeNode(c, "node3", "92 % slower alone (find-slow-node)"));
    c.outputDir = dir.filePath(QStringLiteral("out")).toStdString();
    const QString file = dir.filePath(QStringLiteral("c.json"));
    std::string error;
    ASSERT_TRUE(launcher::saveCampaign(c, file.toStdString(), &error)) << error;
    ASSERT_TRUE(openAndWait(w.panel, file));
    EXPECT_TRUE(w.form->probesBox()->isChecked());
    const auto shown = w.form->campaign();
    EXPECT_TRUE(shown.probes);
    ASSERT_EQ(shown.hosts.size(), 2u);
    ASSERT_EQ(shown.excludedNodes.size(), 1u);
    EXPECT_EQ(shown.excludedNodes.front().host.name, "node3");
    EXPECT_EQ(shown.excludedNodes.front().reason, "92 % slower alone (find-slow-node)");
    // Unticked, the campaign runs no probes; saved, the file says both.
    w.form->probesBox()->setChecked(false);
    EXPECT_FALSE(w.form->campaign().probes);
    w.form->probesBox()->setChecked(true);
    const QString again = dir.filePath(QStringLiteral("again.json"));
    ASSERT_TRUE(launcher::saveCampaign(w.form->campaign(), again.toStdString(), &error)) << error;
    QFile f(again);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    EXPECT_TRUE(text.contains("\"probes\": true")) << text.toStdString();
    EXPECT_TRUE(text.contains("92 % slower alone")) << text.toStdString();
}

TEST(RunPanel, TinyLocalCampaignRunsAndFillsProgressAndResults) {
    Window w;
    w.window.show();
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("campaign"));
    setUpTiny(w.form, out, 8);

    std::vector<launcher::RunProgress> progress;
    QObject::connect(w.panel->controller(), &ui::RunController::progress,
                     [&](const launcher::RunProgress& p) { progress.push_back(p); });
    bool done = false, cancelled = true;
    int ok = -1;
    QObject::connect(w.panel, &ui::RunPanel::campaignFinished, [&](bool c, int k, int) {
        done = true;
        cancelled = c;
        ok = k;
    });
    ASSERT_TRUE(waitUntil([&] { return w.panel->runButton()->isEnabled(); }, 3000));
    w.panel->runButton()->click();
    ASSERT_TRUE(w.panel->controller()->isRunning()) << w.panel->bannerText().toStdString();
    EXPECT_FALSE(w.panel->runButton()->isEnabled());
    EXPECT_TRUE(w.panel->cancelButton()->isEnabled());
    ASSERT_TRUE(waitUntil([&] { return done; }, 110000))
        << w.panel->monitor()->currentText().toStdString();
    EXPECT_FALSE(cancelled);
    EXPECT_EQ(ok, 1) << w.panel->bannerText().toStdString();

    // Progress arrived, counting up to the last iteration, with a speed.
    ASSERT_FALSE(progress.empty());
    EXPECT_EQ(progress.back().iteration, 8);
    EXPECT_EQ(progress.back().total, 1);
    EXPECT_GT(progress.back().speed, 0.0);
    // "ok", or "ok, disturbed" with why in its tooltip where the run monitor saw another
    // process on this shared machine (issue 37 item 10).
    const QTableWidgetItem* state = w.panel->monitor()->runsTable()->item(0, 1);
    EXPECT_TRUE(state->text() == QStringLiteral("ok") ||
                (state->text() == QStringLiteral("ok, disturbed") &&
                 state->toolTip().startsWith(QStringLiteral("Disturbed: "))))
        << state->text().toStdString() << " " << state->toolTip().toStdString();
    EXPECT_FALSE(w.panel->monitor()->runsTable()->item(0, 2)->text().isEmpty());
    EXPECT_TRUE(w.panel->monitor()->console()->toPlainText().contains(QLatin1String("Speed:")));

    // The results model of the window holds the campaign: one case, 1 node, 1 GPU.
    const auto* results = w.window.resultsPage()->model();
    ASSERT_TRUE(waitUntil(
        [&] {
            auto a = w.window.analysis()->current();
            return a && a->complete && !w.window.analysis()->isBusy() && results->rowCount() == 1;
        },
        20000));
    EXPECT_EQ(results->data(results->index(0, ui::CaseTableModel::Nodes)).toInt(), 1);
    EXPECT_EQ(results->data(results->index(0, ui::CaseTableModel::Gpus)).toInt(), 1);
    EXPECT_GT(results->data(results->index(0, ui::CaseTableModel::Median)).toString().toDouble(),
              0.0);
    // The same directory cannot be run twice; Resume has nothing left.
    EXPECT_FALSE(w.panel->resumeButton()->isEnabled());
    w.panel->runButton()->click();
    EXPECT_TRUE(w.panel->bannerText().contains(QLatin1String("New")))
        << w.panel->bannerText().toStdString();
    EXPECT_TRUE(processesMentioning(out.toStdString()).empty());
}

TEST(RunPanel, CancelMidRunLeavesNoProcessAndReopenOffersResume) {
    Window w;
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("cancelled"));
    setUpTiny(w.form, out, 5000); // far longer than the test: only Cancel ends it
    bool done = false, cancelled = false;
    QObject::connect(w.panel, &ui::RunPanel::campaignFinished, [&](bool c, int, int) {
        done = true;
        cancelled = c;
    });
    std::int64_t iteration = 0;
    QObject::connect(w.panel->controller(), &ui::RunController::progress,
                     [&](const launcher::RunProgress& p) { iteration = p.iteration; });
    ASSERT_TRUE(waitUntil([&] { return w.panel->runButton()->isEnabled(); }, 3000));
    w.panel->runButton()->click();
    ASSERT_TRUE(waitUntil([&] { return iteration >= 2; }, 90000)) << "the workload never got going";
    ASSERT_FALSE(processesMentioning(out.toStdString()).empty()); // the ranks are there to cancel
    w.panel->cancelButton()->click();
    EXPECT_FALSE(w.panel->cancelButton()->isEnabled());
    // Grace is 5 s, then KILL and the sweep.
    ASSERT_TRUE(waitUntil([&] { return done; }, 30000));
    EXPECT_TRUE(cancelled);
    EXPECT_TRUE(processesMentioning(out.toStdString()).empty());
    EXPECT_EQ(w.panel->monitor()->runsTable()->item(0, 1)->text(), QStringLiteral("cancelled"));
    EXPECT_TRUE(w.panel->resumeButton()->isEnabled());

    // Reopening the campaign shows where it stands and offers Resume.
    Window again;
    ASSERT_TRUE(openAndWait(again.panel, out));
    EXPECT_TRUE(again.panel->resumeButton()->isEnabled());
    EXPECT_TRUE(again.panel->bannerText().contains(QLatin1String("Resume")))
        << again.panel->bannerText().toStdString();
    EXPECT_EQ(again.panel->monitor()->runsTable()->item(0, 1)->text(), QStringLiteral("cancelled"));
}

namespace {

// A workload that ends at once (no throughput: the run ends incomplete) or, with `seconds`,
// sleeps that long: runs in a blink, with the campaign's iterations on its command line.
QString quickProfile(const QTemporaryDir& dir, int seconds = 0) {
    const QString path = dir.filePath(QStringLiteral("quick-profile.json"));
    const std::string program =
        seconds ? R"(["/bin/sleep", ")" + std::to_string(seconds) + R"("], "args": [])"
                : R"(["/bin/true"], "args": ["--iterations", "{iterations}"])";
    writeFile(path.toStdString(),
              R"({"name": "quick", "launchers": {"env": ["/usr/bin/env"]}, "program": )" + program +
                  "}");
    return path;
}

// A campaign directory as a run left it: campaign.json and a journal where the first of its
// two runs was cancelled (so both are left to run).
launcher::Campaign cancelledCampaign(const QTemporaryDir& dir, const QString& out) {
    launcher::Campaign c = ui::CampaignForm::defaultCampaign();
    c.profile = quickProfile(dir).toStdString();
    c.topologies = {{1, 1}};
    c.batchSizes = {8};
    c.repeats = 2;
    c.iterations = 40;
    c.cooldownSeconds = 0;
    c.outputDir = out.toStdString();
    std::filesystem::create_directories(c.outputDir);
    std::string error;
    EXPECT_TRUE(launcher::saveCampaign(c, c.outputDir + "/campaign.json", &error)) << error;
    launcher::Journal journal(c.outputDir + "/journal.jsonl");
    const std::string id = "bz8/1n1g/r50_b8_fp32_1";
    EXPECT_TRUE(journal.appendStart(id, "svTEST", {{"true"}}, {}, "/dev/null", &error)) << error;
    launcher::RunEnd end;
    end.state = launcher::RunState::Cancelled;
    EXPECT_TRUE(journal.appendEnd(id, "svTEST", "/dev/null", end, &error)) << error;
    return c;
}

} // namespace

TEST(RunPanel, ResumeRunsTheSavedCampaignNotTheEditedForm) {
    Window w;
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("campaign"));
    cancelledCampaign(dir, out);
    ASSERT_TRUE(openAndWait(w.panel, out));
    ASSERT_TRUE(w.panel->resumeButton()->isEnabled());

    // Edited iterations: Resume says what differs and runs nothing.
    w.form->iterations()->setValue(7);
    w.panel->resumeButton()->click();
    ASSERT_TRUE(readDone(w.panel));
    EXPECT_FALSE(w.panel->controller()->isRunning());
    EXPECT_TRUE(w.panel->bannerText().contains(QStringLiteral("iterations: 40 → 7")))
        << w.panel->bannerText().toStdString();
    EXPECT_TRUE(w.panel->runAsNewButton()->isVisibleTo(w.panel));
    EXPECT_TRUE(w.panel->revertButton()->isVisibleTo(w.panel));

    // An edited output directory: nothing is resumed into it, nothing is created there.
    const QString elsewhere = dir.filePath(QStringLiteral("elsewhere"));
    w.form->outputDir()->setText(elsewhere);
    w.panel->resumeButton()->click();
    ASSERT_TRUE(readDone(w.panel));
    EXPECT_FALSE(w.panel->controller()->isRunning());
    EXPECT_TRUE(w.panel->bannerText().contains(QLatin1String("output directory")))
        << w.panel->bannerText().toStdString();
    EXPECT_FALSE(QFileInfo::exists(elsewhere));

    // Revert: the saved campaign again, and Resume runs exactly it.
    w.panel->revertButton()->click();
    ASSERT_TRUE(readDone(w.panel));
    EXPECT_FALSE(w.panel->revertButton()->isVisibleTo(w.panel));
    EXPECT_EQ(w.form->iterations()->value(), 40);
    EXPECT_EQ(w.form->outputDir()->text(), out);
    EXPECT_TRUE(w.panel->bannerText().contains(QLatin1String("Resume runs the other 2")))
        << w.panel->bannerText().toStdString();
    bool done = false;
    QObject::connect(w.panel, &ui::RunPanel::campaignFinished, [&] { done = true; });
    w.panel->resumeButton()->click();
    ASSERT_TRUE(readDone(w.panel));
    ASSERT_TRUE(w.panel->controller()->isRunning()) << w.panel->bannerText().toStdString();
    ASSERT_TRUE(waitUntil([&] { return done; }, 60000));
    const std::string journal = readWhole(out.toStdString() + "/journal.jsonl");
    EXPECT_NE(journal.find(R"("--iterations","40")"), std::string::npos) << journal;
    EXPECT_EQ(journal.find(R"("--iterations","7")"), std::string::npos) << journal;
    for (const auto& [id, entry] : launcher::Journal(out.toStdString() + "/journal.jsonl").read())
        EXPECT_TRUE(entry.end) << id; // both runs ran, in the saved directory
    EXPECT_FALSE(QFileInfo::exists(elsewhere));
}

TEST(RunPanel, RunAsANewCampaignLeavesTheOpenedDirectoryAlone) {
    Window w;
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("campaign"));
    cancelledCampaign(dir, out);
    const std::string before = readWhole(out.toStdString() + "/journal.jsonl");
    ASSERT_TRUE(openAndWait(w.panel, out));
    w.form->iterations()->setValue(17);
    w.panel->resumeButton()->click();
    ASSERT_TRUE(readDone(w.panel));
    ASSERT_TRUE(w.panel->runAsNewButton()->isVisibleTo(w.panel));
    bool done = false;
    QObject::connect(w.panel, &ui::RunPanel::campaignFinished, [&] { done = true; });
    w.panel->runAsNewButton()->click();
    ASSERT_TRUE(w.panel->controller()->isRunning()) << w.panel->bannerText().toStdString();
    ASSERT_TRUE(waitUntil([&] { return done; }, 60000));
    // The new campaign went beside the old one, with the form's settings.
    const std::string fresh = out.toStdString() + "-2";
    std::string error;
    const auto saved = launcher::loadCampaign(fresh + "/campaign.json", &error);
    ASSERT_TRUE(saved) << error;
    EXPECT_EQ(saved->iterations, 17);
    EXPECT_EQ(saved->outputDir, fresh);
    EXPECT_EQ(readWhole(out.toStdString() + "/journal.jsonl"), before);
}

TEST(RunPanel, AnOpenedCampaignKeepsWhatCannotRunHereAndSaysWhy) {
    Window w;
    QTemporaryDir dir;
    launcher::Campaign c = ui::CampaignForm::defaultCampaign();
    c.topologies = {{1, 1}, {2, 8}, {4, 8}};
    c.batchSizes = {8192}; // beyond the form's 4096
    c.iterations = 200000; // beyond 100000
    c.repeats = 500;       // beyond 100
    c.outputDir = dir.filePath(QStringLiteral("big")).toStdString();
    const QString file = dir.filePath(QStringLiteral("big.json"));
    std::string error;
    ASSERT_TRUE(launcher::saveCampaign(c, file.toStdString(), &error)) << error;
    ASSERT_TRUE(openAndWait(w.panel, file));

    const auto shown = w.form->campaign();
    EXPECT_EQ(shown.topologies, c.topologies);
    EXPECT_EQ(shown.batchSizes, c.batchSizes);
    EXPECT_EQ(shown.iterations, 200000);
    EXPECT_EQ(shown.repeats, 500);
    EXPECT_TRUE(launcher::campaignDifferences(c, shown).empty());
    auto* twoNodes = w.form->topologyBox(QStringLiteral("2n8g"));
    EXPECT_TRUE(twoNodes->isChecked());
    EXPECT_TRUE(twoNodes->toolTip().contains(QLatin1String("needs 2 hosts")));
    const QString banner = w.panel->bannerText();
    EXPECT_TRUE(banner.contains(QLatin1String("cannot run here"))) << banner.toStdString();
    EXPECT_TRUE(banner.contains(QLatin1String("2n8g needs 2 hosts"))) << banner.toStdString();
    EXPECT_TRUE(banner.contains(QLatin1String("4n8g needs 4 hosts"))) << banner.toStdString();
    // Run refuses with the reason and starts nothing; unticking what cannot run is the user's.
    w.panel->runButton()->click();
    EXPECT_FALSE(w.panel->controller()->isRunning());
    twoNodes->setChecked(false);
    EXPECT_FALSE(twoNodes->isEnabled()); // now greyed out like any box that cannot run
    EXPECT_EQ(w.form->campaign().topologies, (std::vector<Topology>{{1, 1}, {4, 8}}));
}

TEST(RunPanel, ARelativeOutputDirIsTheCampaignsOwnDirectory) {
    // An older CLI stored `--out runs` as typed. Opened from any working directory, the
    // campaign is the directory its campaign.json is in, never $CWD/runs.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("runs"));
    launcher::Campaign c = cancelledCampaign(dir, out);
    c.outputDir = "runs";
    std::string error;
    ASSERT_TRUE(launcher::saveCampaign(c, out.toStdString() + "/campaign.json", &error)) << error;
    Window w;
    ASSERT_TRUE(openAndWait(w.panel, out + QStringLiteral("/campaign.json")));
    EXPECT_EQ(w.form->outputDir()->text(), out);
    EXPECT_TRUE(w.panel->resumeButton()->isEnabled());
    EXPECT_EQ(w.panel->recentCampaigns().value(0), out);
    // The form's own relative directory is saved absolute (from the app's working directory).
    w.form->outputDir()->setText(QStringLiteral("typed/here"));
    const QString spec = dir.filePath(QStringLiteral("spec.json"));
    QSignalSpy written(w.panel, &ui::RunPanel::campaignSaved);
    ASSERT_TRUE(w.panel->saveCampaign(spec));
    ASSERT_TRUE(written.count() == 1 || written.wait(10000));
    const auto saved = launcher::loadCampaign(spec.toStdString(), &error);
    ASSERT_TRUE(saved) << error;
    EXPECT_EQ(saved->outputDir,
              QDir::current().filePath(QStringLiteral("typed/here")).toStdString());
}

// Closing mid-campaign asks first: "Keep running" keeps it (nothing cancelled, the window
// stays); "Cancel it and quit" cancels, waits for the cancel, then closes.
TEST(RunPanel, ClosingTheWindowMidCampaignAsksThenCancelsItFirst) {
    Window w;
    w.window.show();
    int asked = 0;
    bool answer = false;
    w.window.setCloseQuestion([&] {
        ++asked;
        return answer;
    });
    QTemporaryDir dir;
    launcher::Campaign c = ui::CampaignForm::defaultCampaign();
    // 617 s: no other test sleeps that long, so the processes found are this campaign's (the
    // monitor tests' "/bin/sleep 600" ran beside it under ctest -j and came and went).
    c.profile = quickProfile(dir, 617).toStdString();
    c.topologies = {{1, 1}};
    c.repeats = 1;
    c.outputDir = dir.filePath(QStringLiteral("closing")).toStdString();
    w.form->setCampaign(c);
    ASSERT_TRUE(waitUntil([&] { return w.panel->runButton()->isEnabled(); }, 3000));
    w.panel->runButton()->click();
    ASSERT_TRUE(w.panel->controller()->isRunning()) << w.panel->bannerText().toStdString();
    ASSERT_TRUE(waitUntil([&] { return !processesRunning("/bin/sleep 617").empty(); }, 30000));
    EXPECT_FALSE(w.window.close()); // "Keep running"
    EXPECT_EQ(asked, 1);
    EXPECT_TRUE(w.window.isVisible());
    EXPECT_TRUE(w.panel->controller()->isRunning());
    EXPECT_FALSE(w.panel->bannerText().contains(QLatin1String("Cancelling")));
    EXPECT_FALSE(processesRunning("/bin/sleep 617").empty());
    answer = true;
    EXPECT_FALSE(w.window.close()); // refused: the campaign is cancelled first
    EXPECT_EQ(asked, 2);
    EXPECT_TRUE(w.window.isVisible());
    EXPECT_TRUE(w.panel->bannerText().contains(QLatin1String("Cancelling")))
        << w.panel->bannerText().toStdString();
    ASSERT_TRUE(waitUntil([&] { return !w.window.isVisible(); }, 30000));
    EXPECT_FALSE(w.panel->controller()->isRunning());
    EXPECT_TRUE(processesRunning("/bin/sleep 617").empty());
}

// SIGTERM's close (closeWithoutAsking) asks nothing: the campaign is cancelled, then the window
// closes (tests/ui/test_guisignals.cpp sends the real signal to the real app).
TEST(RunPanel, ClosingWithoutAskingCancelsTheCampaignAndCloses) {
    Window w;
    w.window.show();
    w.window.setCloseQuestion([] {
        ADD_FAILURE() << "a signal's close must not ask";
        return false;
    });
    QTemporaryDir dir;
    launcher::Campaign c = ui::CampaignForm::defaultCampaign();
    c.profile = quickProfile(dir, 599).toStdString();
    c.topologies = {{1, 1}};
    c.repeats = 1;
    c.outputDir = dir.filePath(QStringLiteral("signalled")).toStdString();
    w.form->setCampaign(c);
    ASSERT_TRUE(waitUntil([&] { return w.panel->runButton()->isEnabled(); }, 3000));
    w.panel->runButton()->click();
    ASSERT_TRUE(w.panel->controller()->isRunning()) << w.panel->bannerText().toStdString();
    ASSERT_TRUE(waitUntil([&] { return !processesRunning("/bin/sleep 599").empty(); }, 30000));
    w.window.closeWithoutAsking();
    ASSERT_TRUE(waitUntil([&] { return !w.window.isVisible(); }, 30000));
    EXPECT_FALSE(w.panel->controller()->isRunning());
    EXPECT_TRUE(processesRunning("/bin/sleep 599").empty());
}

TEST(RunPanel, RecentCampaignsAreOneOfTheSettingsRecentLists) {
    QTemporaryDir dir;
    const QString ini = dir.filePath(QStringLiteral("settings.ini"));
    const QString gone = dir.filePath(QStringLiteral("gone"));
    std::vector<QString> dirs;
    {
        ui::AppSettings settings(ini);
        for (int i = 0; i < 12; ++i) {
            dirs.push_back(dir.filePath(QStringLiteral("c%1").arg(i)));
            QDir().mkpath(dirs.back());
            settings.addRecentCampaign(dirs.back());
        }
        settings.addRecentCampaign(gone);    // never created: left out when read
        settings.addRecentCampaign(dirs[5]); // again: moves to the front, once
        settings.addRecent(dir.path());      // the log directories' list is another list
        settings.sync();
    }
    ui::AppSettings settings(ini);
    const QStringList recent = settings.recentCampaigns();
    ASSERT_EQ(recent.size(), 9); // ten kept, one of them gone
    EXPECT_EQ(recent[0], dirs[5]);
    EXPECT_EQ(recent[1], dirs[11]);
    EXPECT_EQ(recent.count(dirs[5]), 1);
    EXPECT_FALSE(recent.contains(gone));
    EXPECT_FALSE(recent.contains(dir.path()));
    EXPECT_EQ(settings.recent(), QStringList{dir.path()});
    // The Run panel of a window on those settings offers the same list.
    Window w;
    QTemporaryDir other;
    const QString out = other.filePath(QStringLiteral("campaign"));
    cancelledCampaign(other, out);
    ASSERT_TRUE(openAndWait(w.panel, out + QStringLiteral("/campaign.json")));
    EXPECT_EQ(w.panel->recentCampaigns(), QStringList{out});
}

TEST(RunPanel, AMovedCampaignDirectoryRunsWhereItIsNowAndSaysSo) {
    QTemporaryDir dir;
    const QString first = dir.filePath(QStringLiteral("first"));
    const QString moved = dir.filePath(QStringLiteral("moved"));
    cancelledCampaign(dir, first);
    ASSERT_TRUE(QDir().rename(first, moved));
    Window w;
    ASSERT_TRUE(openAndWait(w.panel, moved + QStringLiteral("/campaign.json")));
    EXPECT_EQ(w.form->outputDir()->text(), moved);
    EXPECT_TRUE(w.panel->bannerText().contains(QLatin1String("has moved")))
        << w.panel->bannerText().toStdString();
    EXPECT_TRUE(w.panel->bannerText().contains(first)) << w.panel->bannerText().toStdString();
    // Resume takes the directory as it is now: nothing differs, nothing goes to the old place.
    bool done = false;
    QObject::connect(w.panel, &ui::RunPanel::campaignFinished, [&] { done = true; });
    w.panel->resumeButton()->click();
    ASSERT_TRUE(readDone(w.panel));
    ASSERT_TRUE(w.panel->controller()->isRunning()) << w.panel->bannerText().toStdString();
    ASSERT_TRUE(waitUntil([&] { return done; }, 60000));
    EXPECT_FALSE(QFileInfo::exists(first));
    EXPECT_TRUE(QFileInfo::exists(moved + QStringLiteral("/logs/bz8/1n1g/r50_b8_fp32_2.log")));
}

// A finished campaign's directory is read again on a worker; when the user opens another
// campaign before that read returns, the late result must not replace the newer campaign,
// its banner or its Resume, nor say the campaign finished.
TEST(RunPanel, LateReadOfAFinishedCampaignDoesNotReplaceANewerOpen) {
    Window w;
    QTemporaryDir dir;
    const QString first = dir.filePath(QStringLiteral("first"));
    const QString second = dir.filePath(QStringLiteral("second"));
    cancelledCampaign(dir, first);
    cancelledCampaign(dir, second);
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::atomic<bool> readHeld{false};
    ui::RunPanel::setFinishedReadHookForTest([released, &readHeld] {
        readHeld = true;
        released.wait();
    });
    // Whatever happens, the worker is let go and the hook removed for the next tests.
    struct Unhook {
        std::promise<void>& release;
        bool released = false;
        ~Unhook() {
            if (!released) release.set_value();
            ui::RunPanel::setFinishedReadHookForTest({});
        }
    } unhook{release};

    ASSERT_TRUE(openAndWait(w.panel, first));
    int finishedSignals = 0;
    QObject::connect(w.panel, &ui::RunPanel::campaignFinished, [&] { ++finishedSignals; });
    w.panel->resumeButton()->click();
    ASSERT_TRUE(readDone(w.panel));
    ASSERT_TRUE(w.panel->controller()->isRunning()) << w.panel->bannerText().toStdString();
    // The campaign ends; its directory read is held on the worker.
    ASSERT_TRUE(waitUntil([&] { return readHeld && !w.panel->controller()->isRunning(); }, 60000));

    ASSERT_TRUE(openAndWait(w.panel, second));
    const QString openedBanner = w.panel->bannerText();
    ASSERT_TRUE(openedBanner.contains(QDir::toNativeSeparators(second)))
        << openedBanner.toStdString();
    release.set_value();
    unhook.released = true;
    // The late read has come back once its watcher is gone.
    ASSERT_TRUE(
        waitUntil([&] { return w.panel->findChildren<QFutureWatcherBase*>().isEmpty(); }, 10000));
    EXPECT_EQ(w.panel->bannerText().toStdString(), openedBanner.toStdString());
    EXPECT_EQ(finishedSignals, 0);
    EXPECT_EQ(w.form->outputDir()->text(), second);
    EXPECT_TRUE(w.panel->resumeButton()->isEnabled()); // the second's two runs are left
}

// The command view is drawn at every edit: the profile is read once per choice of profile,
// not from disk each time (a slow or hung mount would stall the window at every keystroke).
TEST(RunPanel, TheCommandViewReadsTheProfileOncePerChoice) {
    Window w;
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("campaign"));
    const launcher::Campaign c = cancelledCampaign(dir, out);
    ASSERT_TRUE(openAndWait(w.panel, out));
    ASSERT_TRUE(waitUntil([&] {
        return w.panel->commandText().contains(QLatin1String("/bin/true"));
    })) << w.panel->commandText().toStdString();
    // The profile file goes away: were it read again, the view would say it cannot run.
    ASSERT_TRUE(QFile::rename(QString::fromStdString(c.profile),
                              dir.filePath(QStringLiteral("moved-away.json"))));
    w.form->iterations()->setValue(77);
    EXPECT_TRUE(waitUntil([&] {
        const QString t = w.panel->commandText();
        return t.contains(QLatin1String("/bin/true")) && t.contains(QLatin1String("77"));
    })) << w.panel->commandText().toStdString();
}

namespace {

// A wheel turn down over `w`'s middle, as the pointer sends it.
void turnWheel(QWidget* w) {
    const QPointF at(w->width() / 2.0, w->height() / 2.0);
    QWheelEvent e(at, w->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                  Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &e);
}

QScrollArea* scrollAreaOf(QWidget* w) {
    for (QWidget* p = w->parentWidget(); p; p = p->parentWidget())
        if (auto* area = qobject_cast<QScrollArea*>(p)) return area;
    return nullptr;
}

} // namespace

// Issue 27: scrolling the Run form turned whatever spin box passed under the pointer (batch
// 32 -> 19, warmup 10 -> 2). A field takes the wheel only once chosen; otherwise the form
// scrolls.
TEST(RunPanel, TheWheelScrollsTheFormAndEditsOnlyAFocusedField) {
    Window w;
    w.window.resize(1024, 700);
    w.window.show();
    w.window.showPage(ui::MainWindow::Run);
    w.window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&w.window));
    QSpinBox* warmup = w.form->warmup();
    QScrollArea* area = scrollAreaOf(warmup);
    ASSERT_TRUE(area);
    QScrollBar* bar = area->verticalScrollBar();
    ASSERT_GT(bar->maximum(), 0) << "the form fits: nothing to scroll";
    bar->setValue(0);
    w.panel->runButton()->setFocus();
    ASSERT_FALSE(warmup->hasFocus());
    EXPECT_NE(warmup->focusPolicy(), Qt::WheelFocus);
    for (QSpinBox* box : {warmup, w.form->batchSize(), w.form->iterations()}) {
        const int before = box->value();
        turnWheel(box);
        EXPECT_EQ(box->value(), before) << box->objectName().toStdString();
        // The line edit inside the spin box is what the pointer is over.
        turnWheel(box->findChild<QLineEdit*>());
        EXPECT_EQ(box->value(), before) << box->objectName().toStdString();
    }
    EXPECT_GT(bar->value(), 0) << "the wheel did not scroll the form";
    const int precision = w.form->precision()->currentIndex();
    turnWheel(w.form->precision());
    EXPECT_EQ(w.form->precision()->currentIndex(), precision);
    // Chosen, it takes the wheel as usual.
    warmup->setFocus();
    ASSERT_TRUE(waitUntil([&] { return warmup->hasFocus(); }, 2000));
    const int before = warmup->value();
    turnWheel(warmup);
    EXPECT_NE(warmup->value(), before);
}

// Issue 27: for "This machine" the panel showed hosts, an SSH config and three container
// fields, and batch, repeats, iterations and warmup sat below the fold at 1024x700.
TEST(RunPanel, ThisMachineShowsNoHostsNorContainerAndTheNumbersFitAt1024x700) {
    Window w;
    w.window.resize(1024, 700);
    w.window.show();
    w.window.showPage(ui::MainWindow::Run);
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w.window));
    ASSERT_EQ(w.form->where()->currentData().toString(), QStringLiteral("local"));
    QPushButton* import = nullptr;
    for (QPushButton* b : w.form->findChildren<QPushButton*>())
        if (b->text().contains(QLatin1String("SSH config"))) import = b;
    ASSERT_TRUE(import);
    EXPECT_FALSE(import->isVisibleTo(w.form));
    for (QLineEdit* e : {w.form->containerImage(), w.form->containerMounts(),
                         w.form->runningContainer()})
        EXPECT_FALSE(e->isVisibleTo(w.form));
    QScrollArea* area = scrollAreaOf(w.form->batchSize());
    ASSERT_TRUE(area);
    area->verticalScrollBar()->setValue(0);
    QCoreApplication::processEvents();
    for (QWidget* field : {static_cast<QWidget*>(w.form->batchSize()),
                           static_cast<QWidget*>(w.form->repeats()),
                           static_cast<QWidget*>(w.form->iterations()),
                           static_cast<QWidget*>(w.form->warmup())}) {
        const int bottom = field->mapTo(area->viewport(), QPoint(0, field->height())).y();
        EXPECT_LE(bottom, area->viewport()->height())
            << field->objectName().toStdString() << " is below the fold";
    }
    // Nothing in the form is wider than its pane: no sideways scrolling, no clipped row (the
    // adaptive repeats' row clipped "at most 1" at this size).
    EXPECT_FALSE(area->horizontalScrollBar()->isVisible())
        << "the form needs " << area->widget()->minimumSizeHint().width() << " px, has "
        << area->viewport()->width();
    // SSH hosts bring the table and its import; the tick brings the container rows.
    w.form->where()->setCurrentIndex(w.form->where()->findData(QStringLiteral("ssh")));
    EXPECT_TRUE(import->isVisibleTo(w.form));
    auto* use = w.form->findChild<QCheckBox*>(QStringLiteral("useContainer"));
    ASSERT_TRUE(use);
    use->setChecked(true);
    EXPECT_TRUE(w.form->containerImage()->isVisibleTo(w.form));
    // The Warnings dock is the analysis', not the Run panel's.
    auto* warnings = w.window.findChild<QDockWidget*>(QStringLiteral("warnings"));
    ASSERT_TRUE(warnings);
    EXPECT_FALSE(warnings->isVisible());
    w.window.showPage(ui::MainWindow::Results);
    EXPECT_TRUE(warnings->isVisible());
}

// Issue 27: the tabs jumped sideways when Controls hid on the Run page.
TEST(RunPanel, TheTabsStayPutWhenControlsHide) {
    Window w;
    w.window.resize(1024, 700);
    w.window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w.window));
    auto* tabs = w.window.findChild<QTabWidget*>();
    ASSERT_TRUE(tabs);
    w.window.showPage(ui::MainWindow::Results);
    QCoreApplication::processEvents();
    const QPoint before = tabs->tabBar()->mapTo(&w.window, QPoint(0, 0));
    w.window.showPage(ui::MainWindow::Run);
    QCoreApplication::processEvents();
    EXPECT_EQ(tabs->tabBar()->mapTo(&w.window, QPoint(0, 0)), before);
}

// Issue 27: the output pane stopped following once a long line brought the sideways bar.
TEST(RunProgressView, TheConsoleKeepsFollowingAfterASidewaysScroll) {
    ui::RunProgressView view;
    view.resize(500, 400);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    QScrollBar* bar = view.console()->verticalScrollBar();
    for (int i = 0; i < 200; ++i)
        view.appendLog(QStringLiteral("line %1").arg(i));
    QCoreApplication::processEvents();
    ASSERT_EQ(bar->value(), bar->maximum());
    view.appendLog(QString(600, QLatin1Char('x')));
    QCoreApplication::processEvents();
    view.console()->horizontalScrollBar()->setValue(200);
    QCoreApplication::processEvents();
    for (int i = 0; i < 20; ++i) {
        view.appendLog(QStringLiteral("more %1").arg(i));
        QCoreApplication::processEvents();
    }
    EXPECT_EQ(bar->value(), bar->maximum());
    // Scrolled up by the user, it stays where they read.
    bar->setValue(10);
    view.appendLog(QStringLiteral("later"));
    QCoreApplication::processEvents();
    EXPECT_EQ(bar->value(), 10);
}

// Issue 27: "Finished: all 6 runs ok" when every run was disturbed.
TEST(RunProgressView, TheFinishedHeadlineSaysEveryRunWasDisturbed) {
    ui::RunProgressView view;
    view.campaignFinished(false, 6, 6, 6);
    EXPECT_TRUE(view.currentText().contains(QLatin1String("disturbed"))) << view.currentText().toStdString();
    view.campaignFinished(false, 6, 6, 0);
    EXPECT_FALSE(view.currentText().contains(QLatin1String("disturbed")));
}

// Issue 37's polish: between the first run's end and the next run's progress the campaign bar
// said "ETA unknown", though one run's length was known. It estimates from the runs so far.
TEST(RunProgressView, AfterTheFirstRunTheCampaignHasAnEstimate) {
    ui::RunProgressView view;
    view.setPlan({QStringLiteral("1n1g_r1"), QStringLiteral("1n1g_r2"), QStringLiteral("1n1g_r3")},
                 {}, 100);
    EXPECT_TRUE(view.campaignBar()->format().contains(QLatin1String("ETA unknown")));
    view.runStarted(0, QStringLiteral("1n1g_r1"));
    QTest::qWait(1100);
    launcher::RunEnd end;
    end.state = launcher::RunState::Ok;
    end.timeThroughput = end.speedThroughput = 100.0;
    view.runFinished(0, end);
    const QString bar = view.campaignBar()->format();
    EXPECT_FALSE(bar.contains(QLatin1String("unknown"))) << bar.toStdString();
    // Two runs left, each about as long as the first (a little over a second).
    EXPECT_TRUE(bar.contains(QLatin1String("ETA 0:02")) || bar.contains(QLatin1String("ETA 0:03")))
        << bar.toStdString();
}
