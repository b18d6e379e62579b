#include "ui/export/reportexport.h"

#include "ui/charts/chartexport.h"
#include "ui/export/exportcontroller.h"
#include "core/compare/recordedfacts.h"
#include "core/model/atomicfile.h"

#include <QChart>
#include <QDateTime>
#include <QCoreApplication>

namespace sv::ui {

ReportExport::Content ReportExport::gather(const Analysis& analysis) {
    Content out;
    out.files.push_back(capturedFiles(analysis.summary.root));
    for (const auto& other : analysis.others)
        out.files.push_back(capturedFiles(other.summary.root));
    if (analysis.others.empty()) return out;
    // Whole directories, as `scaleview-cli report A B` compares them (the views compare the
    // group shown): the bootstrap of each case's ratio runs here, off the GUI thread.
    // Each with what it recorded (its captured files, its window, its logs' parameters), for
    // what changed.
    const auto seriesOf = [](const std::string& label, const Summary& s) {
        ComparisonSeries c;
        c.label = label;
        c.source = s.root;
        c.method = s.options.method;
        c.cases = s.cases;
        // As `compare` and the views record it, the logs' own parameters included.
        recordSeries(c, s);
        return c;
    };
    std::vector<ComparisonSeries> series = {seriesOf(analysis.label, analysis.summary)};
    for (std::size_t i = 0; i < analysis.others.size(); ++i)
        series.push_back(seriesOf(analysis.others[i].label, analysis.others[i].summary));
    out.comparison = compareSeries(series);
    return out;
}

std::string ReportExport::html(const Analysis& analysis, Content content, const QString& label) {
    ReportInput input;
    input.version = QCoreApplication::applicationVersion().toStdString();
    input.generated = QDateTime::currentDateTimeUtc()
                          .toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"))
                          .toStdString();
    content.files.resize(analysis.others.size() + 1);
    ReportSeries series;
    series.label = label.toStdString();
    series.summary = analysis.summary;
    series.files = std::move(content.files[0]);
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
    for (std::size_t i = 0; i < analysis.others.size(); ++i) {
        ReportSeries other;
        other.label = analysis.others[i].label;
        other.summary = analysis.others[i].summary;
        other.files = std::move(content.files[i + 1]);
        other.chartNote = "drawn beside " + label.toStdString() + " in its charts above";
        input.series.push_back(std::move(other));
    }
    input.comparison = std::move(content.comparison);
    return formatHtmlReport(input);
}

bool ReportExport::write(const std::string& text, const QString& path, QString* error) {
    if (const auto failed = writeFileAtomically(path.toStdString(), text)) {
        if (error) *error = QString::fromStdString(*failed);
        return false;
    }
    return true;
}

std::string ReportExport::withProvenance(std::string html, const BundleProvenance& provenance) {
    if (!provenance.isOpen()) return html;
    const bool bad = !provenance.verified;
    QString banner = QStringLiteral("<div class=\"bundle-%1\" style=\"padding:0.6em 1em;"
                                    "margin-bottom:1em;border:2px solid %2;background:%3\">"
                                    "<strong>%4</strong>")
                         .arg(bad ? QStringLiteral("not-verified") : QStringLiteral("verified"),
                              bad ? QStringLiteral("#b00020") : QStringLiteral("#2e7d32"),
                              bad ? QStringLiteral("#fde7ea") : QStringLiteral("#e8f5e9"),
                              provenance.mark().toHtmlEscaped());
    if (bad) {
        banner += QStringLiteral("<ul>");
        for (const QString& r : provenance.reasons)
            banner += QStringLiteral("<li>") + r.toHtmlEscaped() + QStringLiteral("</li>");
        banner += QStringLiteral("</ul><p>") + provenance.origin().toHtmlEscaped() +
                  QStringLiteral("</p>");
    }
    banner += QStringLiteral("</div>\n");
    const std::string body = "<body>\n";
    const auto at = html.find(body);
    const std::size_t insert = at == std::string::npos ? 0 : at + body.size();
    html.insert(insert, banner.toStdString());
    return html;
}

} // namespace sv::ui
