#pragma once
// Writes what the window shows: a chart as PNG (size and scale) or SVG, the Results table as CSV
// or Markdown (the seed README's layout), the results as ScaleView JSON or DLPerf JSON. Charts
// are rebuilt for the export at the asked size, so the on-screen one is never disturbed.

#include "ui/analysis/analysis.h"
#include "ui/analysis/bundleprovenance.h"
#include "ui/charts/chartkind.h"
#include "ui/charts/throughputchart.h"

#include <QObject>
#include <QSize>

class QChart;

namespace sv::ui {

enum class TableFormat { Csv, Markdown, Json, DlperfJson };

class ExportController : public QObject {
    Q_OBJECT
  public:
    explicit ExportController(QObject* parent = nullptr);

    void setAnalysis(AnalysisPtr analysis) { m_analysis = std::move(analysis); }
    // The run whose trace a Trace export draws (index into summary.runs).
    void setSelectedRun(int run) { m_run = run; }
    // The throughput chart's whisker, as its page shows it.
    void setWhisker(Whisker whisker) { m_whisker = whisker; }
    // And its scale (samples/s or percent of peak), as its page shows it.
    void setScale(ThroughputScale scale) { m_scale = scale; }
    // The bundle the campaign shown was opened from (none: a folder): every export says whether
    // it was verified, and one that was not carries the words in a chart's title.
    void setProvenance(BundleProvenance provenance) { m_provenance = std::move(provenance); }
    const BundleProvenance& provenance() const { return m_provenance; }

    // A new chart for the analysis; nullptr when there is nothing to draw. The caller owns it.
    static QChart* buildChart(const Analysis& analysis, ChartKind kind, int run = -1,
                              Whisker whisker = Whisker::MinMax,
                              ThroughputScale scale = ThroughputScale::Throughput);

    // The format follows the file name: .png or .svg.
    bool exportChart(ChartKind kind, const QString& path, QSize size, qreal scale, QString* error);
    bool exportTable(TableFormat format, const QString& path, QString* error);
    // What a file of this export is called by default: model, precision, batch and what it
    // holds, "r50_fp32_bs128_speedup.png" (the trace adds topology and repeat).
    QString suggestedFileName(ChartKind kind, const QString& suffix) const;
    QString suggestedFileName(TableFormat format) const;
    // "Speedup", "Efficiency", …: how menus name a chart.
    static QString chartName(ChartKind kind);
    static QString extension(TableFormat format);

    // The text exportTable writes.
    std::optional<std::string> tableText(TableFormat format, QString* error) const;

  signals:
    void exported(const QString& path);

  private:
    QString fileStem() const;
    // text as format writes it, with the bundle's verdict: a comment line, or a JSON field.
    std::string marked(TableFormat format, std::string text) const;

    AnalysisPtr m_analysis;
    int m_run = -1;
    Whisker m_whisker = Whisker::MinMax;
    ThroughputScale m_scale = ThroughputScale::Throughput;
    BundleProvenance m_provenance;
};

} // namespace sv::ui
