#pragma once
// English counts with the right noun: "1 run", "2 runs", "0 warnings" (the app ships no
// translations, so Qt's %n forms would print "run(s)").

#include <QString>

namespace sv::ui {

inline QString countOf(qsizetype n, const QString& one, const QString& many) {
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}

} // namespace sv::ui
