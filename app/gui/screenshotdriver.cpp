// The screenshot driver behind the desktop app's hidden options (see screenshotdriver.h).

#include "app/gui/screenshotdriver.h"

#include "ui/history/historypage.h"
#include "ui/history/nodespage.h"
#include "ui/export/reportrender.h"
#include "ui/window/mainwindow.h"
#include "ui/run/runpanel.h"
#include "ui/browse/runspage.h"
#include "ui/browse/chartpage.h"
#include "ui/browse/speeduppage.h"

#include <QApplication>
#include <QFile>
#include <QImage>
#include <QPixmap>
#include <QTimer>

#include <cstdio>

namespace sv::app {
namespace {

using ui::MainWindow;

// Saves the window to file, says so (unless quiet), and exits with whether it could.
void grabAndExit(MainWindow& window, const QString& file, bool say = true) {
    const bool ok = window.grab().save(file);
    if (say)
        std::fprintf(ok ? stdout : stderr, "%s %s\n", ok ? "wrote" : "cannot write",
                     qPrintable(file));
    QApplication::exit(ok ? 0 : 1);
}

// --page run: the Run panel, idle, after --after SECONDS, or once a --start'ed campaign ends.
void armRunPage(const QCommandLineParser& cli, const GuiOptions& o, MainWindow& window) {
    window.showPage(MainWindow::Run);
    const QString file = cli.value(o.screenshot);
    auto grab = [&window, file] { grabAndExit(window, file); };
    if (cli.isSet(o.start)) QTimer::singleShot(500, window.runPanel(), &ui::RunPanel::run);
    if (cli.isSet(o.after))
        QTimer::singleShot(static_cast<int>(cli.value(o.after).toDouble() * 1000), &window, grab);
    else if (cli.isSet(o.start))
        QObject::connect(window.runPanel(), &ui::RunPanel::campaignFinished, &window,
                         [&window, grab] { QTimer::singleShot(4000, &window, grab); });
    else
        QTimer::singleShot(1500, &window, grab);
}

// A page of the directory opened: grabbed once it (and every compared series) is loaded.
void armAnalysisPage(const QCommandLineParser& cli, const GuiOptions& o, MainWindow& window) {
    static const QStringList pages{QStringLiteral("results"), QStringLiteral("throughput"),
                                   QStringLiteral("speedup"), QStringLiteral("runs"),
                                   QStringLiteral("run"),     QStringLiteral("environment"),
                                   QStringLiteral("history"), QStringLiteral("nodes")};
    const QString page = cli.value(o.page);
    window.showPage(static_cast<MainWindow::Page>(qMax(0, pages.indexOf(page))));
    window.speedupPage()->setEfficiency(cli.isSet(o.efficiency));
    if (cli.isSet(o.peakPercent))
        window.throughputPage()->setScale(ui::ThroughputScale::PeakPercent);
    const QString file = cli.value(o.screenshot);
    const int runIndex = cli.value(o.run).toInt();
    const qsizetype wanted = cli.positionalArguments().size() - 1;
    QObject::connect(
        &window, &MainWindow::analysisShown, &window,
        [&window, file, runIndex, page, wanted](ui::AnalysisPtr a) {
            if (!a->complete) return;
            // Every series of a comparison loaded, not only the first.
            if (static_cast<qsizetype>(a->others.size()) < wanted) return;
            for (const auto& other : a->others)
                if (!other.complete) return;
            // The History page reads its database in the background.
            if (page == QLatin1String("history") && window.historyPage()->isLoading()) {
                QObject::connect(
                    window.historyPage(), &ui::HistoryPage::loaded, &window, [&window, file] {
                        QTimer::singleShot(400, &window,
                                           [&window, file] { grabAndExit(window, file, false); });
                    });
                return;
            }
            // So does the Nodes page (read each time it is shown).
            if (page == QLatin1String("nodes") && window.nodesPage()->isLoading()) {
                QObject::connect(
                    window.nodesPage(), &ui::NodesPage::loaded, &window, [&window, file] {
                        QTimer::singleShot(400, &window,
                                           [&window, file] { grabAndExit(window, file, false); });
                    });
                return;
            }
            if (page == QLatin1String("runs")) window.runsPage()->selectRun(runIndex);
            // One more turn of the event loop so that views lay out before the grab.
            QTimer::singleShot(400, &window, [&window, file] { grabAndExit(window, file); });
        });
    QTimer::singleShot(60000, QCoreApplication::instance(), [] {
        std::fputs("scaleview: nothing loaded within 60 s\n", stderr);
        QApplication::exit(1);
    });
}

} // namespace

GuiOptions::GuiOptions()
    : screenshot(QStringLiteral("screenshot"),
                 QStringLiteral("Save the window to FILE once loaded, then exit."),
                 QStringLiteral("FILE")),
      page(QStringLiteral("page"),
           QStringLiteral("results|throughput|speedup|runs|environment|history|nodes"),
           QStringLiteral("PAGE")),
      run(QStringLiteral("run"), QStringLiteral("Select the N-th run (Runs page)."),
          QStringLiteral("N")),
      efficiency(QStringLiteral("efficiency"),
                 QStringLiteral("Show scaling efficiency on the Speedup page.")),
      peakPercent(QStringLiteral("peak-percent"),
                  QStringLiteral("Show percent of peak on the Throughput page.")),
      settingsFile(QStringLiteral("settings"), QStringLiteral("Use this INI file for settings."),
                   QStringLiteral("INI")),
      campaign(QStringLiteral("campaign"),
               QStringLiteral("Open this campaign (its directory, or a "
                              "campaign file) in the Run panel."),
               QStringLiteral("DIR|FILE")),
      start(QStringLiteral("start"), QStringLiteral("Press Run (with --page run).")),
      after(QStringLiteral("after"), QStringLiteral("Grab after SECONDS (with --page run)."),
            QStringLiteral("SECONDS")),
      windowSize(QStringLiteral("size"),
                 QStringLiteral("Window size for --screenshot, e.g. 1024x700."),
                 QStringLiteral("WxH")),
      renderHtml(QStringLiteral("render-html"),
                 QStringLiteral("Draw this report page to --screenshot, then exit."),
                 QStringLiteral("FILE")) {}

void GuiOptions::addTo(QCommandLineParser& cli) {
    for (auto* o : {&screenshot, &page, &run, &efficiency, &peakPercent, &settingsFile, &campaign,
                    &start, &after, &windowSize}) {
        if (o != &settingsFile) o->setFlags(QCommandLineOption::HiddenFromHelp);
        cli.addOption(*o);
    }
    renderHtml.setFlags(QCommandLineOption::HiddenFromHelp);
    cli.addOption(renderHtml);
}

std::optional<int> renderHtmlIfAsked(const QCommandLineParser& cli, const GuiOptions& o) {
    if (!cli.isSet(o.renderHtml) || !cli.isSet(o.screenshot)) return std::nullopt;
    QFile in(cli.value(o.renderHtml));
    if (!in.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "scaleview: cannot read %s\n", qPrintable(cli.value(o.renderHtml)));
        return 2;
    }
    const QImage image = ui::ReportRender::render(QString::fromUtf8(in.readAll()), 1200, 2400);
    const bool ok = image.save(cli.value(o.screenshot));
    std::fprintf(ok ? stdout : stderr, "%s %s\n", ok ? "wrote" : "cannot write",
                 qPrintable(cli.value(o.screenshot)));
    return ok ? 0 : 1;
}

void armScreenshot(const QCommandLineParser& cli, const GuiOptions& o, MainWindow& window,
                   const QString& directory) {
    if (!cli.isSet(o.screenshot)) return;
    if (cli.value(o.page) == QLatin1String("run")) {
        armRunPage(cli, o, window);
    } else if (directory.isEmpty()) {
        // The start page (or --page run without a campaign): nothing to load, grab once shown.
        const QString file = cli.value(o.screenshot);
        QTimer::singleShot(800, &window, [&window, file] { grabAndExit(window, file); });
    } else {
        armAnalysisPage(cli, o, window);
    }
}

} // namespace sv::app
