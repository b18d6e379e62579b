// The app's History page on the shared store: a real PostgreSQL 15 the test starts itself
// (tests/history/postgresserver.h), campaigns recorded into it by the real scaleview-cli, the
// app pointed at it as a user does (the History page's Database… dialog, saved in the app's
// settings, SCALEVIEW_HISTORY_DB unset), and the page read in the background: both campaigns
// listed, the slowed case flagged with what changed (the driver), and a read-only role browsing
// and refused when it records.

#include "tests/support/files.h"
#include "tests/ui/nohistoryenvironment.h"
#include "tests/history/historyfixture.h"
#include "tests/history/postgressuite.h"
#include "tests/ui/uifixture.h"

#include "history/historytrend.h"
#include "ui/history/historylocationdialog.h"
#include "ui/history/historypage.h"
#include "ui/settings/appsettings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>

#include <gtest/gtest.h>

using namespace sv::test;
using sv::ui::HistoryLocationDialog;
using sv::ui::HistoryPage;

namespace {

// One server for the suite; each test a database of its own on it, holding night1 and night2
// recorded by the CLI as the database's owner. night2's 1n2g is 15 % slower and ran on a newer
// driver; its 1n1g is as before.
class HistoryPostgres : public PostgresSuite {
  protected:
    void SetUp() override {
        ASSERT_NO_FATAL_FAILURE(createDatabase("ui"));
        writeHistoryCampaign(dir / "night1", 1.0, 1.0, 2, "535.104.05");
        writeHistoryCampaign(dir / "night2", 1.0, 0.85, 1, "550.54.14");
        const auto recorded = cli({"history", "record", (dir / "night1").string(),
                                   (dir / "night2").string(), "--history-db",
                                   server->socketUri(db)});
        ASSERT_EQ(recorded.exitCode, 0) << recorded.out << recorded.err;
        ASSERT_EQ(query("SELECT count(*) FROM campaigns"), "2\n");
    }
    // The History page's Database… button, the URI typed into its dialog and saved; the page
    // then reads the store in the background.
    static void chooseDatabase(AppWindow& app, const std::string& uri) {
        HistoryPage* page = app.window.historyPage();
        QPushButton* button =
            page->findChild<QPushButton*>(QStringLiteral("historyDatabaseButton"));
        ASSERT_TRUE(button);
        ASSERT_TRUE(button->isEnabled());
        button->click();
        auto* dialog = page->findChild<HistoryLocationDialog*>();
        ASSERT_TRUE(dialog);
        dialog->field()->setText(QString::fromStdString(uri));
        dialog->accept();
        ASSERT_EQ(dialog->result(), QDialog::Accepted) << dialog->errorText().toStdString();
        EXPECT_EQ(app.settings.historyDatabase().toStdString(), uri);
        EXPECT_EQ(page->databasePath().string(), uri);
    }

    // Both campaigns listed, the slowed case flagged (and shown first) with what changed.
    static void expectTheRegressionWithTheDriver(HistoryPage& page, const std::string& uri) {
        const std::string status = page.statusText().toStdString();
        EXPECT_NE(status.find("2 campaign"), std::string::npos) << status;
        EXPECT_NE(status.find(uri), std::string::npos) << status;
        ASSERT_EQ(page.caseBox()->count(), 2) << status;
        const QString shown = page.caseBox()->currentText();
        EXPECT_TRUE(shown.contains(QStringLiteral("1n2g"))) << shown.toStdString();
        EXPECT_TRUE(shown.contains(QStringLiteral("regression"))) << shown.toStdString();
        const QString flag = page.flagText();
        EXPECT_TRUE(flag.startsWith(QStringLiteral("Regression"))) << flag.toStdString();
        EXPECT_TRUE(flag.contains(
            QStringLiteral("Changed at the latest campaign: driver 535.104.05 -> 550.54.14")))
            << flag.toStdString();
        ASSERT_EQ(page.table()->rowCount(), 2);
        EXPECT_EQ(page.table()->item(0, 1)->text(), QStringLiteral("night2")); // newest first
        EXPECT_EQ(page.table()->item(0, 8)->text(), QStringLiteral("550.54.14"));
        EXPECT_EQ(page.table()->item(1, 1)->text(), QStringLiteral("night1"));
        EXPECT_EQ(page.table()->item(1, 8)->text(), QStringLiteral("535.104.05"));
        // The trends behind it: only 1n2g fails the check, and its verdict carries the driver.
        ASSERT_EQ(page.trends().size(), 2u);
        int failing = 0;
        for (const auto& t : page.trends()) {
            const std::string name = sv::history::caseName(t.key);
            ASSERT_EQ(t.points.size(), 2u) << name;
            if (!t.failsCheck()) {
                EXPECT_EQ(name.find("1n2g"), std::string::npos) << name;
                continue;
            }
            ++failing;
            EXPECT_NE(name.find("1n2g"), std::string::npos) << name;
            ASSERT_TRUE(t.changePct) << name;
            EXPECT_LT(*t.changePct, -10.0) << name;
            ASSERT_FALSE(t.changed.empty()) << name;
            EXPECT_EQ(t.changed[0].what, "driver");
            EXPECT_EQ(t.changed[0].a, "535.104.05");
            EXPECT_EQ(t.changed[0].b, "550.54.14");
        }
        EXPECT_EQ(failing, 1);
        // The unchanged case is shown without the flag.
        page.caseBox()->setCurrentIndex(page.caseBox()->currentIndex() == 0 ? 1 : 0);
        EXPECT_TRUE(page.caseBox()->currentText().contains(QStringLiteral("1n1g")));
        EXPECT_FALSE(page.flagText().contains(QStringLiteral("Regression")))
            << page.flagText().toStdString();
    }

