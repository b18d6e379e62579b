#pragma once
// Writes a chart to PNG (at any scale: drawn as vectors at that resolution, so 2× is crisp, not
// upscaled) or SVG. Works without a window: the chart is laid out in its own scene.

#include <QByteArray>
#include <QSize>
#include <QString>

class QChart;
class QImage;

namespace sv::ui {

class ChartExport {
  public:
    // Takes ownership of chart (built for the export, not the one a view shows).
    static QImage renderImage(QChart* chart, QSize size, qreal scale);
    static bool writePng(QChart* chart, QSize size, qreal scale, const QString& path,
                         QString* error);
    static bool writeSvg(QChart* chart, QSize size, const QString& path, QString* error);
    // The SVG document writeSvg writes, in memory (a report inlines it). Takes ownership.
    static QByteArray svgBytes(QChart* chart, QSize size);
    // "1200x800" -> size; invalid on anything else.
    static QSize parseSize(const QString& text);
};

} // namespace sv::ui
