// "Teach ScaleView this Log": the dialog on a log of a line shape no built-in format reads,
// offscreen. It shows the log's first lines, offers the clicked line's numbers as value and
// step, drafts a pattern, previews the matches and the figure on the whole file (off the GUI
// thread), reports a broken pattern in words, and saves a format file that reads the log.

#include "tests/support/freshtrainer.h"
#include "tests/support/horovodlog.h"
#include "tests/support/logwriter.h"
#include "tests/support/tqdmlog.h"
#include "tests/ui/uifixture.h"

#include "core/formats/userformat.h"
#include "ui/widgets/logactions.h"
#include "ui/widgets/pagebanner.h"
#include "ui/widgets/teachdialog.h"

#include <QAction>
#include <QCheckBox>
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStringListModel>

#include <fstream>

#include <gtest/gtest.h>

using namespace sv;
using namespace sv::test;

TEST(TeachDialog, DraftsPreviewsAndSaves) {
    TempDir dir;
    const auto values = writeFreshLog(dir / "logs" / "result_0.txt", 300, 7.25);
    const QString formats = QString::fromStdString((dir / "formats").string());
    ui::TeachDialog dialog(QString::fromStdString((dir / "logs" / "result_0.txt").string()),
                           nullptr, formats);
    dialog.show();
    ASSERT_TRUE(waitUntil([&] { return dialog.ready(); })) << dialog.loadError().toStdString();
    // The log's first lines, the suggested throughput line chosen, its numbers offered.
    EXPECT_EQ(dialog.lines()->count(), 2 + 300 + 300 / 7);
    EXPECT_EQ(dialog.lines()->currentRow(), 2);
    EXPECT_EQ(dialog.valueChoice()->count(), 10);
    EXPECT_EQ(dialog.stepChoice()->count(), 11); // "(none)" first
    EXPECT_TRUE(dialog.valueChoice()->currentText().contains(QStringLiteral("K")));
    EXPECT_TRUE(dialog.patternEdit()->text().contains(QStringLiteral("(?P<value>")));
    // "result_0" says nothing of the format: the id is the chosen line's words.
    EXPECT_EQ(dialog.idEdit()->text(), QStringLiteral("trainer-loss-samples"));
    // The preview: every step line of the file, the median after the first tenth.
    ASSERT_TRUE(waitUntil([&] { return dialog.previewMatches().has_value(); }));
    EXPECT_EQ(*dialog.previewMatches(), 300);
    ASSERT_TRUE(dialog.previewFigure());
    EXPECT_DOUBLE_EQ(*dialog.previewFigure(), medianAfterFirstTenth(values));
    EXPECT_TRUE(dialog.previewLabel()->text().contains(QStringLiteral("300 lines of")));
    EXPECT_TRUE(dialog.saveButton()->isEnabled());
    // Matching lines are marked in the list.
    EXPECT_TRUE(dialog.lines()->item(3)->font().bold());
    EXPECT_FALSE(dialog.lines()->item(0)->font().bold());
    // A broken edit: the reason, no save.
    dialog.patternEdit()->setText(dialog.patternEdit()->text() + QStringLiteral("("));
    emit dialog.patternEdit()->textEdited(dialog.patternEdit()->text());
    EXPECT_TRUE(dialog.previewLabel()->text().contains(QStringLiteral("missing )")))
        << dialog.previewLabel()->text().toStdString();
    EXPECT_FALSE(dialog.saveButton()->isEnabled());
    // Another line chosen: a fresh draft, previewed again.
    dialog.chooseLine(3);
    ASSERT_TRUE(waitUntil([&] { return dialog.previewMatches().has_value(); }));
    EXPECT_EQ(*dialog.previewMatches(), 300);
    // Save: the file in the directory given, loaded back as the format that reads the log.
    QSignalSpy saved(&dialog, &ui::TeachDialog::formatSaved);
    dialog.saveButton()->click();
    ASSERT_TRUE(waitUntil([&] { return saved.count() == 1; }));
    const QString path = saved.at(0).at(0).toString();
    EXPECT_EQ(path, formats + QStringLiteral("/trainer-loss-samples.json"));
    UserFormatError e;
    const auto format = UserFormat::load(path.toStdString(), &e);
    ASSERT_TRUE(format) << e.text();
    const auto p = previewUserFormat(*format, dir / "logs" / "result_0.txt");
    ASSERT_TRUE(p.figure);
    EXPECT_DOUBLE_EQ(*p.figure, medianAfterFirstTenth(values));
}

TEST(TeachDialog, SaysWhyABinaryFileCannotBeTaught) {
    TempDir dir;
    {
        std::ofstream out(dir / "weights.bin", std::ios::binary);
        for (int i = 0; i < 4096; ++i)
            out.put(static_cast<char>(i & 0xff));
    }
    ui::TeachDialog dialog(QString::fromStdString((dir / "weights.bin").string()));
    ASSERT_TRUE(waitUntil([&] { return !dialog.loadError().isEmpty(); }));
    EXPECT_TRUE(dialog.loadError().contains(QStringLiteral("binary")));
    EXPECT_FALSE(dialog.saveButton()->isEnabled());
}

