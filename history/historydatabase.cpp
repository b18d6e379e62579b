#include "history/historydatabase.h"
#include "history/sqltext.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QVariant>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

namespace sv::history {
namespace fs = std::filesystem;
using namespace sqltext;

namespace {

// Version 1: campaigns and cases. Version 2: expectations (verdicts marked expected).
// Version 3: node_probes (each node's solo probe figures per campaign, issue 28).
// Version 4: case_parameters (what each case's logs' parameter dumps state, issue 29).
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
};

// Every ScaleView that creates or migrates the shared schema takes this transaction-scoped
// advisory lock first: two first writers at once would otherwise race on CREATE TABLE.
constexpr qint64 kSchemaLock = 0x5343414C45564945; // "SCALEVIE"

QString nextConnectionName() {
    static std::atomic<int> counter{0};
    return QStringLiteral("scaleview-history-%1").arg(++counter);
}

// SQLite's result codes as Qt's driver reports them (nativeErrorCode), with the words as a
// fallback: 5 busy, 6 locked; 11 corrupt, 26 not a database.
bool isBusy(const QSqlError& e) {
    const QString code = e.nativeErrorCode();
    return code == QLatin1String("5") || code == QLatin1String("6") ||
           e.text().contains(QLatin1String("locked"));
}


} // namespace

fs::path HistoryDatabase::defaultPath() {
    if (const char* env = std::getenv("SCALEVIEW_HISTORY_DB"); env && *env)
        return std::string(env) == "off" ? fs::path() : fs::path(env);
    const QString data = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    return fs::path(data.toStdString()) / "scaleview" / "history.sqlite";
}

HistoryDatabase::HistoryDatabase(const fs::path& location, std::chrono::milliseconds busyTimeout)
    : m_path(location), m_busyTimeout(busyTimeout), m_connection(nextConnectionName()) {
    if (m_path.empty()) {
        m_error = "the history is off (SCALEVIEW_HISTORY_DB=off)";
        return;
    }
    m_location = parseHistoryLocation(m_path.string());
    if (m_location.kind == HistoryLocation::Kind::Invalid) {
        m_error = m_location.error;
        return;
    }
    std::string why;
    if (m_location.isPostgres()) {
        if (openPostgres(&why) != Health::Ok) {
            close();
            m_error = m_path.string() + ": " + why;
            return;
        }
        m_open = true;
        return;
    }
    std::error_code ec;
    if (m_path.has_parent_path() && !fs::is_directory(m_path.parent_path())) {
        fs::create_directories(m_path.parent_path(), ec);
        if (ec) {
            m_error = m_path.string() + ": cannot create its folder " +
                      m_path.parent_path().string() + ": " + ec.message();
            return;
        }
    }
    Health health = openAndPrepare(&why);
    if (health == Health::Corrupt || health == Health::Locked) {
        close();
        if (!setAside(why)) return;
        health = openAndPrepare(&why);
    }
    if (health != Health::Ok) {
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

HistoryDatabase::Health HistoryDatabase::openPostgres(std::string* why) {
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QPSQL"))) {
        *why = "Qt's PostgreSQL driver is not installed (Debian: libqt6sql6-psql)";
        return Health::Newer;
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
        return Health::Newer;
    }
    QSqlQuery q(db);
    // A role that may only read finds the schema made and current: it needs no DDL.
    if (q.exec(QStringLiteral("SELECT max(version) FROM schema_version")) && q.next() &&
        !q.value(0).isNull()) {
        const int version = q.value(0).toInt();
        q.finish();
        if (version > kSchemaVersion) {
            *why = "written by a newer ScaleView (history version " + std::to_string(version) +
                   "); left as it is";
            return Health::Newer;
        }
        if (version == kSchemaVersion) return Health::Ok;
    }
    q.finish();
    // Create or migrate, under the schema lock, in one transaction.
    auto failed = [&](const char* doing) {
        const QSqlError e = q.lastError();
        QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
        *why = std::string(doing) + ": " + describe(e);
        if (e.nativeErrorCode() == QLatin1String("42501"))
            *why += " (this role may not create or migrate ScaleView's tables: let the "
                    "database's owner run any ScaleView history command once first)";
        return Health::Newer;
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
        return Health::Newer;
    }
    if (version < kSchemaVersion) {
        if (!q.exec(QStringLiteral("DELETE FROM schema_version")) ||
            !q.exec(QStringLiteral("INSERT INTO schema_version (version) VALUES (%1)")
                        .arg(kSchemaVersion)))
            return failed("writing its version");
    }
    if (!q.exec(QStringLiteral("COMMIT"))) return failed("creating its tables");
    return Health::Ok;
}

HistoryDatabase::Health HistoryDatabase::openAndPrepare(std::string* why) {
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE"))) {
        *why = "Qt's SQLite driver is not installed (Debian: libqt6sql6-sqlite)";
        return Health::Newer; // not set aside: nothing is wrong with the file
    }
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
    db.setDatabaseName(qs(m_path.string()));
    db.setConnectOptions(
        QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(static_cast<qint64>(m_busyTimeout.count())));
    if (!db.open()) {
        *why = "cannot open: " + describe(db.lastError());
        return isBusy(db.lastError()) ? Health::Locked : Health::Corrupt;
    }
    QSqlQuery q(db);
    auto failed = [&](const char* doing) {
        const QSqlError e = q.lastError();
        *why = std::string(doing) + ": " + describe(e);
        if (isBusy(e)) {
            *why = "locked by another program for more than " +
                   std::to_string(m_busyTimeout.count()) + " ms (" + describe(e) + ")";
            return Health::Locked;
        }
        return Health::Corrupt;
    };
    // A file that is not SQLite fails here; a damaged one fails the check.
    if (!q.exec(QStringLiteral("PRAGMA quick_check"))) return failed("checking it");
    if (q.next() && q.value(0).toString() != QLatin1String("ok")) {
        *why = "damaged (SQLite's quick_check: " + q.value(0).toString().toStdString() + ")";
        return Health::Corrupt;
    }
    q.finish();
    if (!q.exec(QStringLiteral("PRAGMA user_version")) || !q.next())
        return failed("reading its version");
    const int version = q.value(0).toInt();
    q.finish();
    if (version > kSchemaVersion) {
        *why = "written by a newer ScaleView (history version " + std::to_string(version) +
               "); left as it is";
        return Health::Newer;
    }
    // Creating the tables takes the write lock: a writer holding it past the timeout shows here.
    // Version 1 files gain the expectations table (CREATE TABLE IF NOT EXISTS is the migration).
    if (!q.exec(QStringLiteral("BEGIN IMMEDIATE"))) return failed("locking it");
    for (const char* statement : kSqliteSchema)
        if (!q.exec(QString::fromLatin1(statement))) {
            const Health h = failed("creating its tables");
            QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
            return h;
        }
    if (!q.exec(QStringLiteral("PRAGMA user_version = %1").arg(kSchemaVersion)) ||
        !q.exec(QStringLiteral("COMMIT"))) {
        const Health h = failed("creating its tables");
        QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
        return h;
    }
    q.exec(QStringLiteral("PRAGMA foreign_keys = ON"));
    return Health::Ok;
}

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
