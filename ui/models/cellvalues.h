#pragma once
// How table models show optional figures: fixed decimals for display (a dash when absent), the
// number itself for sorting.

#include "report.h"

#include <QString>
#include <QVariant>

#include <optional>

namespace sv::ui {

inline QVariant fixedCell(const std::optional<double>& v, int decimals) {
    return v ? QVariant(QString::fromStdString(formatFixed(*v, decimals)))
             : QVariant(QStringLiteral("–"));
}

inline QVariant numberCell(const std::optional<double>& v) {
    return v ? QVariant(*v) : QVariant();
}

} // namespace sv::ui
