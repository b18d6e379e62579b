// Save as Reference Table… and Import Reference Table… in the window: saved and imported
// tables appear in the reference selector; a malformed file is refused whole with the field
// and the reason, and none of its tables appears.

#include "tests/ui/uifixture.h"

#include "ui/analysis/analysiscontroller.h"
#include "ui/browse/controlpanel.h"
#include "ui/analysis/loadcontroller.h"
#include "ui/models/referencelistmodel.h"
#include "ui/browse/referencetables.h"

#include <QSignalSpy>
#include <QStatusBar>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>

using namespace sv::test;

namespace {

// The window's data directory for the test's duration.
struct DataHome {
    explicit DataHome(const std::filesystem::path& dir) {
        ::setenv("XDG_DATA_HOME", dir.c_str(), 1);
    }
    ~DataHome() { ::unsetenv("XDG_DATA_HOME"); }
};

std::string tableJson(const std::string& id, double oneGpu) {
    nlohmann::json t = {{"id", id},
                        {"title", id + " table"},
                        {"source", "test"},
                        {"framework", "NGC MXNet"},
                        {"hardware", "test"},
                        {"precision", "fp32"},
                        {"batch_size_per_device", 64},
                        {"method", "time"},
                        {"throughput", {{"1n1g", oneGpu}, {"1n2g", 250.0}}}};
    return t.dump();
}

} // namespace

TEST(ReferenceTablesUi, SavedAndImportedTablesAppearInTheSelector) {
    TempDir dir;
    DataHome home(dir / "data");
    writeCampaign(dir / "logs");
    AppWindow app;
    auto& w = app.window;
    auto* tables = w.referenceTables();
    QSignalSpy finished(tables, &sv::ui::ReferenceTables::finished);
    w.show();
    w.openDirectory(QString::fromStdString((dir / "logs").string()));
    ASSERT_TRUE(
        waitUntil([&] { return w.analysis()->current() && w.analysis()->current()->complete; }));
    auto* selector = w.controls()->references();

    sv::ReferenceTableInfo info;
    info.id = "my-cluster";
    info.title = "My cluster";
    info.source = "test";
    tables->save(w.analysis()->current()->summary, info);
    ASSERT_TRUE(finished.wait(20000));
    EXPECT_TRUE(finished.last().at(0).toBool()) << finished.last().at(1).toString().toStdString();
    EXPECT_TRUE(std::filesystem::exists(dir / "data/scaleview/references/my-cluster.json"));
    EXPECT_TRUE(selector->indexOf("my-cluster").isValid());
    // The analysis reads with the new tables: the saved table is a known reference now.
    ASSERT_TRUE(waitUntil([&] {
        const auto a = w.analysis()->current();
        return a && a->options.catalog && a->options.catalog->find("my-cluster");
    }));
    // The same id again is refused, the file kept.
    tables->save(w.analysis()->current()->summary, info);
    ASSERT_TRUE(finished.wait(20000));
    EXPECT_FALSE(finished.last().at(0).toBool());
    EXPECT_TRUE(finished.last().at(1).toString().contains(QStringLiteral("exists already")));

    // A well-formed file: imported and kept in the data directory.
    writeFile(dir / "imported.json", "{\"tables\": [" + tableJson("imported-one", 120.0) + "]}");
    tables->import(QString::fromStdString((dir / "imported.json").string()));
    ASSERT_TRUE(finished.wait(20000));
    EXPECT_TRUE(finished.last().at(0).toBool()) << finished.last().at(1).toString().toStdString();
    EXPECT_TRUE(selector->indexOf("imported-one").isValid());
    EXPECT_TRUE(selector->indexOf("my-cluster").isValid());
    EXPECT_TRUE(std::filesystem::exists(dir / "data/scaleview/references/imported.json"));

    // A file whose second table is malformed: refused whole, naming the field and the reason.
    writeFile(dir / "bad.json", "{\"tables\": [" + tableJson("good-half", 120.0) + ", " +
                                    tableJson("bad-half", -5.0) + "]}");
    tables->import(QString::fromStdString((dir / "bad.json").string()));
    ASSERT_TRUE(finished.wait(20000));
    EXPECT_FALSE(finished.last().at(0).toBool());
    const QString why = finished.last().at(1).toString();
    EXPECT_TRUE(why.contains(QStringLiteral("throughput.1n1g"))) << why.toStdString();
    EXPECT_TRUE(why.contains(QStringLiteral("not a positive number"))) << why.toStdString();
    EXPECT_FALSE(selector->indexOf("good-half").isValid());
    EXPECT_FALSE(selector->indexOf("bad-half").isValid());
    EXPECT_FALSE(std::filesystem::exists(dir / "data/scaleview/references/bad.json"));
    EXPECT_TRUE(selector->indexOf("imported-one").isValid());
}

