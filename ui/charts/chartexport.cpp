#include "ui/charts/chartexport.h"

#include <QChart>
#include <QFileInfo>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QImage>
#include <QBuffer>
#include <QPainter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSvgGenerator>

#include <memory>

namespace sv::ui {

namespace {

// A scene that owns the chart, laid out at size now rather than on the next event-loop turn.
std::unique_ptr<QGraphicsScene> stage(QChart* chart, QSize size) {
    auto scene = std::make_unique<QGraphicsScene>();
    scene->addItem(chart);
    chart->setGeometry(QRectF(QPointF(0, 0), QSizeF(size)));
    if (chart->layout()) chart->layout()->activate();
    scene->setSceneRect(QRectF(QPointF(0, 0), QSizeF(size)));
    return scene;
}

void paint(QGraphicsScene& scene, QPainter& painter, QSize size) {
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    const QRectF rect(QPointF(0, 0), QSizeF(size));
    scene.render(&painter, rect, rect);
}

} // namespace

QImage ChartExport::renderImage(QChart* chart, QSize size, qreal scale) {
    auto scene = stage(chart, size);
    QImage image(QSize(qRound(size.width() * scale), qRound(size.height() * scale)),
                 QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(Qt::white);
    QPainter painter(&image);
    paint(*scene, painter, size);
    painter.end();
    return image;
}

bool ChartExport::writePng(QChart* chart, QSize size, qreal scale, const QString& path,
                           QString* error) {
    const QImage image = renderImage(chart, size, scale);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !image.save(&file, "PNG") || !file.commit()) {
        if (error) *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

QByteArray ChartExport::svgBytes(QChart* chart, QSize size) {
    auto scene = stage(chart, size);
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(chart->title());
    svg.setDescription(QStringLiteral("ScaleView chart"));
    QPainter painter(&svg);
    painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
    paint(*scene, painter, size);
    painter.end();
    return buffer.data();
}

bool ChartExport::writeSvg(QChart* chart, QSize size, const QString& path, QString* error) {
    const QByteArray bytes = svgBytes(chart, size);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error) *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

QSize ChartExport::parseSize(const QString& text) {
    static const QRegularExpression re(QStringLiteral("^(\\d{2,5})[xX](\\d{2,5})$"));
    const auto m = re.match(text.trimmed());
    if (!m.hasMatch()) return {};
    const QSize s(m.captured(1).toInt(), m.captured(2).toInt());
    return s.width() <= 10000 && s.height() <= 10000 ? s : QSize();
}

} // namespace sv::ui
