#include "ui/export/exportcontroller.h"

#include "ui/analysis/devicewords.h"
#include "ui/analysis/figurewords.h"

#include "ui/charts/chartexport.h"
#include "ui/charts/lossbreakdownchart.h"
#include "core/report/report.h"
#include "ui/charts/speedupchart.h"
#include "ui/charts/throughputchart.h"
#include "ui/charts/tracechart.h"
#include "core/model/atomicfile.h"

#include <nlohmann/json.hpp>

#include <QChart>
#include <QFileInfo>
#include <QRegularExpression>

namespace sv::ui {

ExportController::ExportController(QObject* parent) : QObject(parent) {}

QChart* ExportController::buildChart(const Analysis& a, ChartKind kind, int run, Whisker whisker,
                                     ThroughputScale scale) {
    switch (kind) {
    case ChartKind::Throughput:
        return a.group ? ThroughputChart::build(chartData(a), whisker, scale) : nullptr;
    case ChartKind::Speedup:
        return a.group ? SpeedupChart::build(chartData(a), false) : nullptr;
    case ChartKind::Efficiency:
        return a.group ? SpeedupChart::build(chartData(a), true) : nullptr;
    case ChartKind::Trace: {
        if (run < 0 || static_cast<std::size_t>(run) >= a.logs.size()) return nullptr;
        const RunResult& r = a.summary.runs[static_cast<std::size_t>(run)];
        return TraceChart::build(traceRunLog(*a.logs[static_cast<std::size_t>(run)]), r.window,
                                 QString::fromStdString(r.path), r.monitor,
                                 TraceFigure{runUnit(r), runReadsOwnReports(r)});
    }
    case ChartKind::Loss: {
        if (!a.group) return nullptr;
        const LossBreakdown loss = LossBreakdownChart::breakdown(a);
        return loss.bars.empty() ? nullptr : LossBreakdownChart::build(loss);
    }
    }
    return nullptr;
}

QString ExportController::chartName(ChartKind kind) {
    switch (kind) {
    case ChartKind::Throughput:
        return tr("Throughput");
    case ChartKind::Speedup:
        return tr("Speedup");
    case ChartKind::Efficiency:
        return tr("Efficiency");
    case ChartKind::Trace:
        return tr("Run Trace");
    case ChartKind::Loss:
        return tr("Scaling Loss");
    }
    return {};
}

QString ExportController::extension(TableFormat format) {
    return format == TableFormat::Csv        ? QStringLiteral("csv")
           : format == TableFormat::Markdown ? QStringLiteral("md")
                                             : QStringLiteral("json");
}

QString ExportController::fileStem() const {
    if (!m_analysis || !m_analysis->group) return QStringLiteral("scaleview");
    const CaseGroup& g = *m_analysis->group;
    // DLPerf's own short name for ResNet-50, as in its log names (r50_b128_fp32_1.log).
    QString model = QString::fromStdString(g.model).toLower();
    if (model == QLatin1String("resnet50") || model == QLatin1String("resnet-50"))
        model = QStringLiteral("r50");
    QString stem = QStringLiteral("%1_%2_bs%3")
                       .arg(model, QString::fromStdString(g.precision))
                       .arg(g.batchPerDevice);
    // Only characters every file system takes.
    stem.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
    return stem;
}

QString ExportController::suggestedFileName(ChartKind kind, const QString& suffix) const {
    static const char* const names[] = {"throughput", "speedup", "efficiency", "trace",
                                        "scaling_loss"};
    QString name = fileStem() + QLatin1Char('_') + QLatin1String(names[static_cast<int>(kind)]);
    if (kind == ChartKind::Trace && m_analysis && m_run >= 0 &&
        static_cast<std::size_t>(m_run) < m_analysis->summary.runs.size()) {
        const RunKey& k = m_analysis->summary.runs[static_cast<std::size_t>(m_run)].key;
        name +=
            QStringLiteral("_%1_r%2").arg(QString::fromStdString(k.topology.name())).arg(k.repeat);
    }
    return name + QLatin1Char('.') + suffix;
}

QString ExportController::suggestedFileName(TableFormat format) const {
    static const char* const names[] = {"results", "results", "results", "dlperf"};
    return fileStem() + QLatin1Char('_') + QLatin1String(names[static_cast<int>(format)]) +
           QLatin1Char('.') + extension(format);
}

bool ExportController::exportChart(ChartKind kind, const QString& path, QSize size, qreal scale,
                                   QString* error) {
    QChart* chart = m_analysis ? buildChart(*m_analysis, kind, m_run, m_whisker, m_scale) : nullptr;
    if (!chart) {
        if (error)
            *error = kind == ChartKind::Trace ? QStringLiteral("select a run first")
                     : kind == ChartKind::Loss && m_analysis
                         ? QStringLiteral("no multi-device case with an efficiency: no loss to "
                                          "break down")
                         : QStringLiteral("nothing loaded");
        return false;
    }
    // The words are in the image itself: a PNG or SVG of a bundle that is not verified says so.
    if (m_provenance.isOpen() && !m_provenance.verified)
        chart->setTitle(m_provenance.mark() + QStringLiteral("\n") + chart->title());
    const QString suffix = QFileInfo(path).suffix().toLower();
    bool ok = false;
    if (suffix == QLatin1String("svg"))
        ok = ChartExport::writeSvg(chart, size, path, error);
    else if (suffix == QLatin1String("png"))
        ok = ChartExport::writePng(chart, size, scale, path, error);
    else {
        delete chart;
        if (error) *error = QStringLiteral("the file name must end in .png or .svg");
        return false;
    }
    if (ok) emit exported(path);
    return ok;
}

std::optional<std::string> ExportController::tableText(TableFormat format, QString* error) const {
    if (!m_analysis || !m_analysis->group) {
        if (error) *error = QStringLiteral("nothing loaded");
        return std::nullopt;
    }
    const Summary group = m_analysis->groupSummary();
    switch (format) {
    case TableFormat::Csv:
        return marked(format, formatCsv(group));
    case TableFormat::Markdown:
        return marked(format, formatMarkdown(group));
    case TableFormat::Json:
        return marked(format, formatJson(m_analysis->summary, SCALEVIEW_UI_VERSION));
    case TableFormat::DlperfJson:
        return marked(format, formatDlperfJson(group));
    }
    return std::nullopt;
}

std::string ExportController::marked(TableFormat format, std::string text) const {
    if (!m_provenance.isOpen()) return text;
    const QString mark = m_provenance.mark();
    if (format == TableFormat::Csv) return "# " + mark.toStdString() + "\n" + text;
    if (format == TableFormat::Markdown) return "> " + mark.toStdString() + "\n\n" + text;
    // JSON: a field beside the results, read by whatever reads them.
    nlohmann::ordered_json doc = nlohmann::ordered_json::parse(text, nullptr, false);
    if (!doc.is_object()) return text;
    QStringList reasons = m_provenance.reasons;
    nlohmann::ordered_json bundle = {{"file", m_provenance.bundle.toStdString()},
                                     {"verified", m_provenance.verified},
                                     {"words", mark.toStdString()},
                                     {"created_by", m_provenance.createdBy.toStdString()},
                                     {"created", m_provenance.created.toStdString()},
                                     {"signed_by", m_provenance.signedBy.toStdString()},
                                     {"reasons", nlohmann::ordered_json::array()}};
    for (const QString& r : reasons)
        bundle["reasons"].push_back(r.toStdString());
    nlohmann::ordered_json out = {{"bundle", bundle}};
    for (auto& [key, value] : doc.items())
        out[key] = value;
    return out.dump(2) + "\n";
}

bool ExportController::exportTable(TableFormat format, const QString& path, QString* error) {
    const auto text = tableText(format, error);
    if (!text) return false;
    if (const auto failed = writeFileAtomically(path.toStdString(), *text)) {
        if (error) *error = QString::fromStdString(*failed);
        return false;
    }
    emit exported(path);
    return true;
}

} // namespace sv::ui
