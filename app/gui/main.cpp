// scaleview: the desktop app. `scaleview [LOG_DIR...]` opens the window (on LOG_DIR if given;
// further directories join it as series of a comparison).
// Hidden options for documentation and tests: --screenshot FILE --page
// results|throughput|speedup|runs|environment|history
// [--run N] [--efficiency] [--settings INI] [--size WxH] grabs the window once the directory is
// loaded, and exits; without a LOG_DIR (and --page start) it grabs the start page. With --page run:
// [--campaign DIR|FILE] [--start] [--after SECONDS] grabs the Run panel (idle, after SECONDS while
// running, or once the started campaign has finished).

#include "ui/window/appsettings.h"
#include "ui/history/historypage.h"
#include "ui/window/reportrender.h"
#include "ui/window/mainwindow.h"
#include "ui/window/teachdialog.h"
#include "core/parse/userformat.h"
#include "ui/run/runpanel.h"
#include "ui/browse/runspage.h"
#include "ui/browse/speeduppage.h"
#include "launcher/runner/terminationsignals.h"
#include "version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFile>
#include <QIcon>
#include <QPixmap>
#include <QStyleFactory>
#include <QTimer>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <memory>

using sv::ui::MainWindow;

int main(int argc, char** argv) {
    // A file size limit (ulimit -f) reached is a write error (EFBIG) the run reports and
    // records, not a signal that kills the app with its runs still going.
    std::signal(SIGXFSZ, SIG_IGN);
    // --help and --version print and exit: they need no display, even on a headless machine.
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        const bool printsOnly =
            a == "--help" || a == "-h" || a == "--help-all" || a == "--version" || a == "-v";
        if (printsOnly && !std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY") &&
            !std::getenv("QT_QPA_PLATFORM"))
            ::setenv("QT_QPA_PLATFORM", "offscreen", 1);
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("scaleview"));
    QApplication::setOrganizationName(QStringLiteral("ScaleView"));
    QApplication::setApplicationVersion(
        QStringLiteral(SCALEVIEW_VERSION " (" SCALEVIEW_GIT_REVISION ")"));
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));

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
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                  QStringLiteral("Save the window to FILE once loaded, then exit."),
                                  QStringLiteral("FILE"));
    QCommandLineOption page(QStringLiteral("page"),
                            QStringLiteral("results|throughput|speedup|runs|environment|history"),
                            QStringLiteral("PAGE"));
    QCommandLineOption run(QStringLiteral("run"),
                           QStringLiteral("Select the N-th run (Runs page)."), QStringLiteral("N"));
    QCommandLineOption efficiency(QStringLiteral("efficiency"),
                                  QStringLiteral("Show scaling efficiency on the Speedup page."));
    QCommandLineOption settingsFile(QStringLiteral("settings"),
                                    QStringLiteral("Use this INI file for settings."),
                                    QStringLiteral("INI"));
    QCommandLineOption campaign(QStringLiteral("campaign"),
                                QStringLiteral("Open this campaign (its directory, or a "
                                               "campaign file) in the Run panel."),
                                QStringLiteral("DIR|FILE"));
    QCommandLineOption start(QStringLiteral("start"),
                             QStringLiteral("Press Run (with --page run)."));
    QCommandLineOption after(QStringLiteral("after"),
                             QStringLiteral("Grab after SECONDS (with --page run)."),
                             QStringLiteral("SECONDS"));
    QCommandLineOption windowSize(QStringLiteral("size"),
                                  QStringLiteral("Window size for --screenshot, e.g. 1024x700."),
                                  QStringLiteral("WxH"));
    for (auto* o : {&screenshot, &page, &run, &efficiency, &settingsFile, &campaign, &start, &after,
                    &windowSize}) {
        if (o != &settingsFile) o->setFlags(QCommandLineOption::HiddenFromHelp);
        cli.addOption(*o);
    }
    QCommandLineOption renderHtml(
        QStringLiteral("render-html"),
        QStringLiteral("Draw this report page to --screenshot, then exit."),
        QStringLiteral("FILE"));
    renderHtml.setFlags(QCommandLineOption::HiddenFromHelp);
    cli.addOption(renderHtml);
    // Teach ScaleView this Log on FILE (with --screenshot: the dialog grabbed once its preview
    // has read the file, then exit).
    QCommandLineOption teach(QStringLiteral("teach"),
                             QStringLiteral("Open \"Teach ScaleView this Log\" on FILE."),
                             QStringLiteral("FILE"));
    cli.addOption(teach);
    cli.process(app);
    if (cli.isSet(renderHtml) && cli.isSet(screenshot)) {
        QFile in(cli.value(renderHtml));
        if (!in.open(QIODevice::ReadOnly)) {
            std::fprintf(stderr, "scaleview: cannot read %s\n", qPrintable(cli.value(renderHtml)));
            return 2;
        }
        const QImage image =
            sv::ui::ReportRender::render(QString::fromUtf8(in.readAll()), 1200, 2400);
        const bool ok = image.save(cli.value(screenshot));
        std::fprintf(ok ? stdout : stderr, "%s %s\n", ok ? "wrote" : "cannot write",
                     qPrintable(cli.value(screenshot)));
        return ok ? 0 : 1;
    }
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/scaleview.svg")));
    QApplication::setDesktopFileName(QStringLiteral("io.github.scaleview.ScaleView"));

    // The user's own formats (~/.config/scaleview/formats), read before any log is.
    std::vector<std::string> refusedFormats;
    sv::loadUserFormats(&refusedFormats);
    for (const auto& r : refusedFormats)
        std::fprintf(stderr, "scaleview: user format left out: %s\n", r.c_str());
    auto settings = cli.isSet(settingsFile)
                        ? std::make_unique<sv::ui::AppSettings>(cli.value(settingsFile))
                        : std::make_unique<sv::ui::AppSettings>();
    if (settings->wasBroken())
        std::fprintf(
            stderr,
            "scaleview: the settings file was unreadable; kept as %s.broken, using defaults\n",
            qPrintable(settings->fileName()));
    MainWindow window(settings.get());
    // SIGTERM, SIGINT or SIGHUP close the window as a user would: a running campaign is cancelled
    // first (TERM, grace, KILL; journal flushed), then the app quits.
    sv::launcher::TerminationSignals termination;
    QObject::connect(&termination, &sv::launcher::TerminationSignals::received, &window,
                     [&window] { window.closeWithoutAsking(); });
    if (cli.isSet(windowSize)) {
        const QStringList wh = cli.value(windowSize).split(QLatin1Char('x'));
        const int w = wh.value(0).toInt(), h = wh.value(1).toInt();
        if (wh.size() != 2 || w < 200 || h < 150) {
            std::fprintf(stderr, "scaleview: --size wants WIDTHxHEIGHT, e.g. 1024x700\n");
            return 2;
        }
        window.resize(w, h);
    }

    // Without a directory: the last one again (File › Reopen the Last Directory at Start), or the
    // start page, which says what the app is for and offers the ways in.
    QString directory = cli.positionalArguments().value(0);
    if (directory.isEmpty() && !cli.isSet(campaign) && !cli.isSet(screenshot))
        directory = window.directoryToReopen();
    if (directory.isEmpty() && !cli.isSet(campaign)) window.showStartPage();
    if (cli.isSet(campaign)) window.runPanel()->openCampaign(cli.value(campaign));
    if (cli.isSet(teach)) {
        // The teach dialog is grabbed below, once shown.
    } else if (cli.isSet(screenshot) && cli.value(page) == QLatin1String("run")) {
        window.showPage(MainWindow::Run);
        const QString file = cli.value(screenshot);
        auto grab = [&window, file] {
            const bool ok = window.grab().save(file);
            std::fprintf(ok ? stdout : stderr, "%s %s\n", ok ? "wrote" : "cannot write",
                         qPrintable(file));
            QApplication::exit(ok ? 0 : 1);
        };
        if (cli.isSet(start)) QTimer::singleShot(500, window.runPanel(), &sv::ui::RunPanel::run);
        if (cli.isSet(after))
            QTimer::singleShot(static_cast<int>(cli.value(after).toDouble() * 1000), &window, grab);
        else if (cli.isSet(start))
            QObject::connect(window.runPanel(), &sv::ui::RunPanel::campaignFinished, &window,
                             [&window, grab] { QTimer::singleShot(4000, &window, grab); });
        else
            QTimer::singleShot(1500, &window, grab);
    } else if (cli.isSet(screenshot) && directory.isEmpty()) {
        // The start page (or --page run without a campaign): nothing to load, grab once shown.
        const QString file = cli.value(screenshot);
        QTimer::singleShot(800, &window, [&window, file] {
            const bool ok = window.grab().save(file);
            std::fprintf(ok ? stdout : stderr, "%s %s\n", ok ? "wrote" : "cannot write",
                         qPrintable(file));
            QApplication::exit(ok ? 0 : 1);
        });
    } else if (cli.isSet(screenshot)) {
        static const QStringList pages{QStringLiteral("results"), QStringLiteral("throughput"),
                                       QStringLiteral("speedup"), QStringLiteral("runs"),
                                       QStringLiteral("run"),     QStringLiteral("environment"),
                                       QStringLiteral("history")};
        window.showPage(static_cast<MainWindow::Page>(qMax(0, pages.indexOf(cli.value(page)))));
        window.speedupPage()->setEfficiency(cli.isSet(efficiency));
        const QString file = cli.value(screenshot);
        const int runIndex = cli.value(run).toInt();
        QObject::connect(&window, &MainWindow::analysisShown, &window,
                         [&, file, runIndex](sv::ui::AnalysisPtr a) {
                             if (!a->complete) return;
                             // Every series of a comparison loaded, not only the first.
                             const auto wanted = cli.positionalArguments().size() - 1;
                             if (static_cast<qsizetype>(a->others.size()) < wanted) return;
                             for (const auto& o : a->others)
                                 if (!o.complete) return;
                             // The History page reads its database in the background.
                             if (cli.value(page) == QLatin1String("history") &&
                                 window.historyPage()->isLoading()) {
                                 QObject::connect(
                                     window.historyPage(), &sv::ui::HistoryPage::loaded, &window,
                                     [&window, file] {
                                         QTimer::singleShot(400, &window, [&window, file] {
                                             const bool ok = window.grab().save(file);
                                             QApplication::exit(ok ? 0 : 1);
                                         });
                                     });
                                 return;
                             }
                             if (cli.value(page) == QLatin1String("runs"))
                                 window.runsPage()->selectRun(runIndex);
                             // One more turn of the event loop so that views lay out before the
                             // grab.
                             QTimer::singleShot(400, &window, [&window, file] {
                                 const bool ok = window.grab().save(file);
                                 std::fprintf(ok ? stdout : stderr, "%s %s\n",
                                              ok ? "wrote" : "cannot write", qPrintable(file));
                                 QApplication::exit(ok ? 0 : 1);
                             });
                         });
        QTimer::singleShot(60000, &app, [] {
            std::fputs("scaleview: nothing loaded within 60 s\n", stderr);
            QApplication::exit(1);
        });
    }
    window.show();
    if (cli.isSet(teach)) {
        auto* dialog = sv::ui::openTeachDialog(&window, cli.value(teach));
        if (cli.isSet(screenshot)) {
            const QString file = cli.value(screenshot);
            auto* poll = new QTimer(&window);
            QObject::connect(poll, &QTimer::timeout, &window, [dialog, file, poll, &app, ticks = 0]() mutable {
                // At most 30 s: a log with no line to suggest has no preview to wait for.
                const bool done = !dialog->loadError().isEmpty() || ++ticks > 300 ||
                                  (dialog->ready() && !dialog->previewRunning() &&
                                   dialog->previewMatches().has_value());
                if (!done) return;
                poll->stop();
                const bool ok = dialog->grab().save(file);
                if (!ok) std::fprintf(stderr, "scaleview: cannot write %s\n", qPrintable(file));
                app.exit(ok ? 0 : 1);
            });
            poll->start(100);
        }
    }
    if (!directory.isEmpty()) window.openDirectory(directory);
    for (const QString& other : cli.positionalArguments().mid(1))
        window.addToComparison(other);
    return app.exec();
}
