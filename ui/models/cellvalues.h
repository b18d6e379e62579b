#pragma once
// How table models show optional figures: fixed decimals for display (a dash when absent), the
// number itself for sorting.

#include "core/report/report.h"

#include <QColor>
#include <QGuiApplication>
#include <QPalette>
#include <QString>
#include <QVariant>

#include <cmath>

#include <optional>

namespace sv::ui {

inline QVariant fixedCell(const std::optional<double>& v, int decimals) {
    return v ? QVariant(QString::fromStdString(formatFixed(*v, decimals)))
             : QVariant(QStringLiteral("–"));
}

inline QVariant numberCell(const std::optional<double>& v) {
    return v ? QVariant(*v) : QVariant();
}

// A signed percentage, "+1.2 %" or "−0.3 %"; a value that rounds to zero is "0.0 %", never
// "-0.0 %" or "+0.0 %".
inline QString signedPercent(double v, int decimals) {
    const double unit = std::pow(10.0, -decimals) / 2;
    if (std::abs(v) < unit)
        return QString::fromStdString(formatFixed(0.0, decimals)) + QStringLiteral(" %");
    return QString::fromStdString((v > 0 ? "+" : "") + formatFixed(v, decimals)) +
           QStringLiteral(" %");
}

// A row tint that stays readable on any theme: the hue mixed into the palette's base colour
// (light on a light theme, dark on a dark one), so the palette's text colour still contrasts.
inline QColor tintedBase(const QColor& hue, double amount = 0.22) {
    const QColor base = QGuiApplication::palette().color(QPalette::Base);
    auto mix = [amount](int a, int b) {
        return static_cast<int>(std::lround(a + (b - a) * amount));
    };
    return QColor(mix(base.red(), hue.red()), mix(base.green(), hue.green()),
                  mix(base.blue(), hue.blue()));
}

// A text colour for a finding (green, amber, red) that stays readable on any theme: the hue
// pulled towards the palette's text colour (darker on a light theme, lighter on a dark one).
inline QColor tintedText(const QColor& hue) {
    const QColor text = QGuiApplication::palette().color(QPalette::Text);
    auto mix = [](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * 0.25)); };
    return QColor(mix(hue.red(), text.red()), mix(hue.green(), text.green()),
                  mix(hue.blue(), text.blue()));
}

} // namespace sv::ui
