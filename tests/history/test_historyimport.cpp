// `history import` of what a user may hand it (issue 36, item 11): a file that is not SQLite, a
// history whose rows lie (negative, infinite or non-numeric throughputs, a forged identity) and
// huge files. The source is opened read-only and never touched: its bytes, name and time are the
// same afterwards; every row is checked, a bad one named with its row and reason; and the work is
// bounded (the command runs under an address-space limit).

#include "tests/history/historyfixture.h"
#include "tests/support/process.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <set>

using namespace sv::test;
namespace fs = std::filesystem;

namespace {

// What must not change about the source: its bytes, its time, and the names in its folder.
struct Untouched {
    fs::path file;
    std::string bytes;
    fs::file_time_type time;
    std::set<std::string> names;

    explicit Untouched(const fs::path& f) : file(f) {
        // An old time, so that any write shows.
        fs::last_write_time(file, fs::file_time_type::clock::now() - std::chrono::hours(24 * 400));
        bytes = readWhole(file);
        time = fs::last_write_time(file);
        names = namesIn(file.parent_path());
    }
    static std::set<std::string> namesIn(const fs::path& dir) {
        std::set<std::string> out;
        for (const auto& e : fs::directory_iterator(dir))
            out.insert(e.path().filename().string());
        return out;
    }
    void check() const {
        ASSERT_TRUE(fs::exists(file)) << file << " was moved";
        EXPECT_TRUE(readWhole(file) == bytes) << file << "'s bytes changed";
        EXPECT_TRUE(fs::last_write_time(file) == time) << file << "'s time changed";
        EXPECT_EQ(namesIn(file.parent_path()), names);
    }
};

// Statements run on a SQLite file in this process (the connection closed afterwards).
void sql(const fs::path& file, const std::vector<std::string>& statements) {
    const QString name = QStringLiteral("tamper");
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(QString::fromStdString(file.string()));
        ASSERT_TRUE(db.open());
        QSqlQuery q(db);
        for (const auto& s : statements)
            ASSERT_TRUE(q.exec(QString::fromStdString(s)))
                << s << ": " << q.lastError().text().toStdString();
        q.finish();
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
}

// A source history of `weeks` generated campaigns recorded through the CLI, in its own folder.
fs::path recordedSource(const TempDir& dir, int weeks) {
    const fs::path source = dir / "from" / "history.sqlite";
    for (int i = 0; i < weeks; ++i) {
        const auto c = dir / ("week" + std::to_string(i + 1));
        writeHistoryCampaign(c, 1.0 + 0.01 * i, 1.0, 28 - 7 * i, "535.104.05");
        const auto r = cli({"history", "record", c.string(), "--history-db", source.string()});
        EXPECT_EQ(r.exitCode, 0) << r.err;
    }
    return source;
}

ProcessResult import(const fs::path& source, const fs::path& into) {
    return cli({"history", "import", source.string(), "--history-db", into.string()});
}

int campaignsIn(const fs::path& history) {
    const auto r = cli({"history", "--format", "json", "--history-db", history.string()});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out, nullptr, false);
    return j.is_discarded() || j["cases"].empty()
               ? 0
               : static_cast<int>(j["cases"][0]["campaigns"].size());
}

} // namespace

TEST(HistoryImport, AFileThatIsNotSqliteIsRefusedAndLeftAsItIs) {
    const std::vector<std::pair<std::string, std::string>> payloads{
        {"text", "campaign,median\nnight1,100\n"},
        {"bytes", std::string(8192, '\x7f')},
        {"sqlite header then garbage",
         std::string("SQLite format 3\0", 16) + std::string(4080, 'z')},
        {"empty", ""},
    };
    for (const auto& [what, bytes] : payloads) {
        TempDir dir;
        const fs::path source = dir / "from" / "history.sqlite";
        writeFile(source, bytes);
        const Untouched before(source);
        const auto r = import(source, dir / "into.sqlite");
        EXPECT_EQ(r.exitCode, 2) << what << ": " << r.out << r.err;
        EXPECT_NE(r.err.find(source.string()), std::string::npos) << what << ": " << r.err;
        EXPECT_NE(r.err.find("left as it is"), std::string::npos) << what << ": " << r.err;
        EXPECT_EQ(r.err.find("broken"), std::string::npos) << what << ": " << r.err;
        before.check();
        // Nothing was started in its place nor in the history named.
        EXPECT_FALSE(fs::exists(dir / "into.sqlite")) << what;
    }
}