// A row whose log nothing reads offers Teach ScaleView this Log…, which opens the dialog on it;
// a row that reads does not.
TEST(TeachDialog, OfferedOnARowNothingReads) {
    TempDir dir;
    writeFreshLog(dir / "result_0.txt", 50, 7.0);
    QStringListModel model({QStringLiteral("result_0.txt"), QStringLiteral("r50_b128_fp32_1.log")});
    QListView view;
    view.setModel(&model);
    const QString unreadPath = QString::fromStdString((dir / "result_0.txt").string());
    ui::LogActions actions(&view, [&](const QModelIndex& index) {
        return ui::LogActions::Target{index.data().toString(), unreadPath, index.row() == 0};
    });
    view.show();
    view.setCurrentIndex(model.index(1, 0));
    EXPECT_FALSE(actions.teachAction()->isEnabled());
    EXPECT_FALSE(actions.teachAction()->isVisible());
    view.setCurrentIndex(model.index(0, 0));
    EXPECT_TRUE(actions.teachAction()->isEnabled());
    EXPECT_TRUE(actions.teachAction()->isVisible());
    EXPECT_TRUE(view.actions().contains(actions.teachAction()));
    actions.teachAction()->trigger();
    ui::TeachDialog* dialog = nullptr;
    ASSERT_TRUE(waitUntil([&] {
        for (QWidget* w : QApplication::topLevelWidgets())
            if (auto* d = qobject_cast<ui::TeachDialog*>(w); d && d->isVisible()) dialog = d;
        return dialog && dialog->ready();
    }));
    EXPECT_EQ(dialog->lines()->count(), 2 + 50 + 50 / 7);
    dialog->close(); // deleted on close
}

// Issue 35 item 6 / issue 37 item 4: a folder whose only file holds rate lines that nothing reads
// (its rates are an evaluation's) says so in the banner, with Teach ScaleView this Log… beside
// Choose another…; the dialog opens at the scan's candidate line; once a format that reads the
// file is saved, the folder is read again, without choosing it again.
TEST(TeachDialog, FromTheBannerOfAFolderNothingReadsThenReadAgain) {
    TempDir dir;
    std::string text = "starting the job\nconfig: batch_size=64 world_size=8\n";
    for (int k = 0; k < 40; ++k)
        text += "validate it " + std::to_string(k) + " | " + std::to_string(800 + k % 5) +
                ".5 samples/s\n";
    writeFile(dir / "unknown" / "job.out", text);
    AppWindow app;
    ui::PageBanner* banner = app.window.openBanner();
    app.window.openDirectory(QString::fromStdString((dir / "unknown").string()));
    ASSERT_TRUE(waitUntil([&] { return !banner->isHidden(); }));
    EXPECT_TRUE(banner->text().contains(QStringLiteral("no format reads")))
        << banner->text().toStdString();
    EXPECT_TRUE(banner->text().contains(QStringLiteral("line 3"))) << banner->text().toStdString();
    EXPECT_EQ(banner->actionButton()->text(), QStringLiteral("Choose another…"));
    ASSERT_FALSE(banner->secondButton()->isHidden());
    EXPECT_EQ(banner->secondButton()->text(), QStringLiteral("Teach ScaleView this Log…"));

    banner->secondButton()->click();
    ui::TeachDialog* dialog = nullptr;
    ASSERT_TRUE(waitUntil([&] {
        for (QWidget* w : QApplication::topLevelWidgets())
            if (auto* d = qobject_cast<ui::TeachDialog*>(w); d && d->isVisible()) dialog = d;
        return dialog && dialog->ready();
    }));
    EXPECT_EQ(dialog->lines()->currentRow(), 2); // line 3, the candidate
    // What Save does once the format file is written: registered, and the folder read again.
    UserFormatError e;
    const auto format = UserFormat::parse(
        R"j({"scaleview_format": 1, "id": "validate-35", "name": "Validate", "unit": "samples/s",
             "line": "validate it (?P<step>\\d+) \\| (?P<value>[0-9.]+) samples/s"})j",
        "validate-35.json", &e);
    ASSERT_TRUE(format) << e.text();
    emit dialog->formatSaved(QStringLiteral("validate-35.json"), format);
    ASSERT_TRUE(app.waitFor([](const ui::Analysis& a) { return a.summary.runs.size() == 1; }));
    EXPECT_EQ(app.window.analysis()->current()->summary.runs[0].key.format, "validate-35");
    dialog->close();
}

