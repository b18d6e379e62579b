// scaleview: the desktop app. `scaleview [LOG_DIR...]` opens the window (on LOG_DIR if given;
// further directories join it as series of a comparison). The hidden options for documentation
// and tests (--screenshot and its company) are in screenshotdriver.h.

#include "app/gui/screenshotdriver.h"
#include "ui/settings/appsettings.h"
#include "ui/window/mainwindow.h"
#include "ui/widgets/teachdialog.h"
#include "core/formats/userformat.h"
#include "ui/run/runpanel.h"
#include "launcher/session/terminationsignals.h"
#include "version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QStyleFactory>
#include <QCheckBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QTimer>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>

using sv::ui::MainWindow;

namespace {

// --help and --version print and exit: they need no display, even on a headless machine.
void noDisplayToPrint(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        const bool printsOnly =
            a == "--help" || a == "-h" || a == "--help-all" || a == "--version" || a == "-v";
        if (printsOnly && !std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY") &&
            !std::getenv("QT_QPA_PLATFORM"))
            ::setenv("QT_QPA_PLATFORM", "offscreen", 1);
    }
}

void describeApp() {
    QApplication::setApplicationName(QStringLiteral("scaleview"));
    QApplication::setOrganizationName(QStringLiteral("ScaleView"));
    QApplication::setApplicationVersion(
        QStringLiteral(SCALEVIEW_VERSION " (" SCALEVIEW_GIT_REVISION ")"));
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
}

std::unique_ptr<sv::ui::AppSettings> openSettings(const QCommandLineParser& cli,
                                                  const sv::app::GuiOptions& options) {
    auto settings = cli.isSet(options.settingsFile)
                        ? std::make_unique<sv::ui::AppSettings>(cli.value(options.settingsFile))
                        : std::make_unique<sv::ui::AppSettings>();
    if (settings->wasBroken())
        std::fprintf(
            stderr,
            "scaleview: the settings file was unreadable; kept as %s.broken, using defaults\n",
            qPrintable(settings->fileName()));
    return settings;
}

// --size WxH; false (having said why) when it is not one.
bool applySize(const QCommandLineParser& cli, const sv::app::GuiOptions& options,
               MainWindow& window) {
    if (!cli.isSet(options.windowSize)) return true;
    const QStringList wh = cli.value(options.windowSize).split(QLatin1Char('x'));
    const int w = wh.value(0).toInt(), h = wh.value(1).toInt();
    if (wh.size() != 2 || w < 200 || h < 150) {
        std::fprintf(stderr, "scaleview: --size wants WIDTHxHEIGHT, e.g. 1024x700\n");
        return false;
    }
    window.resize(w, h);
    return true;
}

} // namespace

