// Issue 39, the app's side: a .svbundle opened in the real window (offscreen) is checked off
// the GUI thread and shown as its folder would be, with its verdict above every page, in the
// title and in every export; a refused one is an error and nothing shown; File › Export ›
// Campaign Bundle… writes a bundle that verifyBundle verifies.

#include "tests/ui/uifixture.h"
#include "tests/support/gunzip.h"

#include "core/bundle/bundleverify.h"
#include "core/bundle/gzipwriter.h"
#include "core/report/report.h"
#include "launcher/session/campaignbundle.h"
#include "ui/analysis/analysiscontroller.h"
#include "ui/analysis/loadcontroller.h"
#include "ui/export/exportcontroller.h"
#include "ui/export/reportexport.h"
#include "ui/widgets/bundlebanner.h"
#include "ui/window/bundleflow.h"
#include "ui/window/bundleopener.h"
#include "ui/window/mainwindow.h"

#include <QFile>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <zlib.h>

#include <algorithm>
#include <fstream>

using namespace sv;
using namespace sv::test;

namespace {

namespace fs = std::filesystem;

std::string readBytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

void writeBytes(const fs::path& p, const std::string& bytes) {
    std::ofstream(p, std::ios::binary) << bytes;
}

// The offset in tar of the content of the entry whose name ends with name; npos if none.
std::size_t entryContent(const std::string& tar, const std::string& name) {
    for (std::size_t at = 0; at + 512 <= tar.size();) {
        const char* h = tar.data() + at;
        if (h[0] == '\0') break;
        const std::string entry(h, strnlen(h, 100));
        const std::size_t size = std::stoull(std::string(h + 124, 11), nullptr, 8);
        if (entry.size() >= name.size() &&
            entry.compare(entry.size() - name.size(), name.size(), name) == 0)
            return at + 512;
        at += 512 + (size + 511) / 512 * 512;
    }
    return std::string::npos;
}

// A campaign folder of 9 runs, and its bundle written as both front ends write one.
struct BundledCampaign {
    TempDir dir;
    fs::path campaign = dir / "campaign";
    fs::path bundle = dir / "campaign.svbundle";

    BundledCampaign() {
        writeCampaign(campaign);
        CampaignBundleOptions o;
        o.campaignDir = campaign;
        o.output = bundle;
        o.scaleviewVersion = "test";
        const CampaignBundleWritten w = writeCampaignBundle(o);
        EXPECT_FALSE(w.error || w.badWindow) << w.error.value_or(w.badWindow.value_or(""));
    }
    // The bundle with one digit of one log's speeds changed, repacked as the writer packs it:
    // the manifest's SHA-256 of that log no longer matches.
    fs::path tampered() {
        std::string tar = gunzip(readBytes(bundle));
        const std::size_t log = entryContent(tar, "1n2g/r50_b64_fp32_2.log");
        EXPECT_NE(log, std::string::npos);
        // A digit well inside the log (past its header lines): 3 becomes 4, or anything else 3.
        std::size_t at = tar.find_first_of("0123456789", log + 400);
        tar[at] = tar[at] == '3' ? '4' : '3';
        GzipWriter gz;
        gz.write(tar);
        const fs::path out = dir / "tampered.svbundle";
        writeBytes(out, gz.finish());
        return out;
    }
    QString q(const fs::path& p) const { return QString::fromStdString(p.string()); }
};

bool waitShown(AppWindow& w, std::size_t runs) {
    return w.waitFor([runs](const ui::Analysis& a) { return a.summary.runs.size() == runs; });
}

} // namespace

