#pragma once
// The Run tab's std::string values shown in Qt: lines as a QStringList, paths in the platform's
// own separators. Shared by runpanel.cpp and runpanelfiles.cpp.

#include <QDir>
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace sv::ui {

inline QStringList toQt(const std::vector<std::string>& lines) {
    QStringList out;
    for (const auto& l : lines)
        out << QString::fromStdString(l);
    return out;
}

inline QString native(const std::string& path) {
    return QDir::toNativeSeparators(QString::fromStdString(path));
}

} // namespace sv::ui
