// The Run panel as a user drives it (offscreen): a tiny local campaign of the real CPU workload
// set up through the widgets, Run, progress and the results filling in; Cancel mid-run leaving
// no process; reopening offering Resume; topologies the hosts cannot run greyed out with why.

#include "uifixture.h"

#include "analysiscontroller.h"
#include "appsettings.h"
#include "campaignform.h"
#include "casetablemodel.h"
#include "hosttablemodel.h"
#include "mainwindow.h"
#include "resultspage.h"
#include "runcapacity.h"
#include "runcontroller.h"
#include "runmonitor.h"
#include "runpanel.h"
#include "sshconfighosts.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QThread>

#include <gtest/gtest.h>

using namespace sv;
using namespace sv::test;

namespace {

struct Window : AppWindow {
    ui::RunPanel* panel = window.runPanel();
    ui::CampaignForm* form = panel->form();
};

// Processes whose command line mentions `needle` (the campaign's directory): the workload's
// script lives there, so any rank or launcher left behind shows up.
std::vector<int> processesMentioning(const std::string& needle) {
    std::vector<int> found;
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::string cmd = slurpFile(e.path() / "cmdline");
        std::replace(cmd.begin(), cmd.end(), '\0', ' ');
        const std::string stat = slurpFile(e.path() / "stat");
        const bool zombie = stat.find(") Z ") != std::string::npos;
        if (!zombie && cmd.find(needle) != std::string::npos) found.push_back(std::stoi(name));
    }
    return found;
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
        labelled = labelled || label->text() == QLatin1String("ResNet-50 v1.5, PyTorch, CPU, "
                                                              "synthetic data");
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
    ASSERT_TRUE(w.panel->saveCampaign(file));
    std::string error;
    const auto saved = launcher::loadCampaign(file.toStdString(), &error);
    ASSERT_TRUE(saved) << error;
    EXPECT_EQ(saved->iterations, 7);
    EXPECT_EQ(saved->precisions, std::vector<std::string>{"fp16-noamp"});
    EXPECT_EQ(saved->launcher, "torchrun");

    Window other;
    ASSERT_TRUE(other.panel->openCampaign(file));
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
    ASSERT_TRUE(w.panel->openCampaign(file));
    auto shown = w.form->campaign();
    EXPECT_EQ(shown.profile, c.profile);
    EXPECT_EQ(shown.batchSizes, (std::vector<int>{8, 16}));
    EXPECT_EQ(shown.precisions, (std::vector<std::string>{"fp32", "fp16"}));
    // Changing the batch shown means that batch alone.
    w.form->batchSize()->setValue(32);
    EXPECT_EQ(w.form->campaign().batchSizes, std::vector<int>{32});
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
    EXPECT_EQ(w.panel->monitor()->runsTable()->item(0, 1)->text(), QStringLiteral("ok"));
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
    ASSERT_TRUE(again.panel->openCampaign(out));
    EXPECT_TRUE(again.panel->resumeButton()->isEnabled());
    EXPECT_TRUE(again.panel->bannerText().contains(QLatin1String("Resume")))
        << again.panel->bannerText().toStdString();
    EXPECT_EQ(again.panel->monitor()->runsTable()->item(0, 1)->text(), QStringLiteral("cancelled"));
}
