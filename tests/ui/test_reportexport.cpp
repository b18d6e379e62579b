// File › Export › Report (HTML) driven as a user does it, offscreen: the save dialog answered,
// the report written off the GUI thread, then read back with QXmlStreamReader: well-formed,
// every case's median and speedup, both charts inline as SVG, the excluded run with its reason,
// the campaign file and the environment.

#include "tests/ui/dialoganswer.h"
#include "tests/ui/uifixture.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/window/exportmenu.h"
#include "ui/window/mainwindow.h"
#include "core/report/report.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <gtest/gtest.h>

using namespace sv;
using namespace sv::test;

TEST(ReportExport, FileExportReportWritesAWellFormedPageWithEveryFigure) {
    TempDir dir;
    CampaignSpec spec;
    spec.batch = 128;
    spec.topologies = {{1, 1}, {1, 2}};
    writeCampaign(dir / "logs", spec);
    writeFile(logPath(dir / "logs", spec, 1, 2, 4), runText(spec, 2, 4, 30)); // cut short
    writeFile(dir / "campaign.json", "{\"warmup\": 20, \"iterations\": 120, \"note\": \"<&>\"}\n");
    writeFile(dir / "environment" / "node1.txt", "NVIDIA driver 535 & CUDA 12\n");
    AppWindow w;
    w.window.show();
    w.window.openDirectory(QString::fromStdString((dir / "logs").string()));
    ASSERT_TRUE(waitUntil([&] {
        auto a = w.window.analysis()->current();
        return a && a->complete && !w.window.analysis()->isBusy() && a->summary.runs.size() == 7u;
    }));
    const auto analysis = w.window.analysis()->current();

    QAction* action = w.window.findChild<QAction*>(QStringLiteral("exportReport"));
    ASSERT_TRUE(action);
    ASSERT_TRUE(action->isEnabled());
    const QString target = QString::fromStdString((dir / "out" / "report.html").string());
    std::filesystem::create_directories(dir / "out");
    FileDialogAnswer answer(target); // the dialog runs its own event loop inside trigger()
    QSignalSpy written(&w.window, &ui::MainWindow::reportExported);
    action->trigger();
    ASSERT_TRUE(waitUntil([&] { return written.count() == 1; }, 30000));
    EXPECT_EQ(written.at(0).at(0).toString(), target);

    QFile file(target);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);
    QStringList cells, pres;
    int svgs = 0;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement) continue;
        if (xml.name() == QLatin1String("svg")) {
            ++svgs;
            xml.skipCurrentElement(); // the chart's own elements
        } else if (xml.name() == QLatin1String("td")) {
            cells << xml.readElementText(QXmlStreamReader::IncludeChildElements);
        } else if (xml.name() == QLatin1String("pre")) {
            pres << xml.readElementText();
        }
    }
    ASSERT_FALSE(xml.hasError()) << xml.errorString().toStdString() << " at line "
                                 << xml.lineNumber();
    EXPECT_EQ(svgs, 2); // throughput and speedup
    for (const auto& c : analysis->summary.cases) {
        ASSERT_TRUE(c.median);
        EXPECT_TRUE(cells.contains(QString::fromStdString(formatFixed(*c.median, 2)))) << *c.median;
        EXPECT_TRUE(cells.contains(QString::fromStdString(formatFixed(*c.speedup, 2))))
            << *c.speedup;
    }
    EXPECT_TRUE(std::any_of(cells.begin(), cells.end(), [](const QString& c) {
        return c.endsWith(QLatin1String("r50_b128_fp32_4.log"));
    })) << cells.join(QLatin1Char('|')).toStdString();
    EXPECT_TRUE(pres.contains(QStringLiteral("NVIDIA driver 535 & CUDA 12\n")));
    EXPECT_TRUE(std::any_of(pres.begin(), pres.end(), [](const QString& p) {
        return p.contains(QLatin1String("\"note\": \"<&>\""));
    }));
}

// Issue 37: the first export was suggested in the log directory (a shared or read-only data
// folder, whose logs are not to be mixed with outputs); now the last export's folder, else the
// user's Documents, else home.
TEST(ExportFolder, TheLastExportsFolderElseDocumentsNeverTheLogDirectory) {
    QTemporaryDir last;
    EXPECT_EQ(ui::ExportMenu::exportFolder(last.path()), last.path());
    const QString fallback = ui::ExportMenu::exportFolder(QString());
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    EXPECT_EQ(fallback, QFileInfo(documents).isDir() ? documents : QDir::homePath());
    EXPECT_EQ(ui::ExportMenu::exportFolder(last.path() + "/gone"), fallback);
}
