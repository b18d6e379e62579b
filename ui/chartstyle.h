#pragma once
// The look every chart shares, on screen and exported: measured data in one strong colour,
// references in muted distinct ones, readable fonts, legend below the plot (never over data).

#include <QColor>
#include <QFont>

class QAbstractAxis;
class QChart;

namespace sv::ui {

class ChartStyle {
public:
    static QColor measured();
    static QColor spread();              // whiskers and the per-rank band's edge
    static QColor reference(int index);  // the index-th selected reference
    static QColor ideal();
    static QColor warmupShade();
    static QColor windowShade();

    // Title, fonts, margins, legend at the bottom, antialiasing-friendly background.
    static void apply(QChart* chart, const QString& title);
    static void applyAxis(QAbstractAxis* axis, const QString& title);
};

} // namespace sv::ui
