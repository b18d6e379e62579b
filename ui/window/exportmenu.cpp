#include "ui/window/exportmenu.h"

#include "async/backgroundtask.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/analysis/loadcontroller.h"
#include "ui/charts/lossbreakdownchart.h"
#include "ui/export/exportcontroller.h"
#include "ui/export/imageexportdialog.h"
#include "ui/export/reportexport.h"
#include "ui/settings/appsettings.h"
#include "ui/widgets/menuitem.h"
#include "ui/window/pagestack.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QStandardPaths>

#include <utility>

namespace sv::ui {

ExportMenu::ExportMenu(QMenu* menu, QWidget* window, AppSettings* settings, Parts parts)
    : QObject(menu), m_window(window), m_settings(settings), m_p(parts) {
    // The chart actions' text names the chart shown (update()).
    m_png = addItem(menu, this,
                    {QString(), QKeySequence(Qt::CTRL | Qt::Key_E), "exportPng",
                     [this] { exportChart(QStringLiteral("png")); }});
    m_svg = addItem(menu, this,
                    {QString(), {}, "exportSvg", [this] { exportChart(QStringLiteral("svg")); }});
    m_lossPng =
        addItem(menu, this, {tr("Scaling &Loss Chart as PNG…"), {}, "exportLossPng", [this] {
                                 exportChart(QStringLiteral("png"), ChartKind::Loss);
                             }});
    m_lossSvg =
        addItem(menu, this, {tr("Scaling Loss Chart as S&VG…"), {}, "exportLossSvg", [this] {
                                 exportChart(QStringLiteral("svg"), ChartKind::Loss);
                             }});
    menu->addSeparator();
    m_needAnalysis = {m_png, m_svg};
    const auto table = [&](const QString& text, const QKeySequence& key, const char* name,
                           TableFormat format) {
        m_needAnalysis.push_back(
            addItem(menu, this, {text, key, name, [this, format] { exportTable(format); }}));
    };
    table(tr("Results Table as &CSV…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), "exportCsv",
          TableFormat::Csv);
    table(tr("Results Table as &Markdown…"), {}, "", TableFormat::Markdown);
    table(tr("Results as &JSON…"), {}, "", TableFormat::Json);
    table(tr("Results as &DLPerf JSON…"), {}, "", TableFormat::DlperfJson);
    menu->addSeparator();
    m_needAnalysis.push_back(addItem(
        menu, this, {tr("&Report (HTML)…"), {}, "exportReport", [this] { exportReport(); }}));
}

void ExportMenu::addNeedsAnalysis(QAction* action) {
    m_needAnalysis.push_back(action);
    update();
}

void ExportMenu::update() {
    const AnalysisPtr a = m_p.analysis->current();
    const bool shown = a && a->group.has_value();
    for (QAction* action : std::as_const(m_needAnalysis))
        action->setEnabled(shown);
    // The chart actions name the chart they write: the one on the page shown.
    const QString chart = ExportController::chartName(m_p.pages->currentChartKind());
    m_png->setText(tr("%1 Chart as &PNG…").arg(chart));
    m_svg->setText(tr("%1 Chart as &SVG…").arg(chart));
    // Only where there is a loss to break down: a multi-device case with an efficiency.
    const bool loss = shown && !LossBreakdownChart::breakdown(*a).bars.empty();
    m_lossPng->setEnabled(loss);
    m_lossSvg->setEnabled(loss);
}

QString ExportMenu::exportFolder(const QString& lastExport) {
    if (!lastExport.isEmpty() && QFileInfo(lastExport).isDir()) return lastExport;
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (!documents.isEmpty() && QFileInfo(documents).isDir()) return documents;
    return QDir::homePath();
}

QString ExportMenu::suggestedPath(const QString& fileName) const {
    return QDir(exportFolder(m_settings->lastExportDirectory())).filePath(fileName);
}

void ExportMenu::exportChart(const QString& suffix, std::optional<ChartKind> chosen) {
    const AnalysisPtr a = m_p.analysis->current();
    if (!a || !a->group) return; // the shortcut, while nothing is loaded
    QSize size = m_settings->exportSize();
    double scale = m_settings->exportScale();
    if (suffix == QLatin1String("png")) {
        ImageExportDialog dialog(size, scale, m_window);
        if (dialog.exec() != QDialog::Accepted) return;
        size = dialog.chartSize();
        scale = dialog.scale();
        m_settings->setExport(size, scale);
    }
    const ChartKind kind = chosen.value_or(m_p.pages->currentChartKind());
    const QString path = QFileDialog::getSaveFileName(
        m_window, tr("Export %1 chart").arg(ExportController::chartName(kind)),
        suggestedPath(m_p.exporter->suggestedFileName(kind, suffix)),
        suffix == QLatin1String("png") ? tr("PNG image (*.png)") : tr("SVG image (*.svg)"));
    if (path.isEmpty()) return;
    QString error;
    const QString target =
        QFileInfo(path).suffix().isEmpty() ? path + QLatin1Char('.') + suffix : path;
    if (!m_p.exporter->exportChart(kind, target, size, scale, &error)) {
        QMessageBox::warning(m_window, tr("Export"), error);
        return;
    }
    m_settings->setLastExportDirectory(QFileInfo(target).absolutePath());
    m_p.status->setText(tr("Exported %1").arg(QDir::toNativeSeparators(target)));
}

void ExportMenu::exportTable(TableFormat format) {
    const AnalysisPtr a = m_p.analysis->current();
    if (!a || !a->group) return;
    static const char* const filters[] = {"CSV (*.csv)", "Markdown (*.md)", "JSON (*.json)",
                                          "DLPerf JSON (*.json)"};
    const QString path = QFileDialog::getSaveFileName(
        m_window, tr("Export"), suggestedPath(m_p.exporter->suggestedFileName(format)),
        QString::fromLatin1(filters[static_cast<int>(format)]));
    if (path.isEmpty()) return;
    // A name typed without an extension gets the format's.
    const QString target = QFileInfo(path).suffix().isEmpty()
                               ? path + QLatin1Char('.') + ExportController::extension(format)
                               : path;
    QString error;
    if (!m_p.exporter->exportTable(format, target, &error)) {
        QMessageBox::warning(m_window, tr("Export"), error);
        return;
    }
    m_settings->setLastExportDirectory(QFileInfo(target).absolutePath());
    m_p.status->setText(tr("Exported %1").arg(QDir::toNativeSeparators(target)));
}

void ExportMenu::exportReport() {
    const AnalysisPtr a = m_p.analysis->current();
    if (!a || !a->group) return;
    const QString root = QString::fromStdString(a->summary.root);
    // The open directory's series name (renamed or not), as the comparison calls it.
    const QString label =
        a->label.empty() ? QFileInfo(root).fileName() : QString::fromStdString(a->label);
    const QString path = QFileDialog::getSaveFileName(
        m_window, tr("Export Report"), suggestedPath(label + QStringLiteral("-report.html")),
        tr("HTML (*.html)"));
    if (path.isEmpty()) return;
    const QString target =
        QFileInfo(path).suffix().isEmpty() ? path + QStringLiteral(".html") : path;
    m_settings->setLastExportDirectory(QFileInfo(target).absolutePath());
    m_p.status->setText(tr("Writing the report…"));
    // The campaign and environment files are read, the comparison computed and the report
    // written on a worker; only the charts are drawn here (Qt Charts live on the GUI thread).
    QPointer<ExportMenu> self(this);
    const BundleProvenance provenance = m_p.exporter->provenance();
    async::workPool()->start([self, a, label, target, provenance] {
        auto content = ReportExport::gather(*a);
        QMetaObject::invokeMethod(
            self.data(),
            [self, a, label, target, provenance, content = std::move(content)]() mutable {
                if (!self) return;
                const std::string text = ReportExport::withProvenance(
                    ReportExport::html(*a, std::move(content), label), provenance);
                async::workPool()->start([self, text, target] {
                    QString error;
                    const bool ok = ReportExport::write(text, target, &error);
                    QMetaObject::invokeMethod(
                        self.data(),
                        [self, ok, error, target] {
                            if (self) self->reportWritten(ok, error, target);
                        },
                        Qt::QueuedConnection);
                });
            },
            Qt::QueuedConnection);
    });
}

void ExportMenu::reportWritten(bool ok, const QString& error, const QString& target) {
    if (!ok) {
        m_p.status->setText(error);
        QMessageBox::warning(m_window, tr("Export Report"), error);
        return;
    }
    m_p.status->setText(tr("Exported %1").arg(QDir::toNativeSeparators(target)));
    emit reportExported(target);
}

} // namespace sv::ui