TEST(BundleUi, AVerifiedBundleSaysVerifiedWithItsOriginAndItsFolderLivesWhileItIsOpen) {
    BundledCampaign b;
    AppWindow w;
    w.window.show();
    QSignalSpy shown(w.window.bundles(), &ui::BundleFlow::bundleShown);
    // As `scaleview NAME.svbundle` opens it.
    w.window.openDirectory(b.q(b.bundle));
    ASSERT_TRUE(waitShown(w, 9u));
    ASSERT_EQ(shown.count(), 1);
    const ui::BundleProvenance& p = w.window.bundles()->opener()->current();
    EXPECT_TRUE(p.verified) << p.details().toStdString();
    ui::BundleBanner* banner = w.window.bundleBanner();
    EXPECT_TRUE(banner->isVisible());
    EXPECT_FALSE(banner->showsNotVerified());
    EXPECT_TRUE(banner->text().contains(QStringLiteral("verified")))
        << banner->text().toStdString();
    EXPECT_FALSE(banner->text().contains(QStringLiteral("NOT VERIFIED")));
    // Its origin: who bundled it, when, with which ScaleView, and that it is not signed.
    EXPECT_TRUE(banner->text().contains(p.createdBy) && p.createdBy.contains(QLatin1Char('@')))
        << banner->text().toStdString();
    EXPECT_TRUE(banner->text().contains(p.created) && p.created.startsWith(QStringLiteral("20")));
    EXPECT_TRUE(banner->text().contains(QStringLiteral("not signed")));
    EXPECT_TRUE(w.window.windowTitle().contains(QStringLiteral("campaign.svbundle — verified")))
        << w.window.windowTitle().toStdString();
    // The campaign shown is the extracted one, in a private folder.
    const QString folder = p.folder;
    EXPECT_EQ(QString::fromStdString(w.window.analysis()->current()->summary.root),
              QDir::cleanPath(p.campaign));
    EXPECT_TRUE(QFileInfo(folder).isDir());
    EXPECT_EQ(QFile::permissions(folder) & (QFile::ReadGroup | QFile::ReadOther), 0);
    // Another folder opened: the bundle is closed, its words and its folder go.
    w.window.openDirectory(b.q(b.campaign));
    ASSERT_TRUE(waitUntil([&] { return !QFileInfo::exists(folder); }));
    EXPECT_FALSE(banner->isVisible());
    EXPECT_FALSE(w.window.windowTitle().contains(QStringLiteral("verified")));
    EXPECT_FALSE(w.window.exporter()->provenance().isOpen());
}

TEST(BundleUi, ATamperedBundleIsNotVerifiedOnEveryPageInTheTitleAndInEveryExport) {
    BundledCampaign b;
    const fs::path tampered = b.tampered();
    AppWindow w;
    w.window.show();
    // As a drop on the window opens it.
    w.window.openDropped(b.q(tampered), Qt::NoModifier);
    ASSERT_TRUE(waitShown(w, 9u));
    const ui::BundleProvenance& p = w.window.bundles()->opener()->current();
    ASSERT_FALSE(p.verified);
    ui::BundleBanner* banner = w.window.bundleBanner();
    ASSERT_TRUE(banner->showsNotVerified());
    // The banner names the first reason: the log that differs from the manifest.
    EXPECT_TRUE(banner->text().startsWith(QStringLiteral("NOT VERIFIED")))
        << banner->text().toStdString();
    EXPECT_TRUE(banner->text().contains(QStringLiteral("1n2g/r50_b64_fp32_2.log")))
        << banner->text().toStdString();
    // Every reason in the tooltip.
    for (const QString& r : p.reasons)
        EXPECT_TRUE(banner->toolTip().contains(r)) << r.toStdString();
    EXPECT_TRUE(w.window.windowTitle().contains(QStringLiteral("NOT VERIFIED")));
    // And on a click: every reason, and where the bundle came from.
    QTest::mouseClick(banner->reasonsButton(), Qt::LeftButton);
    auto* box = banner->findChild<QMessageBox*>();
    ASSERT_TRUE(box);
    EXPECT_TRUE(box->detailedText().contains(p.reasons.last()));
    EXPECT_TRUE(box->detailedText().contains(p.createdBy));
    box->close();
    for (auto page : {ui::MainWindow::Results, ui::MainWindow::Throughput, ui::MainWindow::Speedup,
                      ui::MainWindow::Runs, ui::MainWindow::Environment, ui::MainWindow::History}) {
        w.window.showPage(page);
        QCoreApplication::processEvents();
        EXPECT_TRUE(banner->isVisible()) << static_cast<int>(page);
        EXPECT_TRUE(banner->isVisibleTo(&w.window));
    }

    QTemporaryDir out;
    QString error;
    ui::ExportController* exporter = w.window.exporter();
    const QString csv = out.filePath(QStringLiteral("t.csv"));
    ASSERT_TRUE(exporter->exportTable(ui::TableFormat::Csv, csv, &error)) << error.toStdString();
    const std::string csvText = readWhole(csv.toStdString());
    EXPECT_EQ(csvText.rfind("# NOT VERIFIED: tampered.svbundle: ", 0), 0u)
        << csvText.substr(0, 200);
    const QString json = out.filePath(QStringLiteral("t.json"));
    ASSERT_TRUE(exporter->exportTable(ui::TableFormat::Json, json, &error));
    const auto doc = nlohmann::json::parse(readWhole(json.toStdString()));
    EXPECT_FALSE(doc.at("bundle").at("verified").get<bool>());
    ASSERT_FALSE(doc["bundle"]["reasons"].empty());
    EXPECT_NE(doc["bundle"]["reasons"][0].get<std::string>().find("r50_b64_fp32_2.log"),
              std::string::npos);
    EXPECT_TRUE(doc.contains("cases")); // the results are still there, beside the verdict
    const QString svg = out.filePath(QStringLiteral("t.svg"));
    ASSERT_TRUE(exporter->exportChart(ui::ChartKind::Throughput, svg, QSize(800, 500), 1.0, &error))
        << error.toStdString();
    EXPECT_NE(readWhole(svg.toStdString()).find("NOT VERIFIED"), std::string::npos);
    const std::string html =
        ui::ReportExport::withProvenance("<html><body>\n<h1>r</h1></body></html>", p);
    EXPECT_NE(html.find("<body>\n<div class=\"bundle-not-verified\""), std::string::npos);
    EXPECT_NE(html.find("r50_b64_fp32_2.log"), std::string::npos);
}

