#include "history/historydatabase.h"
#include "history/sqltext.h"

#include <QDateTime>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QVariant>

#include <atomic>
#include <cctype>
#include <cstdlib>

namespace sv::history {
namespace fs = std::filesystem;
using namespace sqltext;

namespace {

// Version 1: campaigns and cases. Version 2: expectations (verdicts marked expected).
// Version 3: node_probes (each node's solo probe figures per campaign, issue 28).
// Version 4: case_parameters (what each case's logs' parameter dumps state, issue 29).
// Version 5: campaign_origins (another site's campaign imported from its bundle, issue 39).
// SQLite keeps its version in PRAGMA user_version, PostgreSQL in the table schema_version.
const char* kSqliteSchema[] = {
    "CREATE TABLE IF NOT EXISTS campaigns ("
    " id INTEGER PRIMARY KEY, identity TEXT NOT NULL UNIQUE, path TEXT NOT NULL,"
    " label TEXT NOT NULL, ran_at TEXT NOT NULL, recorded_at TEXT NOT NULL,"
    " hosts TEXT NOT NULL, driver TEXT NOT NULL, cuda TEXT NOT NULL, gpu_model TEXT NOT NULL,"
    " container_image TEXT NOT NULL, method TEXT NOT NULL, warmup INTEGER NOT NULL,"
    " iterations INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS cases ("
    " campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,"
    " model TEXT NOT NULL, precision TEXT NOT NULL, batch_per_device INTEGER NOT NULL,"
    " nodes INTEGER NOT NULL, gpus_per_node INTEGER NOT NULL, format TEXT NOT NULL,"
    " runs INTEGER NOT NULL, median REAL NOT NULL, min REAL NOT NULL, max REAL NOT NULL,"
    " mean REAL, stdev REAL, repeats TEXT NOT NULL,"
    " PRIMARY KEY (campaign_id, model, precision, batch_per_device, nodes, gpus_per_node, format))",
    "CREATE TABLE IF NOT EXISTS expectations ("
    " case_key TEXT NOT NULL, campaign_identity TEXT NOT NULL, who TEXT NOT NULL,"
    " why TEXT NOT NULL, marked_at TEXT NOT NULL, PRIMARY KEY (case_key, campaign_identity))",
    "CREATE TABLE IF NOT EXISTS node_probes ("
    " campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,"
    " node TEXT NOT NULL, devices INTEGER NOT NULL, pace_per_device REAL NOT NULL,"
    " samples TEXT NOT NULL, topology TEXT NOT NULL, model TEXT NOT NULL,"
    " precision TEXT NOT NULL, batch_per_device INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS case_parameters ("
    " campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,"
    " model TEXT NOT NULL, precision TEXT NOT NULL, batch_per_device INTEGER NOT NULL,"
    " nodes INTEGER NOT NULL, gpus_per_node INTEGER NOT NULL, format TEXT NOT NULL,"
    " what TEXT NOT NULL, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS campaign_origins ("
    " campaign_id INTEGER NOT NULL UNIQUE REFERENCES campaigns(id) ON DELETE CASCADE,"
    " bundled_by TEXT NOT NULL, bundled_at TEXT NOT NULL, scaleview_version TEXT NOT NULL,"
    " bundle_file TEXT NOT NULL, signature_key TEXT NOT NULL)",
};

// The same tables in PostgreSQL's types (double precision: REAL is 4 bytes there).
const char* kPostgresSchema[] = {
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS campaigns ("
    " id BIGSERIAL PRIMARY KEY, identity TEXT NOT NULL UNIQUE, path TEXT NOT NULL,"
    " label TEXT NOT NULL, ran_at TEXT NOT NULL, recorded_at TEXT NOT NULL,"
    " hosts TEXT NOT NULL, driver TEXT NOT NULL, cuda TEXT NOT NULL, gpu_model TEXT NOT NULL,"
    " container_image TEXT NOT NULL, method TEXT NOT NULL, warmup INTEGER NOT NULL,"
    " iterations INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS cases ("
    " campaign_id BIGINT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,"
    " model TEXT NOT NULL, precision TEXT NOT NULL, batch_per_device INTEGER NOT NULL,"
    " nodes INTEGER NOT NULL, gpus_per_node INTEGER NOT NULL, format TEXT NOT NULL,"
    " runs INTEGER NOT NULL, median DOUBLE PRECISION NOT NULL, min DOUBLE PRECISION NOT NULL,"
    " max DOUBLE PRECISION NOT NULL, mean DOUBLE PRECISION, stdev DOUBLE PRECISION,"
    " repeats TEXT NOT NULL,"
    " PRIMARY KEY (campaign_id, model, precision, batch_per_device, nodes, gpus_per_node, format))",
    "CREATE TABLE IF NOT EXISTS expectations ("
    " case_key TEXT NOT NULL, campaign_identity TEXT NOT NULL, who TEXT NOT NULL,"
    " why TEXT NOT NULL, marked_at TEXT NOT NULL, PRIMARY KEY (case_key, campaign_identity))",
    "CREATE TABLE IF NOT EXISTS node_probes ("
    " campaign_id BIGINT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,"
    " node TEXT NOT NULL, devices INTEGER NOT NULL, pace_per_device DOUBLE PRECISION NOT NULL,"
    " samples TEXT NOT NULL, topology TEXT NOT NULL, model TEXT NOT NULL,"
    " precision TEXT NOT NULL, batch_per_device INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS case_parameters ("
    " campaign_id BIGINT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,"
    " model TEXT NOT NULL, precision TEXT NOT NULL, batch_per_device INTEGER NOT NULL,"
    " nodes INTEGER NOT NULL, gpus_per_node INTEGER NOT NULL, format TEXT NOT NULL,"
    " what TEXT NOT NULL, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS campaign_origins ("
    " campaign_id BIGINT NOT NULL UNIQUE REFERENCES campaigns(id) ON DELETE CASCADE,"
    " bundled_by TEXT NOT NULL, bundled_at TEXT NOT NULL, scaleview_version TEXT NOT NULL,"
    " bundle_file TEXT NOT NULL, signature_key TEXT NOT NULL)",
};

// Every ScaleView that creates or migrates the shared schema takes this transaction-scoped
// advisory lock first: two first writers at once would otherwise race on CREATE TABLE.
constexpr qint64 kSchemaLock = 0x5343414C45564945; // "SCALEVIE"

// The tables a reader may meet (an older schema lacks the later ones).
const char* kTables[] = {"campaigns",   "cases",           "expectations",
                         "node_probes", "case_parameters", "campaign_origins"};

QString nextConnectionName() {
    static std::atomic<int> counter{0};
    return QStringLiteral("scaleview-history-%1").arg(++counter);
}

// A SQLite URI for path with SQLite's own open mode: "ro" never writes a byte, "rw" never
// creates the file. Every byte but the unreserved ones and '/' is percent-encoded.
QString sqliteUri(const std::string& path, const char* mode) {
    QByteArray uri = "file:";
    for (const unsigned char c : path) {
        if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~')
            uri += static_cast<char>(c);
        else
            uri += '%' + QByteArray::number(c, 16).rightJustified(2, '0');
    }
    return QString::fromLatin1(uri + "?mode=" + mode);
}

std::string durationWords(std::chrono::milliseconds d) {
    return d.count() % 1000 == 0 ? std::to_string(d.count() / 1000) + " s"
                                 : std::to_string(d.count()) + " ms";
}

} // namespace

fs::path HistoryDatabase::defaultPath() {
    if (const char* env = std::getenv("SCALEVIEW_HISTORY_DB"); env && *env)
        return std::string(env) == "off" ? fs::path() : fs::path(env);
    const QString data = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    return fs::path(data.toStdString()) / "scaleview" / "history.sqlite";
}

HistoryDatabase::HistoryDatabase(const fs::path& location, Access access,
                                 std::chrono::milliseconds busyTimeout)
    : m_path(location), m_access(access), m_busyTimeout(busyTimeout),
      m_connection(nextConnectionName()) {
    if (m_path.empty()) {
        m_error = "the history is off (SCALEVIEW_HISTORY_DB=off)";
        return;
    }
    m_location = parseHistoryLocation(m_path.string());
    if (m_location.kind == HistoryLocation::Kind::Invalid) {
        m_error = m_location.error;
        return;
    }
    if (!m_location.isPostgres()) {
        openSqlite();
        return;
    }
    std::string why;
    if (openPostgres(&why) != Health::Ok) {
        close();
        m_error = m_path.string() + ": " + why;
        return;
    }
    m_open = true;
}

HistoryDatabase::~HistoryDatabase() {
    close();
}

void HistoryDatabase::close() {
    m_open = false;
    if (QSqlDatabase::contains(m_connection)) {
        {
            QSqlDatabase db = QSqlDatabase::database(m_connection, false);
            db.close();
        }
        QSqlDatabase::removeDatabase(m_connection);
    }
}

std::string HistoryDatabase::lockedWords(const std::string& sqlite) const {
    return m_path.string() + " is locked by another program, which held it for more than " +
           durationWords(m_busyTimeout) + " (SQLite: " + sqlite +
           "); the history is left as it is: try again when that program is done";
}

// Only a command that records creates the file, and only it sets a corrupt one aside: a read
// never changes what it reads, and a lock is never corruption.
void HistoryDatabase::openSqlite() {
    std::error_code ec;
    if (m_access != Access::Record && !fs::exists(m_path, ec)) {
        m_error = "no history at " + m_path.string() + ": nothing has been recorded there";
        return;
    }
    if (m_access == Access::Record && m_path.has_parent_path() &&
        !fs::is_directory(m_path.parent_path(), ec)) {
        fs::create_directories(m_path.parent_path(), ec);
        if (ec) {
            m_error = m_path.string() + ": cannot create its folder " +
                      m_path.parent_path().string() + ": " + ec.message();
            return;
        }
    }
    std::string why;
    int version = 0;
    Health health = openAndCheck(&version, &why);
    if (health == Health::Corrupt && m_access == Access::Record) {
        close();
        if (!setAside(why)) return;
        health = openAndCheck(&version, &why);
    }
    if (health == Health::Ok && m_access == Access::Record && version < kSchemaVersion)
        health = migrateSqlite(&why);
    if (health == Health::Ok) health = findTables(&why);
    if (health == Health::Ok) {
        m_open = true;
        return;
    }
    close();
    if (health == Health::Locked)
        m_error = why;
    else if (health == Health::Corrupt)
        m_error = m_path.string() + " is " + why + "; it is left as it is" +
                  (m_access == Access::Read
                       ? " (recording into it sets it aside and starts a new history)"
                       : "");
    else
        m_error = m_path.string() + ": " + why;
}

// What went wrong, as SQLite said it: a lock (waited for up to the busy timeout), a file proven
// not SQLite or damaged, or anything else (a permission, a full disk: nothing wrong with the file).
HistoryDatabase::Health HistoryDatabase::failure(const QSqlError& e, const std::string& doing,
                                                 std::string* why) const {
    if (m_location.isPostgres()) {
        *why = doing + ": " + describe(e);
        return Health::Failed;
    }
    if (isBusy(e)) {
        *why = lockedWords(describe(e));
        return Health::Locked;
    }
    if (isCorrupt(e)) {
        *why = (sqliteCode(e) == 26 ? "not a SQLite database (SQLite: " : "damaged (SQLite: ") +
               describe(e) + ")";
        return Health::Corrupt;
    }
    // SQLite's read-only mode cannot roll back a write a program left unfinished (its hot
    // journal beside the file): that is SQLite's own recovery, for a reader that may write.
    if (m_access == Access::Source && sqliteCode(e) == 8) {
        *why = "left mid-write by a program that stopped (" + describe(e) +
               "), which a read-only import may not finish; it is left as it is: read it once "
               "with scaleview-cli history --history-db " +
               m_path.string() + ", which lets SQLite roll the unfinished write back, then import";
        return Health::Failed;
    }
    *why = doing + ": " + describe(e);
    return Health::Failed;
}

HistoryDatabase::Health HistoryDatabase::openAndCheck(int* version, std::string* why) {
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE"))) {
        *why = "Qt's SQLite driver is not installed (Debian: libqt6sql6-sqlite)";
        return Health::Failed;
    }
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
    QString options =
        QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(static_cast<qint64>(m_busyTimeout.count()));
    if (m_access == Access::Record) {
        db.setDatabaseName(qs(m_path.string()));
    } else {
        const bool source = m_access == Access::Source;
        db.setDatabaseName(sqliteUri(m_path.string(), source ? "ro" : "rw"));
        options += source ? QStringLiteral(";QSQLITE_OPEN_URI;QSQLITE_OPEN_READONLY")
                          : QStringLiteral(";QSQLITE_OPEN_URI");
    }
    db.setConnectOptions(options);
    if (!db.open()) return failure(db.lastError(), "cannot open it", why);
    QSqlQuery q(db);
    // A file that is not SQLite fails here; a damaged one fails the check.
    if (!q.exec(QStringLiteral("PRAGMA quick_check")))
        return failure(q.lastError(), "checking it", why);
    if (q.next() && q.value(0).toString() != QLatin1String("ok")) {
        *why = "damaged (SQLite's quick_check: " + q.value(0).toString().toStdString() + ")";
        return Health::Corrupt;
    }
    q.finish();
    if (!q.exec(QStringLiteral("PRAGMA user_version")) || !q.next())
        return failure(q.lastError(), "reading its version", why);
    *version = q.value(0).toInt();
    q.finish();
    if (*version > kSchemaVersion) {
        *why = "written by a newer ScaleView (history version " + std::to_string(*version) +
               "); left as it is";
        return Health::Failed;
    }
    q.exec(QStringLiteral("PRAGMA foreign_keys = ON"));
    return Health::Ok;
}

// Creating the tables takes the write lock: a writer holding it past the timeout shows here.
// An older file gains the later tables (CREATE TABLE IF NOT EXISTS is the migration).
HistoryDatabase::Health HistoryDatabase::migrateSqlite(std::string* why) {
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("BEGIN IMMEDIATE")))
        return failure(q.lastError(), "locking it", why);
    bool done = true;
    for (const char* statement : kSqliteSchema)
        done = done && q.exec(QString::fromLatin1(statement));
    done = done && q.exec(QStringLiteral("PRAGMA user_version = %1").arg(kSchemaVersion)) &&
           q.exec(QStringLiteral("COMMIT"));
    if (done) return Health::Ok;
    const Health h = failure(q.lastError(), "creating its tables", why);
    QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
    return h;
}

