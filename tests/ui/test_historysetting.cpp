// The app's setting for the history database (the History page's Database… dialog): a path or
// a postgresql:// URI, checked by the history's own parser before anything is saved; a URI with
// a password refused (never in the settings file); the History page, and a window started
// later with those settings, reading the database chosen.

#include "tests/support/files.h"
#include "tests/ui/nohistoryenvironment.h"
#include "tests/history/historyfixture.h"
#include "tests/ui/uifixture.h"

#include "history/campaignrecord.h"
#include "history/historydatabase.h"
#include "ui/history/historylocationdialog.h"
#include "ui/history/historypage.h"
#include "ui/settings/appsettings.h"

#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace sv::test;
using sv::history::HistoryDatabase;
using sv::ui::AppSettings;
using sv::ui::HistoryLocationDialog;
using sv::ui::HistoryPage;

namespace {

void recordOne(const TempDir& dir, const std::filesystem::path& db) {
    writeHistoryCampaign(dir / "night1", 1.0, 1.0, 3, "535.104.05");
    HistoryDatabase history(db);
    auto read = sv::history::readCampaign(dir / "night1");
    ASSERT_TRUE(read.record) << read.error;
    ASSERT_EQ(history.record(*read.record).outcome, HistoryDatabase::Outcome::Added);
}

} // namespace

TEST(HistorySetting, AChosenDatabaseIsSavedAndTheHistoryPageReadsIt) {
    NoHistoryEnvironment env;
    TempDir dir;
    const auto db = dir / "team-history.sqlite";
    recordOne(dir, db);
    QTemporaryDir config;
    const QString ini = config.filePath(QStringLiteral("scaleview.ini"));
    AppSettings settings(ini);
    HistoryPage page;
    page.useSettings(&settings);
    EXPECT_EQ(page.databasePath(), HistoryDatabase::defaultPath());
    HistoryLocationDialog dialog(&settings, &page);
    dialog.field()->setText(QString::fromStdString(db.string()));
    dialog.accept();
    EXPECT_EQ(dialog.result(), QDialog::Accepted) << dialog.errorText().toStdString();
    EXPECT_EQ(settings.historyDatabase().toStdString(), db.string());
    EXPECT_EQ(page.databasePath(), db);
    ASSERT_TRUE(waitUntil([&] { return !page.isLoading() && page.caseBox()->count() > 0; }, 20000));
    EXPECT_EQ(page.caseBox()->count(), 2); // night1's two cases, from the database chosen
    EXPECT_TRUE(QString::fromStdString(sv::test::readWhole(ini.toStdString())).contains(QStringLiteral("team-history.sqlite")));

    // A window started later with these settings reads the same database.
    AppSettings again(ini);
    sv::ui::MainWindow window(&again);
    EXPECT_EQ(window.historyPage()->databasePath(), db);
}

TEST(HistorySetting, ABadValueIsRefusedWithTheReasonAndNothingIsSaved) {
    NoHistoryEnvironment env;
    QTemporaryDir config;
    const QString ini = config.filePath(QStringLiteral("scaleview.ini"));
    AppSettings settings(ini);
    HistoryPage page;
    page.useSettings(&settings);
    const auto before = page.databasePath();
    HistoryLocationDialog dialog(&settings, &page);
    const std::string folder = config.path().toStdString(); // a folder, not a file
    for (const std::string& bad : {std::string("mysql://db.example.org/perf"),
                                   std::string("postgresql:"), folder}) {
        dialog.field()->setText(QString::fromStdString(bad));
        dialog.accept();
        EXPECT_NE(dialog.result(), QDialog::Accepted) << bad;
        EXPECT_TRUE(dialog.errorText().startsWith(QStringLiteral("Not saved: "))) << bad;
        EXPECT_TRUE(settings.historyDatabase().isEmpty()) << bad;
        EXPECT_EQ(page.databasePath(), before) << bad;
    }
}

TEST(HistorySetting, AUriWithAPasswordIsRefusedAndNeverReachesTheSettingsFile) {
    NoHistoryEnvironment env;
    QTemporaryDir config;
    const QString ini = config.filePath(QStringLiteral("scaleview.ini"));
    AppSettings settings(ini);
    HistoryPage page;
    page.useSettings(&settings);
    HistoryLocationDialog dialog(&settings, &page);
    for (const char* uri : {"postgresql://perf:s3cret@db.example.org/scaleview",
                            "postgresql://perf@db.example.org/scaleview?password=s3cret"}) {
        dialog.field()->setText(QString::fromUtf8(uri));
        dialog.accept();
        EXPECT_NE(dialog.result(), QDialog::Accepted) << uri;
        const QString error = dialog.errorText();
        EXPECT_TRUE(error.contains(QStringLiteral("password"))) << error.toStdString();
        EXPECT_TRUE(error.contains(QStringLiteral("~/.pgpass"))) << error.toStdString();
        EXPECT_TRUE(error.contains(QStringLiteral("PGPASSFILE"))) << error.toStdString();
    }
    settings.sync();
    EXPECT_FALSE(QString::fromStdString(sv::test::readWhole(ini.toStdString())).contains(QStringLiteral("s3cret")));
    EXPECT_TRUE(settings.historyDatabase().isEmpty());
    // A URI without one is taken, and the page reads it.
    dialog.field()->setText(
        QStringLiteral("postgresql://perf@127.0.0.1:1/scaleview?sslmode=verify-full"));
    dialog.accept();
    EXPECT_EQ(dialog.result(), QDialog::Accepted) << dialog.errorText().toStdString();
    EXPECT_EQ(settings.historyDatabase(),
              QStringLiteral("postgresql://perf@127.0.0.1:1/scaleview?sslmode=verify-full"));
    // The page tried it (nothing listens there): its read ends, saying why.
    ASSERT_TRUE(waitUntil([&] { return !page.isLoading(); }, 20000));
    EXPECT_FALSE(page.statusText().isEmpty());
}