TEST(BundleUi, ARefusedBundleIsAnErrorDialogAndNothingIsShown) {
    BundledCampaign b;
    const std::string whole = readBytes(b.bundle);
    const fs::path truncated = b.dir / "truncated.svbundle";
    writeBytes(truncated, whole.substr(0, whole.size() / 2));
    AppWindow w;
    w.window.show();
    QSignalSpy refused(w.window.bundles(), &ui::BundleFlow::bundleRefused);
    QSignalSpy scanned(w.window.loader(), &ui::LoadController::scanned);
    w.window.openDirectory(b.q(truncated));
    ASSERT_TRUE(waitUntil([&] { return refused.count() == 1; }));
    EXPECT_TRUE(refused.at(0).at(1).toString().contains(QStringLiteral("truncated")))
        << refused.at(0).at(1).toString().toStdString();
    auto* box = qobject_cast<QMessageBox*>(w.window.bundles()->refusalDialog());
    ASSERT_TRUE(box);
    EXPECT_TRUE(box->isVisible());
    EXPECT_TRUE(box->text().contains(QStringLiteral("truncated")));
    EXPECT_TRUE(box->text().contains(QStringLiteral("truncated.svbundle")));
    QTest::qWait(300);
    EXPECT_EQ(scanned.count(), 0);
    EXPECT_FALSE(w.window.analysis()->current() &&
                 !w.window.analysis()->current()->summary.runs.empty());
    EXPECT_FALSE(w.window.bundleBanner()->isVisible());
    EXPECT_EQ(w.window.windowTitle(), QStringLiteral("ScaleView"));
    EXPECT_FALSE(w.window.bundles()->opener()->current().isOpen());
}

TEST(BundleUi, ExportCampaignBundleWritesABundleThatVerifiesAndNeverOverwritesUnasked) {
    BundledCampaign b;
    AppWindow w;
    w.window.show();
    w.window.openDirectory(b.q(b.campaign));
    ASSERT_TRUE(waitShown(w, 9u));
    const fs::path out = b.dir / "exported.svbundle";
    QSignalSpy exported(w.window.bundles(), &ui::BundleFlow::bundleExported);
    QSignalSpy failed(w.window.bundles(), &ui::BundleFlow::bundleExportFailed);
    w.window.bundles()->exportBundle(w.window.loader()->root(), b.q(out));
    ASSERT_TRUE(waitUntil([&] { return exported.count() + failed.count() == 1; }, 30000));
    ASSERT_EQ(exported.count(), 1) << failed.value(0).value(1).toString().toStdString();
    TempDir open;
    fs::create_directory(open / "x");
    const BundleVerdict v = verifyBundle(out, open / "x", "test");
    EXPECT_TRUE(v.verified()) << (v.opened.refused ? *v.opened.refused : "");
    const auto logs = std::count_if(v.opened.manifest.files.begin(), v.opened.manifest.files.end(),
                                    [](const BundleFile& f) { return f.path.ends_with(".log"); });
    EXPECT_EQ(logs, 9);
    // A file already there is left as it is unless the user said to replace it.
    writeBytes(b.dir / "taken.svbundle", "mine");
    w.window.bundles()->exportBundle(w.window.loader()->root(), b.q(b.dir / "taken.svbundle"));
    ASSERT_TRUE(waitUntil([&] { return failed.count() == 1; }, 30000));
    EXPECT_EQ(readBytes(b.dir / "taken.svbundle"), "mine");
}