// Which of the tables are there: a reader of an older history reads those it has (it migrates
// nothing). Without campaigns and cases the file is no history of ScaleView's.
HistoryDatabase::Health HistoryDatabase::findTables(std::string* why) {
    QSqlQuery q(QSqlDatabase::database(m_connection, false));
    m_tables.clear();
    for (const char* table : kTables) {
        q.prepare(m_location.isPostgres()
                      ? QStringLiteral("SELECT to_regclass(?) IS NOT NULL")
                      : QStringLiteral("SELECT count(*) > 0 FROM sqlite_master WHERE type = "
                                       "'table' AND name = ?"));
        q.addBindValue(QString::fromLatin1(table));
        if (!q.exec() || !q.next()) return failure(q.lastError(), "listing its tables", why);
        if (q.value(0).toBool()) m_tables.insert(table);
        q.finish();
    }
    if (hasTable("campaigns") && hasTable("cases")) return Health::Ok;
    *why = "not a ScaleView history (it has no campaigns and cases tables); it is left as it is";
    return Health::Failed;
}

HistoryDatabase::Health HistoryDatabase::openPostgres(std::string* why) {
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QPSQL"))) {
        *why = "Qt's PostgreSQL driver is not installed (Debian: libqt6sql6-psql)";
        return Health::Failed;
    }
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), m_connection);
    // Every parameter goes to libpq as its conninfo (Qt appends the options to its own, which
    // are left empty); libpq finds the password itself (~/.pgpass, PGPASSFILE, a service file).
    std::string conninfo = m_location.conninfo();
    if (m_location.parameter("connect_timeout").empty())
        conninfo += (conninfo.empty() ? "" : " ") + std::string("connect_timeout='10'");
    if (m_location.parameter("application_name").empty())
        conninfo += " application_name='scaleview'";
    db.setConnectOptions(qs(conninfo));
    if (!db.open()) {
        *why = "cannot connect: " + describe(db.lastError());
        return Health::Failed;
    }
    QSqlQuery q(db);
    // A role that may only read finds the schema made and current: it needs no DDL. A reader
    // never makes nor migrates it, and reads the tables there are.
    int version = 0;
    if (q.exec(QStringLiteral("SELECT max(version) FROM schema_version")) && q.next() &&
        !q.value(0).isNull())
        version = q.value(0).toInt();
    q.finish();
    if (version > kSchemaVersion) {
        *why = "written by a newer ScaleView (history version " + std::to_string(version) +
               "); left as it is";
        return Health::Failed;
    }
    if (version < kSchemaVersion && m_access == Access::Record) {
        const Health h = migratePostgres(why);
        if (h != Health::Ok) return h;
    }
    return findTables(why);
}

