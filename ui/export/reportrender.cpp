#include "ui/export/reportrender.h"

#include <QAbstractTextDocumentLayout>
#include <QPainter>
#include <QSvgRenderer>
#include <QTextDocument>
#include <QUrl>

#include <vector>

namespace sv::ui {

QImage ReportRender::render(const QString& source, int width, int maxHeight) {
    QString html = source;
    // Qt's rich text knows no HTML5 <figure> or <figcaption> and takes them for inline text, so
    // a caption ran on from the chart before it: the blocks a browser makes of them.
    html.replace(QLatin1String("<figure>"), QLatin1String("<div>"));
    html.replace(QLatin1String("</figure>"), QLatin1String("</div>"));
    html.replace(QLatin1String("<figcaption>"), QLatin1String("<p>"));
    html.replace(QLatin1String("</figcaption>"), QLatin1String("</p>"));
    std::vector<QImage> charts;
    // Each <svg>...</svg> becomes an <img> of its own rendering.
    for (int from = 0;;) {
        const int start = html.indexOf(QLatin1String("<svg"), from);
        if (start < 0) break;
        const int end = html.indexOf(QLatin1String("</svg>"), start);
        if (end < 0) break;
        const QString svg = html.mid(start, end + 6 - start);
        QSvgRenderer renderer(svg.toUtf8());
        const int chartWidth = width - 80;
        QSize size = renderer.defaultSize();
        if (size.isEmpty()) size = QSize(1200, 800);
        size = size.scaled(chartWidth, chartWidth * 10, Qt::KeepAspectRatio);
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QPainter painter(&image);
        renderer.render(&painter);
        painter.end();
        // A paragraph of its own: an inline image that does not fit beside the text before it
        // in its paragraph wraps, and Qt left the line it wrapped from as tall as the image: a
        // chart-high blank above each chart.
        const QString name = QStringLiteral("chart%1").arg(charts.size());
        charts.push_back(image);
        const QString img = QStringLiteral("<p><img src=\"%1\" width=\"%2\" height=\"%3\"/></p>")
                                .arg(name)
                                .arg(size.width())
                                .arg(size.height());
        html.replace(start, end + 6 - start, img);
        from = start + img.size();
    }
    QTextDocument doc;
    for (std::size_t i = 0; i < charts.size(); ++i)
        doc.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("chart%1").arg(i)),
                        charts[i]);
    doc.setHtml(html);
    doc.setTextWidth(width);
    const int height = qMin(maxHeight, static_cast<int>(doc.size().height()) + 1);
    QImage page(width, height, QImage::Format_ARGB32_Premultiplied);
    page.fill(Qt::white);
    QPainter painter(&page);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    doc.drawContents(&painter, QRectF(0, 0, width, height));
    return page;
}

} // namespace sv::ui
