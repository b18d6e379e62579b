// Issue 26 item 2: the user sets a run's keys in the app. A log that states no batch size shows
// "?"; "Set batch, GPUs, precision… for this log" on the Runs page writes the batch into the
// scaleview.json beside the log (off the GUI thread), the directory is read again and the case
// gets its figure. A sidecar that is not JSON is refused in the dialog and left as it is.

#include "tests/support/files.h"
#include "tests/support/freshtrainer.h"
#include "tests/support/horovodlog.h"
#include "tests/support/logwriter.h"
#include "tests/support/realworldwriter.h"
#include "tests/ui/uifixture.h"

#include "core/formats/userformat.h"
#include "ui/browse/runkeydialog.h"
#include "ui/browse/runspage.h"
#include "ui/window/mainwindow.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

using namespace sv;
using namespace sv::test;

namespace {

std::string bertLog() {
    return gluonnlpLog(
        "0,1", 40, [](int k) { return 100000.0 + k; }, false);
}

// The window with dir open, its one run selected on the Runs page, and the dialog for it.
ui::RunKeyDialog* openDialog(AppWindow& w, const std::filesystem::path& dir) {
    w.window.show();
    w.window.openDirectory(QString::fromStdString(dir.string()));
    if (!w.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 1u; }))
        return nullptr;
    w.window.showPage(ui::MainWindow::Runs);
    w.window.runsPage()->selectRun(0);
    if (!w.window.runsPage()->setKeysAction()->isEnabled()) return nullptr;
    w.window.runsPage()->setKeysAction()->trigger();
    return w.window.findChild<ui::RunKeyDialog*>();
}

} // namespace

TEST(RunKeyDialog, SettingTheBatchWritesTheSidecarAndTheCaseGetsItsFigure) {
    TempDir dir;
    writeFile(dir / "bert.log", bertLog());
    AppWindow w;
    ui::RunKeyDialog* dialog = openDialog(w, dir.path());
    ASSERT_NE(dialog, nullptr);
    auto a = w.window.analysis()->current();
    EXPECT_EQ(batchText(a->summary.runs[0].key), "?");
    EXPECT_EQ(dialog->batchBox()->text(), QStringLiteral("?")); // prefilled from the key
    EXPECT_EQ(dialog->gpusPerNodeBox()->value(), 2);            // gpus='0,1'
    // What the log states wins over the sidecar: not offered; what it does not, offered.
    EXPECT_FALSE(dialog->gpusPerNodeBox()->isEnabled());
    EXPECT_TRUE(dialog->batchBox()->isEnabled());
    EXPECT_TRUE(
        dialog->whereLabel()->text().contains(QStringLiteral("scaleview.json, beside the log")))
        << dialog->whereLabel()->text().toStdString();
    dialog->batchBox()->setValue(32);
    QSignalSpy saved(dialog, &ui::RunKeyDialog::saved);
    dialog->saveButton()->click();
    ASSERT_TRUE(waitUntil([&] { return saved.count() == 1; }));
    const auto sidecar = dir / "scaleview.json";
    ASSERT_TRUE(std::filesystem::exists(sidecar));
    const auto j = nlohmann::json::parse(readWhole(sidecar));
    EXPECT_EQ(j, (nlohmann::json{{"files", {{"bert.log", {{"batch", 32}}}}}})) << j.dump();
    // Read again: the batch from the sidecar, the case with its median.
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& r) {
        return r.summary.runs.size() == 1u && r.summary.runs[0].key.batchPerDevice == 32;
    }));
    a = w.window.analysis()->current();
    EXPECT_EQ(a->summary.runs[0].key.origins.batch, KeySource::Sidecar);
    ASSERT_EQ(a->summary.cases.size(), 1u);
    EXPECT_TRUE(a->summary.cases[0].median);
}

TEST(RunKeyDialog, AnInvalidSidecarIsRefusedInTheDialogAndKept) {
    TempDir dir;
    writeFile(dir / "bert.log", bertLog());
    const std::string broken = "{\"batch\": 8,,\n";
    writeFile(dir / "scaleview.json", broken);
    AppWindow w;
    ui::RunKeyDialog* dialog = openDialog(w, dir.path());
    ASSERT_NE(dialog, nullptr);
    dialog->batchBox()->setValue(32);
    QSignalSpy failed(dialog, &ui::RunKeyDialog::failed);
    dialog->saveButton()->click();
    ASSERT_TRUE(waitUntil([&] { return failed.count() == 1; }));
    EXPECT_TRUE(dialog->isVisible()); // still open, the user's choice kept
    EXPECT_EQ(dialog->batchBox()->value(), 32);
    EXPECT_TRUE(dialog->errorLabel()->text().contains(QStringLiteral("not a JSON object")));
    EXPECT_TRUE(dialog->errorLabel()->text().contains(
        QString::fromStdString((dir / "scaleview.json").string())));
    EXPECT_EQ(readWhole(dir / "scaleview.json"), broken);
}

// Issue 37 item 1: a taught Horovod log of rank 0's tagged lines states no GPU count; its tags
// are no count, so its GPUs are "?" and the dialog offers them (it once greyed them at 1).
TEST(RunKeyDialog, ATaughtLogsUnstatedGpusCanBeSet) {
    UserFormatError e;
    auto format = UserFormat::parse(horovodFormat("hvd-dialog", true, {}, "snaps"), "t.json", &e);
    ASSERT_TRUE(format) << e.text();
    std::string why;
    ASSERT_TRUE(registerUserFormat(format, &why)) << why;
    TempDir dir;
    const auto values = writeHorovodLog(dir / "horovod.log", {.stated = false, .word = "snaps"});
    AppWindow w;
    ui::RunKeyDialog* dialog = openDialog(w, dir.path());
    ASSERT_NE(dialog, nullptr);
    auto a = w.window.analysis()->current();
    EXPECT_EQ(topologyText(a->summary.runs[0].key), "?");
    EXPECT_FALSE(a->summary.runs[0].usable()); // a per-GPU value needs the GPUs
    EXPECT_TRUE(dialog->gpusPerNodeBox()->isEnabled());
    EXPECT_TRUE(dialog->nodesBox()->isEnabled());
    EXPECT_EQ(dialog->gpusPerNodeBox()->text(), QStringLiteral("?"));
    dialog->nodesBox()->setValue(1);
    dialog->gpusPerNodeBox()->setValue(8);
    QSignalSpy saved(dialog, &ui::RunKeyDialog::saved);
    dialog->saveButton()->click();
    ASSERT_TRUE(waitUntil([&] { return saved.count() == 1; }));
    // Read again: 8 GPUs from the scaleview.json, and the job's figure, 8 times one GPU's.
    ASSERT_TRUE(w.waitFor([](const ui::Analysis& r) {
        return r.summary.runs.size() == 1u && r.summary.runs[0].key.topology.ranks() == 8;
    }));
    a = w.window.analysis()->current();
    const RunResult& run = a->summary.runs[0];
    EXPECT_EQ(run.key.origins.topology, KeySource::Sidecar);
    ASSERT_TRUE(run.usable()) << run.reason;
    EXPECT_NEAR(*run.timeThroughput, medianAfterFirstTenth(values) * 8, 1e-9);
}