int main(int argc, char** argv) {
    // A file size limit (ulimit -f) reached is a write error (EFBIG) the run reports and
    // records, not a signal that kills the app with its runs still going.
    std::signal(SIGXFSZ, SIG_IGN);
    noDisplayToPrint(argc, argv);
    QApplication app(argc, argv);
    describeApp();

    QCommandLineParser cli;
    cli.setApplicationDescription(
        QStringLiteral("DLPerf-style throughput benchmarks, against the published tables."));
    cli.addHelpOption();
    cli.addVersionOption();
    cli.addPositionalArgument(QStringLiteral("LOG_DIR"),
                              QStringLiteral("A DLPerf log directory to open (default: the last "
                                             "one opened, or the start page); more directories "
                                             "are compared with it, each a named series."),
                              QStringLiteral("[LOG_DIR...]"));
    sv::app::GuiOptions options;
    options.addTo(cli);
    // Teach ScaleView this Log on FILE (with --screenshot: the dialog grabbed once its preview
    // has read the file, then exit).
    QCommandLineOption teach(QStringLiteral("teach"),
                             QStringLiteral("Open \"Teach ScaleView this Log\" on FILE."),
                             QStringLiteral("FILE"));
    cli.addOption(teach);
    // For a screenshot of the step-rate preview: the box ticked and its batch and GPUs given,
    // as a user does once the draft is shown.
    QCommandLineOption teachBatch(
        QStringLiteral("teach-batch"),
        QStringLiteral("With --teach: tick \"The value is steps/s\" with batch N per GPU."),
        QStringLiteral("N"));
    QCommandLineOption teachGpus(QStringLiteral("teach-gpus"),
                                 QStringLiteral("With --teach-batch: the GPU count (a number or a "
                                                "pattern) for the step's global batch."),
                                 QStringLiteral("COUNT"));
    cli.addOption(teachBatch);
    cli.addOption(teachGpus);
    cli.process(app);
    if (const auto rendered = sv::app::renderHtmlIfAsked(cli, options)) return *rendered;
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/scaleview.svg")));
    QApplication::setDesktopFileName(QStringLiteral("io.github.scaleview.ScaleView"));

    // The user's own formats (~/.config/scaleview/formats), read before any log is.
    std::vector<std::string> refusedFormats;
    sv::loadUserFormats(&refusedFormats);
    for (const auto& r : refusedFormats)
        std::fprintf(stderr, "scaleview: user format left out: %s\n", r.c_str());
    const auto settings = openSettings(cli, options);
    MainWindow window(settings.get());
    // SIGTERM, SIGINT or SIGHUP close the window as a user would: a running campaign is cancelled
    // first (TERM, grace, KILL; journal flushed), then the app quits.
    sv::launcher::TerminationSignals termination;
    QObject::connect(&termination, &sv::launcher::TerminationSignals::received, &window,
                     [&window] { window.closeWithoutAsking(); });
    if (!applySize(cli, options, window)) return 2;

    // Without a directory: the last one again (File › Reopen the Last Directory at Start), or the
    // start page, which says what the app is for and offers the ways in.
    const bool campaign = cli.isSet(options.campaign);
    QString directory = cli.positionalArguments().value(0);
    if (directory.isEmpty() && !campaign && !cli.isSet(options.screenshot))
        directory = window.directoryToReopen();
    if (directory.isEmpty() && !campaign) window.showStartPage();
    if (campaign) window.runPanel()->openCampaign(cli.value(options.campaign));
    if (!cli.isSet(teach)) sv::app::armScreenshot(cli, options, window, directory);
    window.show();
    if (cli.isSet(teach)) {
        auto* dialog = sv::ui::openTeachDialog(&window, cli.value(teach));
        // The step rate is set once the draft is shown (a draft read later fills the fields).
        auto applyStepRate = [dialog, batch = cli.value(teachBatch).toInt(),
                              gpus = cli.value(teachGpus)]() {
            // The GPU count first: setText is no edit, the box and the batch then read it.
            if (!gpus.isEmpty()) dialog->gpusEdit()->setText(gpus);
            dialog->stepRateChoice()->setChecked(true);
            dialog->batchEdit()->setValue(batch);
        };
        if (cli.isSet(options.screenshot)) {
            const QString file = cli.value(options.screenshot);
            auto* poll = new QTimer(&window);
            QObject::connect(
                poll, &QTimer::timeout, &window,
                [dialog, file, poll, &app, applyStepRate, ticks = 0,
                 pending = cli.isSet(teachBatch)]() mutable {
                    // At most 30 s: a log with no line to suggest has no preview to wait for.
                    const bool done = !dialog->loadError().isEmpty() || ++ticks > 300 ||
                                      (dialog->ready() && !dialog->previewRunning() &&
                                       dialog->previewMatches().has_value());
                    if (!done) return;
                    if (pending && dialog->ready()) {
                        pending = false;
                        applyStepRate(); // a new preview starts: wait for it
                        return;
                    }
                    poll->stop();
                    const bool ok = dialog->grab().save(file);
                    if (!ok) std::fprintf(stderr, "scaleview: cannot write %s\n", qPrintable(file));
                    app.exit(ok ? 0 : 1);
                });
            poll->start(100);
        } else if (cli.isSet(teachBatch)) {
            auto* wait = new QTimer(dialog);
            QObject::connect(wait, &QTimer::timeout, dialog, [dialog, wait, applyStepRate] {
                if (!dialog->ready()) return;
                wait->stop();
                applyStepRate();
            });
            wait->start(100);
        }
    }
    if (!directory.isEmpty()) window.openDirectory(directory);
    for (const QString& other : cli.positionalArguments().mid(1))
        window.addToComparison(other);
    return app.exec();
}