TEST(ReferenceTablesUi, UserTablesAreListedAtStart) {
    TempDir dir;
    DataHome home(dir / "data");
    writeFile(dir / "data/scaleview/references/saved-before.json",
              "{\"tables\": [" + tableJson("saved-before", 120.0) + "]}");
    AppWindow app;
    ASSERT_TRUE(waitUntil(
        [&] { return app.window.controls()->references()->indexOf("saved-before").isValid(); }));
}

namespace {

// One window's lifetime on a settings file that outlives it, as two starts of the app are.
struct Session {
    explicit Session(const QString& ini) : settings(ini), window(&settings) {}
    sv::ui::AppSettings settings;
    sv::ui::MainWindow window;
    bool listed(const std::string& id) {
        return window.controls()->references()->indexOf(id).isValid();
    }
    bool checked(const std::string& id) {
        const QModelIndex i = window.controls()->references()->indexOf(id);
        return i.isValid() && i.data(Qt::CheckStateRole).toInt() == Qt::Checked;
    }
    // The analysis shown compares with id (the overlays in effect).
    bool inEffect(const std::string& id) {
        const auto a = window.analysis()->current();
        return a && a->complete &&
               std::find(a->references.begin(), a->references.end(), id) != a->references.end();
    }
};

} // namespace

// A table imported and checked as an overlay is listed and checked again after a restart; once
// its file is gone, the next start says so once in the status bar, unchecks it, and starts.
TEST(ReferenceTablesUi, AnImportedCheckedTableIsCheckedAgainAfterARestart) {
    TempDir dir;
    DataHome home(dir / "data");
    writeCampaign(dir / "logs");
    const QString logs = QString::fromStdString((dir / "logs").string());
    const QString ini = QString::fromStdString((dir / "scaleview.ini").string());
    writeFile(dir / "mine.json", "{\"tables\": [" + tableJson("imported-one", 120.0) + "]}");
    {
        Session first(ini);
        auto& w = first.window;
        QSignalSpy finished(w.referenceTables(), &sv::ui::ReferenceTables::finished);
        w.openDirectory(logs);
        ASSERT_TRUE(waitUntil(
            [&] { return w.analysis()->current() && w.analysis()->current()->complete; }));
        w.referenceTables()->import(QString::fromStdString((dir / "mine.json").string()));
        ASSERT_TRUE(finished.wait(20000));
        ASSERT_TRUE(finished.last().at(0).toBool())
            << finished.last().at(1).toString().toStdString();
        auto* model = w.controls()->references();
        ASSERT_TRUE(
            model->setData(model->indexOf("imported-one"), Qt::Checked, Qt::CheckStateRole));
        ASSERT_TRUE(waitUntil([&] { return first.inEffect("imported-one"); }, 20000));
    }
    {
        Session second(ini);
        ASSERT_TRUE(waitUntil([&] { return second.checked("imported-one"); }, 20000))
            << "imported-one listed: " << second.listed("imported-one");
        second.window.openDirectory(logs);
        EXPECT_TRUE(waitUntil([&] { return second.inEffect("imported-one"); }, 20000));
        EXPECT_TRUE(second.window.statusBar()->currentMessage().isEmpty())
            << second.window.statusBar()->currentMessage().toStdString();
    }

    // Its kept copy deleted, and another table file of the user's now malformed.
    std::filesystem::remove(dir / "data/scaleview/references/mine.json");
    writeFile(dir / "data/scaleview/references/broken.json", "{\"tables\": [{\"id\": 5}]}");
    {
        Session third(ini);
        ASSERT_TRUE(waitUntil([&] { return !third.window.statusBar()->currentMessage().isEmpty(); },
                              20000));
        const QString said = third.window.statusBar()->currentMessage();
        EXPECT_TRUE(said.contains(QStringLiteral("imported-one"))) << said.toStdString();
        EXPECT_TRUE(said.contains(QStringLiteral("unchecked"))) << said.toStdString();
        EXPECT_TRUE(said.contains(QStringLiteral("broken.json"))) << said.toStdString();
        EXPECT_FALSE(third.listed("imported-one"));
        third.window.openDirectory(logs);
        ASSERT_TRUE(waitUntil([&] {
            const auto a = third.window.analysis()->current();
            return a && a->complete;
        }));
        EXPECT_FALSE(third.inEffect("imported-one"));
    }
    {
        // Said once: the settings no longer hold it (the malformed file is still there, and
        // still said: it is the user's to mend).
        Session fourth(ini);
        ASSERT_TRUE(waitUntil(
            [&] { return !fourth.window.statusBar()->currentMessage().isEmpty(); }, 20000));
        EXPECT_FALSE(
            fourth.window.statusBar()->currentMessage().contains(QStringLiteral("imported-one")));
        EXPECT_FALSE(fourth.settings.checkedReferences()
                         .value_or(QStringList())
                         .contains(QStringLiteral("imported-one")));
    }
}
