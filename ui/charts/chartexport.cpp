#include "ui/charts/chartexport.h"

#include "core/model/outputtext.h"
#include "core/model/atomicfile.h"

#include <QChart>
#include <QFileInfo>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QImage>
#include <QBuffer>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <QTextDocument>
#include <QTextDocumentFragment>

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

// The one atomic write (core/model/atomicfile.h): no name planted beside path is written through.
bool writeBytes(const QByteArray& bytes, const QString& path, QString* error) {
    if (const auto failed = writeFileAtomically(
            path.toStdString(), std::string_view(bytes.constData(), bytes.size()))) {
        if (error) *error = QString::fromStdString(*failed);
        return false;
    }
    return true;
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
    QBuffer png;
    png.open(QIODevice::WriteOnly);
    if (!image.save(&png, "PNG")) {
        if (error)
            *error = QStringLiteral("cannot write %1: the image cannot be encoded").arg(path);
        return false;
    }
    return writeBytes(png.data(), path, error);
}

namespace {

// A title with a note or in wrapped lines is rich text ("<br>", a span): <title> holds its words.
QString plainText(const QString& title) {
    if (!Qt::mightBeRichText(title)) return title;
    return QTextDocumentFragment::fromHtml(title)
        .toPlainText()
        .replace(QChar::LineSeparator, QLatin1Char(' '))
        .simplified();
}

} // namespace

QByteArray ChartExport::svgBytes(QChart* chart, QSize size) {
    auto scene = stage(chart, size);
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    // Qt writes the title into <title> as it is: a model "A&B" would be malformed XML, and
    // "</title><script>" markup in every report that inlines the chart.
    svg.setTitle(QString::fromStdString(xmlText(plainText(chart->title()).toStdString())));
    svg.setDescription(QStringLiteral("ScaleView chart"));
    QPainter painter(&svg);
    painter.fillRect(QRect(QPoint(0, 0), size), Qt::white);
    paint(*scene, painter, size);
    painter.end();
    // What Qt escapes it still writes as it is: a control character from a log is no XML.
    const QByteArray& bytes = buffer.data();
    const std::string wellFormed = xmlCharacters(std::string_view(bytes.constData(), bytes.size()));
    return QByteArray(wellFormed.data(), static_cast<qsizetype>(wellFormed.size()));
}

bool ChartExport::writeSvg(QChart* chart, QSize size, const QString& path, QString* error) {
    return writeBytes(svgBytes(chart, size), path, error);
}

QSize ChartExport::parseSize(const QString& text) {
    static const QRegularExpression re(QStringLiteral("^(\\d{2,5})[xX](\\d{2,5})$"));
    const auto m = re.match(text.trimmed());
    if (!m.hasMatch()) return {};
    const QSize s(m.captured(1).toInt(), m.captured(2).toInt());
    return s.width() <= 10000 && s.height() <= 10000 ? s : QSize();
}

} // namespace sv::ui
