#pragma once
// The look every chart shares, on screen and exported: measured data in one strong colour,
// references in twelve distinct ones, dashed, each with its own marker shape, readable fonts,
// legend below the plot (never over data).

#include <QColor>
#include <QFont>
#include <QScatterSeries>

#include <vector>

class QAbstractAxis;
class QValueAxis;
class QAbstractSeries;
class QChart;

namespace sv::ui {

class ChartStyle {
  public:
    static QColor measured();
    // The index-th measured series of a comparison (0 is measured()): strong, dark tones, apart
    // from the references' palette, so a series is not read as a published figure.
    static QColor series(int index);
    static QColor spread();             // whiskers and the per-rank band's edge
    static QColor reference(int index); // the index-th selected reference
    static int referenceColours();      // how many before colours repeat
    // The index-th reference's marker; with the colour it repeats only after 12 × 5 references.
    static QScatterSeries::MarkerShape referenceMarker(int index);
    static QColor ideal();
    static QColor warmupShade();
    static QColor windowShade();
    static QColor problem(); // what a warning is about (slow iterations)
    // What to watch beside a problem, never drawn like one: the floor a regression is judged
    // against, other processes' CPU share over a trace.
    static QColor caution();
    static QColor changePoint(); // a step in a history
    // The index-th cause of a whole split in parts (the loss breakdown's device slowdown,
    // slowest node, communication, remainder; the last, grey, for what was not measured).
    static QColor part(int index);

    // How far apart two colours look (CIE76 ΔE in CIELAB, each composited over white first):
    // about 2 is barely seen, 10 reads as a shade of the same colour.
    static double colourDistance(const QColor& a, const QColor& b);
    // The least distance between any two colours of one chart's legend (every colour this
    // style hands out is at least this far from any it may share a chart with).
    static constexpr double kDistinctColours = 20.0;

    // Title, fonts, margins, legend at the bottom, antialiasing-friendly background.
    static void apply(QChart* chart, const QString& title);
    // The legend below the plot when all its entries fit in one row, else at the right, one a
    // line: never a name cut short to look like another (apply() keeps it so on every resize).
    static void fitLegend(QChart* chart);
    // The title and its note in lines at spaces where a line is wider than the chart (Qt cut it
    // with "…": the Speedup page's note at 1024×700, the loss chart's "not reliable (…)"), and
    // back in one line each where they fit (apply() keeps it so on every resize). plainTitle()
    // and note() stay the whole text; a title set since by someone else is left as it is.
    static void fitTitle(QChart* chart);
    static void applyAxis(QAbstractAxis* axis, const QString& title);
    // As many decimals on a value axis's labels as its ticks need to differ (its range and tick
    // count set): "%.0f" on ticks 0.2 apart printed 0, 0, 0, 1, 1, 1.
    static void distinctLabels(QValueAxis* axis);
    // A line under the title saying what the plot leaves out or rests on (exports keep it).
    static void addNote(QChart* chart, const QString& note);
    // The title without its note: what the chart is.
    static QString plainTitle(const QChart* chart);
    static QString note(const QChart* chart);
    // Adds the axes (x at the bottom, y at the left) and the series, each attached to both.
    static void addSeries(QChart* chart, QAbstractAxis* axisX, QAbstractAxis* axisY,
                          const std::vector<QAbstractSeries*>& series);
};

} // namespace sv::ui
