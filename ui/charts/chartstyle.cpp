#include "ui/charts/chartstyle.h"

#include <QAbstractAxis>
#include <QAbstractSeries>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QFontMetricsF>
#include <QStringList>

#include <QValueAxis>

#include <algorithm>
#include <array>
#include <cmath>

namespace sv::ui {

QColor ChartStyle::measured() {
    return QColor(0x1f, 0x5f, 0xbf);
}
QColor ChartStyle::series(int index) {
    static const QColor palette[] = {measured(),
                                     QColor(0xb0, 0x2a, 0x3a),
                                     QColor(0x0b, 0x7a, 0x75),
                                     QColor(0x5b, 0x2a, 0x86),
                                     QColor(0x3a, 0x3a, 0x3a),
                                     QColor(0x8a, 0x5a, 0x00)};
    return palette[static_cast<unsigned>(index) % (sizeof palette / sizeof palette[0])];
}

QColor ChartStyle::spread() {
    return QColor(0x10, 0x20, 0x40);
}
QColor ChartStyle::ideal() {
    return QColor(0x70, 0x70, 0x70);
}
// The two shades and the per-rank band (measured at alpha 95) stand apart in a trace's legend:
// at the old alphas they were three pale swatches within 10 ΔE of one another.
QColor ChartStyle::warmupShade() {
    return QColor(0xa0, 0xa0, 0xa0, 90);
}
QColor ChartStyle::windowShade() {
    return QColor(0x40, 0xc0, 0x40, 70);
}

void ChartStyle::distinctLabels(QValueAxis* axis) {
    const int ticks = std::max(2, axis->tickCount());
    const double step = (axis->max() - axis->min()) / (ticks - 1);
    const int decimals =
        step > 0 ? std::clamp(static_cast<int>(std::ceil(-std::log10(step) - 1e-9)), 0, 6) : 0;
    axis->setLabelFormat(QStringLiteral("%.") + QString::number(decimals) + QStringLiteral("f"));
}

QColor ChartStyle::problem() {
    return QColor(0xc0, 0x1c, 0x1c);
}
QColor ChartStyle::caution() {
    return QColor(0xd9, 0x82, 0x00);
}
QColor ChartStyle::changePoint() {
    return QColor(0x8e, 0x24, 0xaa);
}
QColor ChartStyle::part(int index) {
    static const QColor parts[] = {QColor(0xe6, 0x7e, 0x22), QColor(0xc0, 0x39, 0x2b),
                                   QColor(0x8e, 0x44, 0xad), QColor(0xb8, 0xa9, 0x7a),
                                   QColor(0x80, 0x80, 0x80)};
    constexpr int n = sizeof parts / sizeof parts[0];
    return parts[std::clamp(index, 0, n - 1)];
}

namespace {

// sRGB over white to CIELAB (D65).
std::array<double, 3> lab(const QColor& c) {
    const double alpha = c.alphaF();
    auto linear = [alpha](double v) {
        v = v * alpha + (1.0 - alpha); // over a white background
        return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    const double r = linear(c.redF()), g = linear(c.greenF()), b = linear(c.blueF());
    const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    const double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; };
    return {116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))};
}

} // namespace