// Issue 37 item 1: taught from Horovod's "Iter #3: 245.3 img/sec per GPU", the dialog ticks "The
// value is one GPU's", and its preview is the job's figure: the values times the 8 GPUs the log
// states, said; the file saved says per_gpu.
TEST(TeachDialog, APerGpuLineIsTaughtPerGpu) {
    TempDir dir;
    const auto values = writeHorovodLog(dir / "horovod.log", {.word = "img"});
    const QString formats = QString::fromStdString((dir / "formats").string());
    ui::TeachDialog dialog(QString::fromStdString((dir / "horovod.log").string()), nullptr,
                           formats);
    dialog.show();
    ASSERT_TRUE(waitUntil([&] { return dialog.ready(); })) << dialog.loadError().toStdString();
    int iter = -1;
    for (int i = 0; i < dialog.lines()->count() && iter < 0; ++i)
        if (dialog.lines()->item(i)->text().contains(QStringLiteral("Iter #3:"))) iter = i;
    ASSERT_GE(iter, 0);
    dialog.chooseLine(iter);
    auto* perGpu = dialog.findChild<QCheckBox*>(QStringLiteral("teachPerGpu"));
    ASSERT_NE(perGpu, nullptr);
    EXPECT_TRUE(perGpu->isChecked());
    ASSERT_NE(dialog.findChild<QLineEdit*>(QStringLiteral("teachGpus")), nullptr);
    ASSERT_TRUE(waitUntil([&] { return dialog.previewFigure().has_value(); }))
        << dialog.previewLabel()->text().toStdString();
    EXPECT_NEAR(*dialog.previewFigure(), medianAfterFirstTenth(values) * 8, 1e-9);
    EXPECT_TRUE(dialog.previewLabel()->text().contains(QStringLiteral("× 8 GPUs")))
        << dialog.previewLabel()->text().toStdString();
    QSignalSpy saved(&dialog, &ui::TeachDialog::formatSaved);
    dialog.saveButton()->click();
    ASSERT_TRUE(waitUntil([&] { return saved.count() == 1; }));
    UserFormatError e;
    const auto format = UserFormat::load(saved.at(0).at(0).toString().toStdString(), &e);
    ASSERT_TRUE(format) << e.text();
    EXPECT_TRUE(format->perGpu());
}

// tqdm's it/s taught as "steps/s × batch": the preview spells the product out
// ("1.55 steps/s × batch 32 = 49.60 samples/s"), and with no batch says the figure is steps/s
// and why; the saved file says "step_rate" in samples/s.
TEST(TeachDialog, AStepRateIsShownTimesTheBatchOrAsStepsPerSecond) {
    TempDir dir;
    const TqdmLog tqdm = tqdmLog(200);
    writeFile(dir / "train.log", tqdm.text);
    ui::TeachDialog dialog(QString::fromStdString((dir / "train.log").string()), nullptr,
                           QString::fromStdString((dir / "formats").string()));
    dialog.show();
    ASSERT_TRUE(waitUntil([&] { return dialog.ready(); })) << dialog.loadError().toStdString();
    ASSERT_TRUE(waitUntil([&] { return dialog.previewFigure().has_value(); }));
    const double steps = medianAfterFirstTenth(tqdm.rates);
    EXPECT_DOUBLE_EQ(*dialog.previewFigure(), steps);

    dialog.stepRateChoice()->setChecked(true);
    // Nothing states the batch yet: steps/s, said so, never a guessed multiple.
    ASSERT_TRUE(waitUntil([&] { return dialog.previewFigure().has_value(); }));
    EXPECT_DOUBLE_EQ(*dialog.previewFigure(), steps);
    QString text = dialog.previewLabel()->text();
    EXPECT_TRUE(text.contains(QStringLiteral("Steps/s, not samples/s"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("the batch size and the GPU count are not stated")))
        << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("× batch"))) << text.toStdString();

    dialog.batchEdit()->setValue(8);
    dialog.gpusEdit()->setText(QStringLiteral("4"));
    emit dialog.gpusEdit()->textEdited(QStringLiteral("4"));
    ASSERT_TRUE(waitUntil(
        [&] { return dialog.previewFigure().has_value() && *dialog.previewFigure() > steps; }));
    EXPECT_DOUBLE_EQ(*dialog.previewFigure(), steps * 32);
    text = dialog.previewLabel()->text();
    const QString product = QStringLiteral("%1 steps/s × batch 32 = %2 samples/s")
                                .arg(QString::number(steps, 'f', 2))
                                .arg(QString::number(steps * 32, 'f', 2));
    EXPECT_TRUE(text.contains(product)) << text.toStdString() << " / " << product.toStdString();

    QSignalSpy saved(&dialog, &ui::TeachDialog::formatSaved);
    dialog.saveButton()->click();
    ASSERT_TRUE(waitUntil([&] { return saved.count() == 1; }));
    UserFormatError e;
    const auto format = UserFormat::load(saved.at(0).at(0).toString().toStdString(), &e);
    ASSERT_TRUE(format) << e.text();
    EXPECT_EQ(format->value(), UserFormat::Value::StepRate);
    EXPECT_EQ(format->unit(), "samples/s");
    EXPECT_EQ(format->batch(), 8);
    EXPECT_EQ(format->gpus(), 4);
}