// The round trip on the real thing: a tiny local campaign of the CPU workload with probes, run
// by scaleview-cli; the window's File › Export › Campaign Bundle… of it; the bundle verified; the
// bundle opened in the window: every figure of the summary agrees with the folder's.
TEST(BundleUiRoundTrip, ARealCpuCampaignWithProbesBundledVerifiedAndOpenedShowsTheSameFigures) {
    TempDir dir;
    const fs::path out = dir / "out";
    const auto run = runProcess({SCALEVIEW_CLI,  "run",       "--profile",    "local-cpu-rn50",
                                 "--topologies", "1n1g,1n2g", "--batch-size", "16",
                                 "--repeats",    "1",         "--iterations", "8",
                                 "--warmup",     "2",         "--image-size", "32",
                                 "--cooldown",   "0",         "--probes",     "--out",
                                 out.string()},
                                std::chrono::seconds(600));
    ASSERT_EQ(run.exitCode, 0) << run.out << run.err;
    ASSERT_TRUE(fs::exists(out / "probes.json"));

    AppWindow folder;
    folder.window.show();
    folder.window.openDirectory(QString::fromStdString(out.string()));
    ASSERT_TRUE(waitShown(folder, 2u));
    const ui::AnalysisPtr original = folder.window.analysis()->current();
    const fs::path bundle = dir / "campaign.svbundle";
    QSignalSpy exported(folder.window.bundles(), &ui::BundleFlow::bundleExported);
    QSignalSpy failed(folder.window.bundles(), &ui::BundleFlow::bundleExportFailed);
    folder.window.bundles()->exportBundle(folder.window.loader()->root(),
                                          QString::fromStdString(bundle.string()));
    ASSERT_TRUE(waitUntil([&] { return exported.count() + failed.count() == 1; }, 120000));
    ASSERT_EQ(exported.count(), 1) << failed.value(0).value(1).toString().toStdString();

    TempDir check;
    fs::create_directory(check / "x");
    const CampaignBundleCheck c = checkCampaignBundle(bundle, check / "x", "test");
    ASSERT_TRUE(c.verified()) << (c.verdict.opened.refused ? *c.verdict.opened.refused : "")
                              << (c.reasons.empty() ? "" : c.reasons.front());
    // The probes and the journal travel with the logs.
    EXPECT_TRUE(fs::exists(check / "x" / "campaign" / "probes.json"));
    EXPECT_TRUE(fs::exists(check / "x" / "campaign" / "journal.jsonl"));

    AppWindow opened;
    opened.window.show();
    opened.window.openBundle(QString::fromStdString(bundle.string()));
    ASSERT_TRUE(waitShown(opened, 2u));
    EXPECT_TRUE(opened.window.bundles()->opener()->current().verified);
    EXPECT_FALSE(opened.window.bundleBanner()->showsNotVerified());
    const ui::AnalysisPtr shown = opened.window.analysis()->current();
    // Figure by figure, as verify compares a bundle's results with the recomputed ones.
    const std::vector<std::string> differences =
        compareSummaries(formatJson(original->summary, "test"), original->summary.root,
                         formatJson(shown->summary, "test"), shown->summary.root);
    EXPECT_TRUE(differences.empty()) << differences.front();
    ASSERT_EQ(original->summary.cases.size(), shown->summary.cases.size());
    for (std::size_t i = 0; i < shown->summary.cases.size(); ++i)
        EXPECT_EQ(original->summary.cases[i].median, shown->summary.cases[i].median) << i;
    // The scaling loss of the two-rank case, from the bundled probes.json, is the same too.
    ASSERT_EQ(original->groupLosses.size(), shown->groupLosses.size());
    for (std::size_t i = 0; i < shown->groupLosses.size(); ++i)
        EXPECT_EQ(original->groupLosses[i].has_value(), shown->groupLosses[i].has_value()) << i;
    EXPECT_FALSE(shown->probes.records.empty());
    EXPECT_EQ(original->probes.records.size(), shown->probes.records.size());
}
