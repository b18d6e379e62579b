#pragma once
// The history's small text conversions between Qt SQL and the records, and SQLite's result codes
// in words, shared by the database's files (opening and the schema; records, campaigns and
// expectations; the import). Internal to history/.

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

// Text bound into the history. A NUL byte, which PostgreSQL's text cannot hold (Qt's driver cut
// the statement short there: "unterminated quoted string", and the campaign was lost), is kept
// as U+2400, the symbol for NUL, in both stores alike: a log's text is data, whatever its bytes.
inline QString qs(const std::string& s) {
    QString out = QString::fromStdString(s);
    out.replace(QChar(u'\0'), QChar(0x2400));
    return out;
}

// SQLite's primary result code from Qt's driver (nativeErrorCode; Qt 6 asks SQLite for its
// extended codes, whose low byte is the primary one), or -1 for none.
inline int sqliteCode(const QSqlError& e) {
    bool ok = false;
    const int code = e.nativeErrorCode().toInt(&ok);
    return ok ? code & 0xff : -1;
}

// 5 busy, 6 locked: another connection held the lock past the busy timeout.
inline bool isBusy(const QSqlError& e) {
    const int code = sqliteCode(e);
    return code == 5 || code == 6;
}

// 11 corrupt, 26 not a database: what alone proves a file is no usable history.
inline bool isCorrupt(const QSqlError& e) {
    const int code = sqliteCode(e);
    return code == 11 || code == 26;
}

} // namespace sv::history::sqltext
