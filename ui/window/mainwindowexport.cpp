// MainWindow's interactive exports: the chart or table on the page shown, written where the user
// chooses (the last export's folder first), and the export actions kept in step with the page.

#include "ui/window/mainwindow.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/settings/appsettings.h"
#include "ui/export/imageexportdialog.h"
#include "ui/analysis/loadcontroller.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include "ui/charts/lossbreakdownchart.h"

#include <QLabel>
#include <QMessageBox>

namespace sv::ui {

QString MainWindow::exportPath(const QString& fileName) const {
    QString folder = m_settings->lastExportDirectory();
    if (folder.isEmpty() || !QFileInfo(folder).isDir()) folder = m_loader->root();
    return folder.isEmpty() ? fileName : QDir(folder).filePath(fileName);
}

void MainWindow::updateExportActions() {
    if (!m_exportPng) return; // before the menus exist
    const AnalysisPtr a = m_analysis->current();
    const bool shown = a && a->group.has_value();
    for (QAction* action : std::as_const(m_exportActions))
        action->setEnabled(shown);
    // The chart actions name the chart they write: the one on the page shown.
    const QString chart = ExportController::chartName(currentChartKind());
    m_exportPng->setText(tr("%1 Chart as &PNG…").arg(chart));
    m_exportSvg->setText(tr("%1 Chart as &SVG…").arg(chart));
    // Only where there is a loss to break down: a multi-device case with an efficiency.
    const bool loss = shown && !LossBreakdownChart::breakdown(*a).bars.empty();
    m_exportLossPng->setEnabled(loss);
    m_exportLossSvg->setEnabled(loss);
}

void MainWindow::exportChartInteractive(const QString& suffix, std::optional<ChartKind> chosen) {
    const AnalysisPtr a = m_analysis->current();
    if (!a || !a->group) return; // the shortcut, while nothing is loaded
    QSize size = m_settings->exportSize();
    double scale = m_settings->exportScale();
    if (suffix == QLatin1String("png")) {
        ImageExportDialog dialog(size, scale, this);
        if (dialog.exec() != QDialog::Accepted) return;
        size = dialog.chartSize();
        scale = dialog.scale();
        m_settings->setExport(size, scale);
    }
    const ChartKind kind = chosen.value_or(currentChartKind());
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export %1 chart").arg(ExportController::chartName(kind)),
        exportPath(m_export->suggestedFileName(kind, suffix)),
        suffix == QLatin1String("png") ? tr("PNG image (*.png)") : tr("SVG image (*.svg)"));
    if (path.isEmpty()) return;
    QString error;
    const QString target =
        QFileInfo(path).suffix().isEmpty() ? path + QLatin1Char('.') + suffix : path;
    if (!m_export->exportChart(kind, target, size, scale, &error)) {
        QMessageBox::warning(this, tr("Export"), error);
        return;
    }
    m_settings->setLastExportDirectory(QFileInfo(target).absolutePath());
    m_status->setText(tr("Exported %1").arg(QDir::toNativeSeparators(target)));
}

void MainWindow::exportTableInteractive(TableFormat format) {
    const AnalysisPtr a = m_analysis->current();
    if (!a || !a->group) return;
    static const char* const filters[] = {"CSV (*.csv)", "Markdown (*.md)", "JSON (*.json)",
                                          "DLPerf JSON (*.json)"};
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export"), exportPath(m_export->suggestedFileName(format)),
        QString::fromLatin1(filters[static_cast<int>(format)]));
    if (path.isEmpty()) return;
    // A name typed without an extension gets the format's.
    const QString target = QFileInfo(path).suffix().isEmpty()
                               ? path + QLatin1Char('.') + ExportController::extension(format)
                               : path;
    QString error;
    if (!m_export->exportTable(format, target, &error)) {
        QMessageBox::warning(this, tr("Export"), error);
        return;
    }
    m_settings->setLastExportDirectory(QFileInfo(target).absolutePath());
    m_status->setText(tr("Exported %1").arg(QDir::toNativeSeparators(target)));
}

} // namespace sv::ui
