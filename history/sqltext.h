#pragma once
// The history's small text conversions between Qt SQL and the records, shared by the database's
// two files (opening and the schema; records, campaigns and expectations). Internal to history/.

#include <QSqlError>
#include <QString>
#include <QStringList>

#include <cstdio>
#include <string>
#include <vector>

namespace sv::history::sqltext {

// The error on one line (PostgreSQL's span several).
inline std::string describe(const QSqlError& e) {
    return e.text().simplified().toStdString();
}

inline std::string joinLines(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v)
        out += (out.empty() ? "" : "\n") + s;
    return out;
}

inline std::vector<std::string> splitLines(const QString& s) {
    std::vector<std::string> out;
    for (const QString& part : s.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        out.push_back(part.toStdString());
    return out;
}

inline QString repeatsText(const std::vector<double>& values) {
    std::string out;
    char buf[32];
    for (double v : values) {
        std::snprintf(buf, sizeof buf, "%.17g", v);
        out += (out.empty() ? "" : " ") + std::string(buf);
    }
    return QString::fromStdString(out);
}

inline std::vector<double> repeatsFrom(const QString& text) {
    std::vector<double> out;
    for (const QString& part : text.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        out.push_back(part.toDouble());
    return out;
}

inline QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace sv::history::sqltext
