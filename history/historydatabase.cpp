#include "history/historydatabase.h"

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

namespace {

// Version 1: campaigns and cases. Version 2: expectations (verdicts marked expected).
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

// The error on one line (PostgreSQL's span several).
std::string describe(const QSqlError& e) {
    return e.text().simplified().toStdString();
}

std::string joinLines(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v)
        out += (out.empty() ? "" : "\n") + s;
    return out;
}

std::vector<std::string> splitLines(const QString& s) {
    std::vector<std::string> out;
    for (const QString& part : s.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        out.push_back(part.toStdString());
    return out;
}

QString repeatsText(const std::vector<double>& values) {
    std::string out;
    char buf[32];
    for (double v : values) {
        std::snprintf(buf, sizeof buf, "%.17g", v);
        out += (out.empty() ? "" : " ") + std::string(buf);
    }
    return QString::fromStdString(out);
}

std::vector<double> repeatsFrom(const QString& text) {
    std::vector<double> out;
    for (const QString& part : text.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        out.push_back(part.toDouble());
    return out;
}

QString qs(const std::string& s) {
    return QString::fromStdString(s);
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

HistoryDatabase::RecordResult HistoryDatabase::record(const CampaignRecord& c,
                                                      const CaseWritten& caseWritten,
                                                      const std::string& recordedAt) {
    if (!m_open) {
        RecordResult out;
        out.message = m_error.empty() ? "the history is not open" : m_error;
        return out;
    }
    bool lost = false;
    RecordResult first = recordOnce(c, caseWritten, recordedAt, &lost);
    if (first.outcome != Outcome::Failed || !lost) return first;
    // The server rolled the transaction back with the connection: nothing of it was kept.
    // Connect again and try once more.
    const std::string dropped = "the connection to " + m_path.string() +
                                " dropped while recording " + c.path +
                                "; nothing of it was kept (" + first.message + ")";
    close();
    std::string why;
    if (openPostgres(&why) != Health::Ok) {
        close();
        m_error = m_path.string() + ": " + why;
        RecordResult out;
        out.message = dropped + "; connecting again failed (" + why +
                      "): record it again when the server is back";
        return out;
    }
    m_open = true;
    RecordResult second = recordOnce(c, caseWritten, recordedAt, &lost);
    second.message = dropped + "; tried once more: " + second.message;
    return second;
}

HistoryDatabase::RecordResult HistoryDatabase::recordOnce(const CampaignRecord& c,
                                                          const CaseWritten& caseWritten,
                                                          const std::string& recordedAt,
                                                          bool* connectionLost) {
    RecordResult out;
    *connectionLost = false;
    const bool pg = m_location.isPostgres();
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    QSqlQuery q(db);
    auto fail = [&](const std::string& doing) {
        out.outcome = Outcome::Failed;
        const QSqlError e = q.lastError();
        out.message = "recording " + c.path + " in " + m_path.string() + ": " + doing +
                      (e.isValid() ? ": " + describe(e) : std::string());
        q.finish();
        QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
        if (pg && !connectionAlive()) {
            *connectionLost = true;
        } else if (pg && (e.nativeErrorCode() == QLatin1String("42501") ||
                          e.text().contains(QLatin1String("permission denied")))) {
            QSqlQuery who(db);
            const std::string role = who.exec(QStringLiteral("SELECT current_user")) && who.next()
                                         ? who.value(0).toString().toStdString()
                                         : std::string("this role");
            out.message = "the role " + role + " may read the history " + m_path.string() +
                          " but not write to it, so " + c.path +
                          " was not recorded (PostgreSQL: " + describe(e) + ")";
        }
        return out;
    };
    // One transaction: a crash, an error or a lost connection before COMMIT leaves the history
    // as it was.
    if (!q.exec(pg ? QStringLiteral("BEGIN") : QStringLiteral("BEGIN IMMEDIATE")))
        return fail("cannot start a transaction");
    // The unique identity decides: a concurrent writer of the same campaign waits on the key
    // and then inserts nothing.
    q.prepare(QStringLiteral(
        "INSERT INTO campaigns (identity, path, label, ran_at, recorded_at, hosts, driver, cuda,"
        " gpu_model, container_image, method, warmup, iterations)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (identity) DO NOTHING RETURNING id"));
    const EnvironmentSummary& env = c.environment;
    const QString at =
        recordedAt.empty() ? QDateTime::currentDateTimeUtc().toString(Qt::ISODate) : qs(recordedAt);
    for (const QVariant& v :
         {QVariant(qs(c.identity)), QVariant(qs(c.path)), QVariant(qs(c.label)),
          QVariant(qs(c.time)), QVariant(at), QVariant(qs(joinLines(env.hosts))),
          QVariant(qs(env.driver)), QVariant(qs(env.cuda)), QVariant(qs(env.gpuModel)),
          QVariant(qs(env.containerImage)), QVariant(qs(c.method)), QVariant(c.warmup),
          QVariant(c.iterations)})
        q.addBindValue(v);
    if (!q.exec()) return fail("cannot write the campaign");
    if (!q.next()) {
        q.finish();
        QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
        QSqlQuery found(db);
        found.prepare(QStringLiteral("SELECT path FROM campaigns WHERE identity = ?"));
        found.addBindValue(qs(c.identity));
        const std::string where = found.exec() && found.next()
                                      ? found.value(0).toString().toStdString()
                                      : std::string("another writer");
        out.outcome = Outcome::AlreadyRecorded;
        out.message =
            c.path + " is already in the history (the same logs, recorded from " + where + ")";
        return out;
    }
    const qlonglong id = q.value(0).toLongLong();
    q.finish();
    int written = 0;
    for (const auto& k : c.cases) {
        q.prepare(QStringLiteral(
            "INSERT INTO cases (campaign_id, model, precision, batch_per_device, nodes,"
            " gpus_per_node, format, runs, median, min, max, mean, stdev, repeats)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
        for (const QVariant& v :
             {QVariant(id), QVariant(qs(k.key.model)), QVariant(qs(k.key.precision)),
              QVariant(k.key.batchPerDevice), QVariant(k.key.topology.nodes),
              QVariant(k.key.topology.gpusPerNode), QVariant(qs(k.key.format)), QVariant(k.runs),
              QVariant(k.median), QVariant(k.min), QVariant(k.max),
              k.mean ? QVariant(*k.mean) : QVariant(QMetaType(QMetaType::Double)),
              k.stdev ? QVariant(*k.stdev) : QVariant(QMetaType(QMetaType::Double)),
              QVariant(repeatsText(k.values))})
            q.addBindValue(v);
        if (!q.exec()) return fail("cannot write case " + k.key.topology.name());
        ++written;
        if (caseWritten && !caseWritten(written)) return fail("abandoned");
    }
    if (!q.exec(QStringLiteral("COMMIT"))) return fail("cannot commit");
    out.outcome = Outcome::Added;
    out.message = "recorded " + c.path + " (" + std::to_string(written) + " case" +
                  (written == 1 ? "" : "s") + ") in " + m_path.string();
    return out;
}

std::optional<std::vector<StoredCampaign>> HistoryDatabase::campaigns(std::string* error) const {
    if (!m_open) {
        if (error) *error = m_error.empty() ? "the history is not open" : m_error;
        return std::nullopt;
    }
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    // One snapshot for both reads: a writer committing in between must not show a campaign
    // without its cases. (SQLite's reads see one snapshot inside a transaction too.)
    QSqlQuery(db).exec(m_location.isPostgres()
                           ? QStringLiteral("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                           : QStringLiteral("BEGIN"));
    auto end = [&] { QSqlQuery(db).exec(QStringLiteral("ROLLBACK")); };
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral(
            "SELECT id, identity, path, label, ran_at, recorded_at, hosts, driver, cuda,"
            " gpu_model, container_image, method, warmup, iterations FROM campaigns"
            " ORDER BY ran_at, id"))) {
        if (error) *error = m_path.string() + ": " + describe(q.lastError());
        q.finish();
        end();
        return std::nullopt;
    }
    std::vector<StoredCampaign> out;
    std::map<qlonglong, std::size_t> index;
    while (q.next()) {
        StoredCampaign s;
        CampaignRecord& r = s.record;
        index[q.value(0).toLongLong()] = out.size();
        r.identity = q.value(1).toString().toStdString();
        r.path = q.value(2).toString().toStdString();
        r.label = q.value(3).toString().toStdString();
        r.time = q.value(4).toString().toStdString();
        s.recordedAt = q.value(5).toString().toStdString();
        r.environment.hosts = splitLines(q.value(6).toString());
        r.environment.driver = q.value(7).toString().toStdString();
        r.environment.cuda = q.value(8).toString().toStdString();
        r.environment.gpuModel = q.value(9).toString().toStdString();
        r.environment.containerImage = q.value(10).toString().toStdString();
        r.method = q.value(11).toString().toStdString();
        r.warmup = q.value(12).toInt();
        r.iterations = q.value(13).toInt();
        out.push_back(std::move(s));
    }
    q.finish();
    QSqlQuery c(db);
    c.setForwardOnly(true);
    if (!c.exec(QStringLiteral(
            "SELECT campaign_id, model, precision, batch_per_device, nodes, gpus_per_node,"
            " format, runs, median, min, max, mean, stdev, repeats FROM cases"
            " ORDER BY campaign_id, model, precision, batch_per_device, format,"
            " nodes * gpus_per_node, nodes"))) {
        if (error) *error = m_path.string() + ": " + describe(c.lastError());
        c.finish();
        end();
        return std::nullopt;
    }
    while (c.next()) {
        const auto it = index.find(c.value(0).toLongLong());
        if (it == index.end()) continue;
        CaseRecord k;
        k.key.model = c.value(1).toString().toStdString();
        k.key.precision = c.value(2).toString().toStdString();
        k.key.batchPerDevice = c.value(3).toInt();
        k.key.topology.nodes = c.value(4).toInt();
        k.key.topology.gpusPerNode = c.value(5).toInt();
        k.key.format = c.value(6).toString().toStdString();
        k.runs = c.value(7).toInt();
        k.median = c.value(8).toDouble();
        k.min = c.value(9).toDouble();
        k.max = c.value(10).toDouble();
        if (!c.value(11).isNull()) k.mean = c.value(11).toDouble();
        if (!c.value(12).isNull()) k.stdev = c.value(12).toDouble();
        k.values = repeatsFrom(c.value(13).toString());
        out[it->second].record.cases.push_back(std::move(k));
    }
    c.finish();
    end();
    return out;
}

std::string HistoryDatabase::expect(const Expectation& e) {
    if (!m_open) return m_error.empty() ? "the history is not open" : m_error;
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    QSqlQuery q(db);
    q.prepare(QStringLiteral(
        "INSERT INTO expectations (case_key, campaign_identity, who, why, marked_at)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (case_key, campaign_identity)"
        " DO UPDATE SET who = excluded.who, why = excluded.why, marked_at = excluded.marked_at"));
    for (const std::string& v :
         {e.caseKey, e.campaignIdentity, e.who, e.why,
          e.at.empty() ? QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString()
                       : e.at})
        q.addBindValue(qs(v));
    if (!q.exec()) {
        const QSqlError err = q.lastError();
        if (err.nativeErrorCode() == QLatin1String("42501") ||
            err.text().contains(QLatin1String("permission denied")))
            return "this role may read the history " + m_path.string() + " but not write to it (" +
                   describe(err) + ")";
        return m_path.string() + ": cannot mark the verdict expected: " + describe(err);
    }
    return {};
}

std::optional<std::vector<HistoryDatabase::Expectation>>
HistoryDatabase::expectations(std::string* error) const {
    if (!m_open) {
        if (error) *error = m_error.empty() ? "the history is not open" : m_error;
        return std::nullopt;
    }
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT case_key, campaign_identity, who, why, marked_at"
                               " FROM expectations ORDER BY marked_at"))) {
        if (error) *error = m_path.string() + ": " + describe(q.lastError());
        return std::nullopt;
    }
    std::vector<Expectation> out;
    while (q.next())
        out.push_back({q.value(0).toString().toStdString(), q.value(1).toString().toStdString(),
                       q.value(2).toString().toStdString(), q.value(3).toString().toStdString(),
                       q.value(4).toString().toStdString()});
    return out;
}

HistoryDatabase::ImportResult HistoryDatabase::importFrom(const HistoryDatabase& source) {
    ImportResult out;
    std::string error;
    const auto all = source.campaigns(&error);
    if (!all) {
        ++out.failed;
        out.messages.push_back(error);
        return out;
    }
    for (const StoredCampaign& s : *all) {
        const RecordResult r = record(s.record, {}, s.recordedAt);
        if (r.outcome == Outcome::Added)
            ++out.added;
        else if (r.outcome == Outcome::AlreadyRecorded)
            ++out.alreadyThere;
        else {
            ++out.failed;
            out.messages.push_back(r.message);
        }
    }
    if (const auto marks = source.expectations(&error))
        for (const Expectation& e : *marks)
            if (std::string why = expect(e); !why.empty()) {
                ++out.failed;
                out.messages.push_back(why);
            }
    return out;
}

} // namespace sv::history
