#include "reportexport.h"

#include "chartexport.h"
#include "exportcontroller.h"

#include <QChart>
#include <QDateTime>
#include <QSaveFile>
#include <QCoreApplication>

namespace sv::ui {

std::string ReportExport::html(const Analysis& analysis, std::vector<ReportFile> files,
                               const QString& label) {
    ReportInput input;
    input.version = QCoreApplication::applicationVersion().toStdString();
    input.generated = QDateTime::currentDateTimeUtc()
                          .toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"))
                          .toStdString();
    ReportSeries series;
    series.label = label.toStdString();
    series.summary = analysis.summary;
    series.files = std::move(files);
    for (ChartKind kind : {ChartKind::Throughput, ChartKind::Speedup}) {
        QChart* chart = ExportController::buildChart(analysis, kind);
        if (!chart) {
            series.chartNote = "no chart: nothing usable to draw";
            continue;
        }
        series.charts.push_back(
            {label.toStdString() + ": " + ExportController::chartName(kind).toLower().toStdString(),
             ChartExport::svgBytes(chart, QSize(1200, 800)).toStdString()});
    }
    input.series.push_back(std::move(series));
    return formatHtmlReport(input);
}

bool ReportExport::write(const std::string& text, const QString& path, QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(text.data(), static_cast<qint64>(text.size())) !=
            static_cast<qint64>(text.size()) ||
        !file.commit()) {
        if (error) *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace sv::ui
