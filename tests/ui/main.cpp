// The UI tests' main: a QApplication on the offscreen platform (no display needed), Fusion style
// as the app uses, then GoogleTest.

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QStyleFactory>

#include <gtest/gtest.h>

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    // Campaigns the tests run go into a history of their own, never the user's.
    const QByteArray history = qgetenv("SCALEVIEW_HISTORY_DB");
    const bool ownHistory = history.isEmpty();
    if (ownHistory)
        qputenv("SCALEVIEW_HISTORY_DB", QDir::tempPath().toUtf8() + "/scaleview-test-history-" +
                                            QByteArray::number(QCoreApplication::applicationPid()) +
                                            ".sqlite");
    ::testing::InitGoogleTest(&argc, argv);
    QApplication app(argc, argv);
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    const int status = RUN_ALL_TESTS();
    if (ownHistory) QFile::remove(QString::fromUtf8(qgetenv("SCALEVIEW_HISTORY_DB")));
    return status;
}