double ChartStyle::colourDistance(const QColor& a, const QColor& b) {
    const auto p = lab(a), q = lab(b);
    return std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

namespace {
// Mid tones away from the measured blue, so no reference is mistaken for a measured series;
// ordered so that neighbours differ in hue and lightness; each at least kDistinctColours from
// every other, from the comparison series and from the ideal line and the problem red (a red
// reference beside the second series' crimson read as one colour).
const QColor kReferencePalette[] = {
    QColor(0xe0, 0x8a, 0x1e), QColor(0xee, 0x99, 0x99), QColor(0x2e, 0x9e, 0x6b),
    QColor(0x00, 0x77, 0x00), QColor(0x8c, 0x6d, 0x46), QColor(0xd4, 0x5f, 0xa8),
    QColor(0x7a, 0x8a, 0x1a), QColor(0x00, 0xbb, 0xff), QColor(0x6b, 0x5f, 0xd4),
    QColor(0xbb, 0x99, 0xcc), QColor(0xdd, 0x88, 0xff), QColor(0x88, 0x44, 0x66)};
constexpr int kReferenceColours = sizeof kReferencePalette / sizeof kReferencePalette[0];
// The circle is the measured series' marker.
const QScatterSeries::MarkerShape kReferenceMarkers[] = {
    QScatterSeries::MarkerShapeRectangle, QScatterSeries::MarkerShapeTriangle,
    QScatterSeries::MarkerShapeRotatedRectangle, QScatterSeries::MarkerShapeStar,
    QScatterSeries::MarkerShapePentagon};
constexpr int kReferenceShapes = sizeof kReferenceMarkers / sizeof kReferenceMarkers[0];
} // namespace

QColor ChartStyle::reference(int index) {
    return kReferencePalette[static_cast<unsigned>(index) % kReferenceColours];
}

int ChartStyle::referenceColours() {
    return kReferenceColours;
}

QScatterSeries::MarkerShape ChartStyle::referenceMarker(int index) {
    return kReferenceMarkers[static_cast<unsigned>(index) % kReferenceShapes];
}

void ChartStyle::apply(QChart* chart, const QString& title) {
    chart->setTheme(QChart::ChartThemeLight);
    chart->setAnimationOptions(QChart::NoAnimation); // exports and tests see the final state
    chart->setBackgroundRoundness(0);
    chart->setMargins(QMargins(8, 8, 8, 8));
    QFont titleFont = chart->titleFont();
    titleFont.setPointSizeF(12);
    titleFont.setBold(true);
    chart->setTitleFont(titleFont);
    chart->setTitle(title);
    QLegend* legend = chart->legend();
    legend->setVisible(true);
    legend->setAlignment(Qt::AlignBottom);
    QFont legendFont = legend->font();
    legendFont.setPointSizeF(9.5);
    legend->setFont(legendFont);
    // A name cut short ("Measur…", "DLPerf …") cannot be told from another: the legend moves
    // beside the plot, one entry a line, whenever its entries do not fit in one row below it
    // (every time the chart is resized: in a view or for an export), and a name still too
    // long shows in full on hover.
    legend->setShowToolTips(true);
    QObject::connect(chart, &QGraphicsWidget::geometryChanged, chart, [chart] {
        fitLegend(chart);
        fitTitle(chart);
    });
}

namespace {

// The label in lines of at most width (at spaces), as the legend's rich text.
QString wrapped(const QString& text, const QFontMetricsF& fm, qreal width) {
    QStringList lines;
    QString line;
    for (const QString& word : text.split(QLatin1Char(' '))) {
        const QString next = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (!line.isEmpty() && fm.horizontalAdvance(next) > width) {
            lines << line.toHtmlEscaped();
            line = word;
        } else {
            line = next;
        }
    }
    if (!line.isEmpty()) lines << line.toHtmlEscaped();
    return lines.join(QStringLiteral("<br>"));
}

} // namespace

void ChartStyle::fitLegend(QChart* chart) {
    QLegend* legend = chart->legend();
    const QMarginsF margins = chart->margins();
    const qreal available = chart->size().width() - margins.left() - margins.right();
    if (available <= 0 || !legend->isVisible()) return;
    const QFontMetricsF fm(legend->font());
    // The marker, the gaps Qt leaves and a label's document margins: at 2 × height + 24 a
    // label Qt drew ran up to 10 px past the chart's edge ("Predicted (… |error|" at 1024×700).
    const qreal extra = 2 * fm.height() + 24 + 3 * fm.averageCharWidth();
    qreal row = 0, widest = 0;
    for (QLegendMarker* m : legend->markers()) {
        // Each entry's own name, kept: the label shown may be it in lines.
        if (!m->property("svName").isValid()) m->setProperty("svName", m->label());
        if (!m->isVisible()) continue;
        const qreal w = fm.horizontalAdvance(m->property("svName").toString()) + extra;
        row += w;
        widest = std::max(widest, w);
    }
    if (row <= available) {
        if (legend->alignment() != Qt::AlignBottom) legend->setAlignment(Qt::AlignBottom);
        legend->setMinimumWidth(-1);
        for (QLegendMarker* m : legend->markers())
            if (m->label() != m->property("svName").toString())
                m->setLabel(m->property("svName").toString());
        return;
    }
    // One entry a line at the right, as wide as the widest name up to 45 % of the chart; a
    // name wider than that in several lines.
    const qreal width = std::min(widest, 0.45 * available);
    if (legend->alignment() != Qt::AlignRight) legend->setAlignment(Qt::AlignRight);
    legend->setMinimumWidth(width);
    for (QLegendMarker* m : legend->markers()) {
        const QString name = m->property("svName").toString();
        const QString label =
            fm.horizontalAdvance(name) + extra <= width ? name : wrapped(name, fm, width - extra);
        if (m->label() != label) m->setLabel(label);
    }
}

namespace {

// The note's lines under the title: smaller and lighter.
QString noteSpan(const QString& lines) {
    return QStringLiteral("<br><span style=\"font-size:9pt; font-weight:normal; "
                          "color:#555555\">%1</span>")
        .arg(lines);
}

// The title as apply() and addNote() set it: the plain title alone, or, with a note, rich text
// with the note in a second line (the chart's title is then rich text).
QString naturalTitle(const QString& plain, const QString& note) {
    if (note.isEmpty()) return plain;
    return plain.toHtmlEscaped() +
           noteSpan(note.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")));
}

} // namespace

void ChartStyle::addNote(QChart* chart, const QString& note) {
    if (note.isEmpty()) return;
    const QString plain = plainTitle(chart);
    chart->setProperty("svTitle", plain);
    chart->setProperty("svNote", note);
    chart->setTitle(naturalTitle(plain, note));
    chart->setProperty("svShownTitle", QVariant());
    fitTitle(chart);
}

void ChartStyle::fitTitle(QChart* chart) {
    const QString plain = plainTitle(chart), note = ChartStyle::note(chart);
    const QString natural = naturalTitle(plain, note);
    const QString current = chart->title();
    const QVariant shown = chart->property("svShownTitle");
    // Set since by someone else (an export's provenance line above it): theirs to lay out.
    if (current != natural && !(shown.isValid() && current == shown.toString())) return;
    const QMarginsF margins = chart->margins();
    // Qt cuts a title a little short of the chart's inner width: keep some room.
    const qreal available = chart->size().width() - margins.left() - margins.right() - 24;
    QString fitted = natural;
    if (available > 0) {
        const QFontMetricsF titleMetrics(chart->titleFont());
        QFont noteFont = chart->titleFont();
        noteFont.setPointSizeF(9);
        noteFont.setBold(false);
        const QFontMetricsF noteMetrics(noteFont);
        bool wraps = titleMetrics.horizontalAdvance(plain) > available;
        for (const QString& line : note.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            wraps = wraps || noteMetrics.horizontalAdvance(line) > available;
        if (wraps) {
            QStringList noteLines;
            for (const QString& line : note.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
                noteLines << wrapped(line, noteMetrics, available);
            fitted =
                wrapped(plain, titleMetrics, available) +
                (note.isEmpty() ? QString() : noteSpan(noteLines.join(QStringLiteral("<br>"))));
        }
    }
    if (fitted != natural) chart->setProperty("svTitle", plain); // title() is in lines now
    chart->setProperty("svShownTitle", fitted);
    if (fitted != current) chart->setTitle(fitted);
}

QString ChartStyle::plainTitle(const QChart* chart) {
    const QVariant plain = chart->property("svTitle");
    return plain.isValid() ? plain.toString() : chart->title();
}

QString ChartStyle::note(const QChart* chart) {
    return chart->property("svNote").toString();
}

void ChartStyle::applyAxis(QAbstractAxis* axis, const QString& title) {
    axis->setTitleText(title);
    QFont f = axis->titleFont();
    f.setPointSizeF(10);
    f.setBold(false);
    axis->setTitleFont(f);
    QFont l = axis->labelsFont();
    l.setPointSizeF(9);
    axis->setLabelsFont(l);
    axis->setGridLineColor(QColor(0xdd, 0xdd, 0xdd));
}

void ChartStyle::addSeries(QChart* chart, QAbstractAxis* axisX, QAbstractAxis* axisY,
                           const std::vector<QAbstractSeries*>& series) {
    chart->addAxis(axisX, Qt::AlignBottom);
    chart->addAxis(axisY, Qt::AlignLeft);
    for (auto* s : series) {
        chart->addSeries(s);
        s->attachAxis(axisX);
        s->attachAxis(axisY);
    }
}

} // namespace sv::ui