// Create or migrate, under the schema lock, in one transaction.
HistoryDatabase::Health HistoryDatabase::migratePostgres(std::string* why) {
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    QSqlQuery q(db);
    auto failed = [&](const char* doing) {
        const QSqlError e = q.lastError();
        QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
        *why = std::string(doing) + ": " + describe(e);
        if (e.nativeErrorCode() == QLatin1String("42501"))
            *why += " (this role may not create or migrate ScaleView's tables: let the "
                    "database's owner run any ScaleView history command once first)";
        return Health::Failed;
    };
    if (!q.exec(QStringLiteral("BEGIN"))) return failed("starting a transaction");
    if (!q.exec(QStringLiteral("SELECT pg_advisory_xact_lock(%1)").arg(kSchemaLock)))
        return failed("taking the schema lock");
    for (const char* statement : kPostgresSchema)
        if (!q.exec(QString::fromLatin1(statement))) return failed("creating its tables");
    if (!q.exec(QStringLiteral("SELECT max(version) FROM schema_version")) || !q.next())
        return failed("reading its version");
    const int version = q.value(0).isNull() ? 0 : q.value(0).toInt();
    q.finish();
    if (version > kSchemaVersion) {
        QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
        *why = "written by a newer ScaleView (history version " + std::to_string(version) +
               "); left as it is";
        return Health::Failed;
    }
    if (version < kSchemaVersion &&
        (!q.exec(QStringLiteral("DELETE FROM schema_version")) ||
         !q.exec(QStringLiteral("INSERT INTO schema_version (version) VALUES (%1)")
                     .arg(kSchemaVersion))))
        return failed("writing its version");
    if (!q.exec(QStringLiteral("COMMIT"))) return failed("creating its tables");
    return Health::Ok;
}

