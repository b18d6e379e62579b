#pragma once
// The desktop app's hidden options for documentation and tests, apart from main():
// --screenshot FILE --page results|throughput|speedup|runs|environment|history [--run N]
// [--efficiency] [--size WxH] grabs the window once the directory is loaded, and exits; without a
// LOG_DIR (and --page start) it grabs the start page. With --page run: [--campaign DIR|FILE]
// [--start] [--after SECONDS] grabs the Run panel (idle, after SECONDS while running, or once the
// started campaign has finished). --render-html FILE --screenshot OUT draws a report page.

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>

#include <optional>

namespace sv::ui {
class MainWindow;
}

namespace sv::app {

// The options main() and the driver share (--settings is shown in --help, the others hidden).
struct GuiOptions {
    GuiOptions();
    // Adds every option to cli.
    void addTo(QCommandLineParser& cli);

    QCommandLineOption screenshot, page, run, efficiency, peakPercent, settingsFile, campaign,
        start, after, windowSize, renderHtml;
};

// --render-html FILE with --screenshot OUT: the page drawn to OUT, and the exit status; nullopt
// when not asked for.
std::optional<int> renderHtmlIfAsked(const QCommandLineParser& cli, const GuiOptions& options);

// With --screenshot: arranges for the window to be grabbed once what it is to show is ready
// (directory is what main opens; empty for the start page), and for the app to exit then.
void armScreenshot(const QCommandLineParser& cli, const GuiOptions& options, ui::MainWindow& window,
                   const QString& directory);

} // namespace sv::app