TEST(HistoryImport, RowsThatLieAreRefusedEachWithItsRowAndReason) {
    TempDir dir;
    const fs::path source = recordedSource(dir, 5);
    // week1 stays true; the others each lie in one row.
    sql(source, {
                    "UPDATE cases SET median = -5 WHERE nodes * gpus_per_node = 2 AND campaign_id ="
                    " (SELECT id FROM campaigns WHERE label = 'week2')",
                    "UPDATE cases SET max = 9e999 WHERE nodes * gpus_per_node = 1 AND campaign_id ="
                    " (SELECT id FROM campaigns WHERE label = 'week3')",
                    "UPDATE cases SET repeats = '62.5 x 63' WHERE nodes * gpus_per_node = 1 AND"
                    " campaign_id = (SELECT id FROM campaigns WHERE label = 'week4')",
                    "UPDATE campaigns SET identity = 'drop table campaigns' WHERE label = 'week5'",
                });
    const Untouched before(source);
    const fs::path into = dir / "into.sqlite";
    const auto r = import(source, into);
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.out.find("1 campaign added, 0 already there, 4 failed"), std::string::npos)
        << r.out;
    for (const char* said : {"('week2'): cases row 2 (r50 fp32 bs64 1n2g): median -5 is not a "
                             "positive finite number",
                             "('week3'): cases row 1 (r50 fp32 bs64 1n1g): max inf is not a "
                             "positive finite number",
                             "('week4'): cases row 1 (r50 fp32 bs64 1n1g): repeat 2 'x' is not a "
                             "number",
                             "('week5'): identity 'drop table campaigns' is not 64 hexadecimal "
                             "digits"})
        EXPECT_NE(r.err.find(said), std::string::npos) << said << " in " << r.err;
    // Each names the file and the row it read.
    EXPECT_NE(r.err.find(source.string() + ": campaigns row "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("cases row "), std::string::npos) << r.err;
    before.check();
    EXPECT_EQ(campaignsIn(into), 1);
}

TEST(HistoryImport, HugeFilesAreRefusedWithinBoundedMemory) {
    TempDir dir;
    const fs::path source = recordedSource(dir, 2);
    // 64 Mi "1 " pairs in one case's repeats (a 128 MiB value), and 10 001 cases in the other
    // campaign (more than a campaign can hold).
    sql(source,
        {
            "UPDATE cases SET repeats = replace(hex(zeroblob(67108864)), '00', '1 ') WHERE"
            " nodes * gpus_per_node = 1 AND campaign_id = (SELECT id FROM campaigns WHERE label ="
            " 'week1')",
            "INSERT INTO cases (campaign_id, model, precision, batch_per_device, nodes,"
            " gpus_per_node, format, runs, median, min, max, mean, stdev, repeats)"
            " WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10001)"
            " SELECT (SELECT id FROM campaigns WHERE label = 'week2'), 'm' || i, 'fp32', 64, 1, 1,"
            " 'ngc-mxnet', 1, 60, 60, 60, 60, 0, '60' FROM n",
        });
    const Untouched before(source);
    const fs::path into = dir / "into.sqlite";
    // Within 1 GiB of address space: what the import holds is bounded whatever the file holds.
    const auto started = std::chrono::steady_clock::now();
    const auto r = runProcess({"/usr/bin/prlimit", "--as=1073741824", "--", SCALEVIEW_CLI,
                               "history", "import", source.string(), "--history-db", into.string()},
                              std::chrono::seconds(120));
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(60));
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.out.find("0 campaigns added, 0 already there, 2 failed"), std::string::npos)
        << r.out;
    EXPECT_NE(r.err.find("week1"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("repeats are longer than"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("week2"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("more than 10000 cases"), std::string::npos) << r.err;
    before.check();
}

TEST(HistoryImport, MoreCampaignsThanAnImportTakesIsRefusedBeforeAnyIsRead) {
    TempDir dir;
    const fs::path source = recordedSource(dir, 1);
    sql(source, {"INSERT INTO campaigns (identity, path, label, ran_at, recorded_at, hosts,"
                 " driver, cuda, gpu_model, container_image, method, warmup, iterations)"
                 " WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)"
                 " SELECT printf('%064x', i), '/x', 'n' || i, '2026-01-01T00:00:00Z',"
                 " '2026-01-01T00:00:00Z', '', '', '', '', '', 'time', 20, 120 FROM n"});
    const Untouched before(source);
    const fs::path into = dir / "into.sqlite";
    const auto r = import(source, into);
    EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("holds 100001 campaigns, more than the 100000 an import takes"),
              std::string::npos)
        << r.err;
    before.check();
}