// Only ever a file proven corrupt, only by a command that records: renamed with a timestamp,
// never deleted, and said.
bool HistoryDatabase::setAside(const std::string& why) {
    const QString stamp =
        QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd'T'HHmmss'Z'"));
    const QString base = qs(m_path.string());
    QString aside = base + QStringLiteral(".broken-") + stamp;
    for (int n = 2; QFile::exists(aside); ++n)
        aside = base + QStringLiteral(".broken-") + stamp + QLatin1Char('-') + QString::number(n);
    if (!QFile::rename(base, aside)) {
        m_error = m_path.string() + ": " + why + "; it could not be set aside as " +
                  aside.toStdString() + ", so the history is not used";
        return false;
    }
    // Its rollback journal or WAL go with it: left behind, SQLite would apply them to the new
    // file.
    for (const char* suffix : {"-journal", "-wal", "-shm"})
        if (QFile::exists(base + QLatin1String(suffix)))
            QFile::rename(base + QLatin1String(suffix), aside + QLatin1String(suffix));
    m_notice = "the history database " + m_path.string() + " was " + why + "; kept as " +
               aside.toStdString() + ", a new history was started";
    return true;
}

bool HistoryDatabase::connectionAlive() const {
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    if (!db.isOpen()) return false;
    QSqlQuery q(db);
    return q.exec(QStringLiteral("SELECT 1")) && q.next();
}

} // namespace sv::history