    TempDir dir;
};

} // namespace

TEST_F(HistoryPostgres, TheAppListsBothCampaignsAndTheRegressionWithWhatChanged) {
    NoHistoryEnvironment env;
    AppWindow app;
    HistoryPage* page = app.window.historyPage();
    QSignalSpy loaded(page, &HistoryPage::loaded);
    // Over TCP on loopback, as a team's server is named.
    const std::string uri = server->tcpUri(db);
    ASSERT_NO_FATAL_FAILURE(chooseDatabase(app, uri));
    EXPECT_TRUE(page->isLoading()); // read on a worker thread: the dialog returned first
    app.window.show();
    app.window.showPage(sv::ui::MainWindow::History);
    ASSERT_TRUE(loaded.wait(20000));
    ASSERT_TRUE(waitUntil([&] { return !page->isLoading(); }, 20000));
    expectTheRegressionWithTheDriver(*page, uri);
    EXPECT_TRUE(QString::fromStdString(sv::test::readWhole(app.settings.fileName().toStdString())).contains(QString::fromStdString(uri)));

    // Marked expected from the page, on the server: the gate no longer fails.
    const int regressed = page->caseBox()->findText(QStringLiteral("1n2g"), Qt::MatchContains);
    ASSERT_GE(regressed, 0);
    page->markExpected(regressed, QStringLiteral("driver 550, accepted"));
    ASSERT_TRUE(loaded.wait(20000));
    ASSERT_TRUE(waitUntil([&] { return !page->isLoading(); }, 20000));
    EXPECT_FALSE(page->caseBox()->itemText(regressed).contains(QStringLiteral("regression")))
        << page->statusText().toStdString();
    const auto gate =
        runProcess({SCALEVIEW_CLI, "history", "--fail-on-regression", "--history-db", uri});
    EXPECT_EQ(gate.exitCode, 0) << page->statusText().toStdString() << gate.out << gate.err;

    // A window started later with these settings reads the same store.
    sv::ui::AppSettings again(app.settings.fileName());
    sv::ui::MainWindow later(&again);
    EXPECT_EQ(later.historyPage()->databasePath().string(), uri);
    QSignalSpy laterLoaded(later.historyPage(), &HistoryPage::loaded);
    later.show();
    later.showPage(sv::ui::MainWindow::History);
    ASSERT_TRUE(laterLoaded.wait(20000));
    EXPECT_EQ(later.historyPage()->caseBox()->count(), 2)
        << later.historyPage()->statusText().toStdString();
}

