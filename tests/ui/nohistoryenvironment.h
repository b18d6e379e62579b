#pragma once
// SCALEVIEW_HISTORY_DB wins over the app's history setting: the tests of that setting unset it
// while they run, and put it back after.

#include <QByteArray>
#include <QtGlobal>

namespace sv::test {

struct NoHistoryEnvironment {
    QByteArray saved = qgetenv("SCALEVIEW_HISTORY_DB");
    NoHistoryEnvironment() { qunsetenv("SCALEVIEW_HISTORY_DB"); }
    ~NoHistoryEnvironment() {
        if (!saved.isEmpty()) qputenv("SCALEVIEW_HISTORY_DB", saved);
    }
    NoHistoryEnvironment(const NoHistoryEnvironment&) = delete;
    NoHistoryEnvironment& operator=(const NoHistoryEnvironment&) = delete;
};

} // namespace sv::test