TEST_F(HistoryPostgres, AReadOnlyRoleBrowsesAndItsRecordIsRefused) {
    NoHistoryEnvironment env;
    // The role the CLI tests refuse writes to: SELECT on the history's tables, nothing more.
    query("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'reader') THEN "
          "CREATE ROLE reader LOGIN; END IF; END $$;"
          "GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader");
    AppWindow app;
    HistoryPage* page = app.window.historyPage();
    QSignalSpy loaded(page, &HistoryPage::loaded);
    const std::string uri = server->socketUri(db, "reader");
    ASSERT_NO_FATAL_FAILURE(chooseDatabase(app, uri));
    app.window.show();
    app.window.showPage(sv::ui::MainWindow::History);
    ASSERT_TRUE(loaded.wait(20000));
    ASSERT_TRUE(waitUntil([&] { return !page->isLoading(); }, 20000));
    expectTheRegressionWithTheDriver(*page, uri);

    // Record in History with that role: refused with the reason, and nothing written.
    writeHistoryCampaign(dir / "night3", 1.0, 1.0, 0, "550.54.14");
    QPushButton* record = nullptr;
    for (auto* b : page->findChildren<QPushButton*>())
        if (b->text() == QStringLiteral("Record in History")) record = b;
    ASSERT_TRUE(record);
    page->setCurrentDirectory(QString::fromStdString((dir / "night3").string()));
    ASSERT_TRUE(record->isEnabled());
    QSignalSpy recorded(page, &HistoryPage::recorded);
    loaded.clear();
    record->click();
    ASSERT_TRUE(recorded.wait(20000));
    const std::string message = recorded.last().at(0).toString().toStdString();
    EXPECT_NE(message.find("the role reader may read the history"), std::string::npos) << message;
    EXPECT_NE(message.find("but not write to it"), std::string::npos) << message;
    EXPECT_EQ(message.find("recorded /"), std::string::npos) << message;
    ASSERT_TRUE(waitUntil([&] { return !page->isLoading() && loaded.count() > 0; }, 20000));
    EXPECT_EQ(page->table()->rowCount(), 2);
    EXPECT_EQ(query("SELECT count(*) FROM campaigns"), "2\n");
    // The user sees why on the page, after the reload as well (it said only "2 campaign(s)").
    EXPECT_TRUE(page->statusText().contains(QLatin1String("but not write to it")))
        << page->statusText().toStdString();
}

// Issue 37: switching the app's history to the team's PostgreSQL did not offer to take the
// local history along. The Database… dialog offers it (a box to tick) when the history used
// until now is a SQLite file; ticked, on Save its campaigns are copied into the server's in the
// background, each once, and the page says so.
TEST_F(HistoryPostgres, MovingToPostgresOffersToCopyTheLocalHistory) {
    NoHistoryEnvironment env;
    const auto local = dir / "local.sqlite";
    writeHistoryCampaign(dir / "night0", 0.98, 0.98, 3, "535.104.05");
    for (const char* night : {"night0", "night1"}) // night1 is on the server already
        ASSERT_EQ(cli({"history", "record", (dir / night).string(), "--history-db", local.string()})
                      .exitCode,
                  0);
    AppWindow app;
    HistoryPage* page = app.window.historyPage();
    QSignalSpy recorded(page, &HistoryPage::recorded);
    ASSERT_NO_FATAL_FAILURE(chooseDatabase(app, local.string()));
    // The first dialog, closed, is gone before the second opens.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    page->findChild<QPushButton*>(QStringLiteral("historyDatabaseButton"))->click();
    auto* dialog = page->findChild<HistoryLocationDialog*>();
    ASSERT_TRUE(dialog);
    ASSERT_TRUE(dialog->importBox());
    EXPECT_FALSE(dialog->importBox()->isHidden()) << "the local history is offered";
    // Offered, not imposed: a team's database takes a desk's campaigns only when asked.
    EXPECT_FALSE(dialog->importBox()->isChecked());
    dialog->importBox()->setChecked(true);
    EXPECT_TRUE(dialog->importBox()->text().contains(QString::fromStdString(local.string())))
        << dialog->importBox()->text().toStdString();
    const std::string uri = server->socketUri(db);
    dialog->field()->setText(QString::fromStdString(uri));
    dialog->accept();
    ASSERT_EQ(dialog->result(), QDialog::Accepted) << dialog->errorText().toStdString();
    ASSERT_TRUE(recorded.wait(30000));
    const QString said = recorded.front().front().toString();
    EXPECT_TRUE(said.contains(QStringLiteral("1 campaign added, 1 already there")))
        << said.toStdString();
    EXPECT_EQ(query("SELECT count(*) FROM campaigns"), "3\n");
    ASSERT_TRUE(waitUntil([&] { return !page->isLoading(); }, 20000));
    EXPECT_TRUE(page->statusText().contains(QStringLiteral("3 campaigns")))
        << page->statusText().toStdString();
    EXPECT_TRUE(std::filesystem::exists(local)) << "the local history is left as it was";
}
