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
#include <sstream>

namespace sv::history {
namespace fs = std::filesystem;

namespace {

constexpr int kSchemaVersion = 1;

const char* kSchema[] = {
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
};

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

std::string describe(const QSqlError& e) {
    return e.text().toStdString();
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

HistoryDatabase::HistoryDatabase(const fs::path& path, std::chrono::milliseconds busyTimeout)
    : m_path(path), m_busyTimeout(busyTimeout), m_connection(nextConnectionName()) {
    if (m_path.empty()) {
        m_error = "the history is off (SCALEVIEW_HISTORY_DB=off)";
        return;
    }
    std::error_code ec;
    if (m_path.has_parent_path()) fs::create_directories(m_path.parent_path(), ec);
    std::string why;
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
    if (!q.exec(QStringLiteral("BEGIN IMMEDIATE"))) return failed("locking it");
    for (const char* statement : kSchema)
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

HistoryDatabase::RecordResult HistoryDatabase::record(const CampaignRecord& c,
                                                      const CaseWritten& caseWritten) {
    RecordResult out;
    if (!m_open) {
        out.message = m_error.empty() ? "the history is not open" : m_error;
        return out;
    }
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    QSqlQuery q(db);
    auto fail = [&](const std::string& doing) {
        out.outcome = Outcome::Failed;
        out.message = "recording " + c.path + " in " + m_path.string() + ": " + doing +
                      (q.lastError().isValid() ? ": " + describe(q.lastError()) : std::string());
        QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
        return out;
    };
    // One transaction: a crash or an error before COMMIT leaves the history as it was.
    if (!q.exec(QStringLiteral("BEGIN IMMEDIATE"))) return fail("cannot start a transaction");
    q.prepare(QStringLiteral("SELECT path, ran_at FROM campaigns WHERE identity = ?"));
    q.addBindValue(qs(c.identity));
    if (!q.exec()) return fail("cannot look it up");
    if (q.next()) {
        out.outcome = Outcome::AlreadyRecorded;
        out.message = c.path + " is already in the history (the same logs, recorded from " +
                      q.value(0).toString().toStdString() + ")";
        q.finish();
        QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
        return out;
    }
    q.finish();
    q.prepare(QStringLiteral(
        "INSERT INTO campaigns (identity, path, label, ran_at, recorded_at, hosts, driver, cuda,"
        " gpu_model, container_image, method, warmup, iterations)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    const EnvironmentSummary& env = c.environment;
    for (const QVariant& v :
         {QVariant(qs(c.identity)), QVariant(qs(c.path)), QVariant(qs(c.label)),
          QVariant(qs(c.time)), QVariant(QDateTime::currentDateTimeUtc().toString(Qt::ISODate)),
          QVariant(qs(joinLines(env.hosts))), QVariant(qs(env.driver)), QVariant(qs(env.cuda)),
          QVariant(qs(env.gpuModel)), QVariant(qs(env.containerImage)), QVariant(qs(c.method)),
          QVariant(c.warmup), QVariant(c.iterations)})
        q.addBindValue(v);
    if (!q.exec()) return fail("cannot write the campaign");
    const qlonglong id = q.lastInsertId().toLongLong();
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
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral(
            "SELECT id, identity, path, label, ran_at, recorded_at, hosts, driver, cuda,"
            " gpu_model, container_image, method, warmup, iterations FROM campaigns"
            " ORDER BY ran_at, id"))) {
        if (error) *error = m_path.string() + ": " + describe(q.lastError());
        return std::nullopt;
    }
    std::vector<StoredCampaign> out;
    std::vector<qlonglong> ids;
    while (q.next()) {
        StoredCampaign s;
        CampaignRecord& r = s.record;
        ids.push_back(q.value(0).toLongLong());
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
    c.prepare(QStringLiteral(
        "SELECT model, precision, batch_per_device, nodes, gpus_per_node, format, runs, median,"
        " min, max, mean, stdev, repeats FROM cases WHERE campaign_id = ?"
        " ORDER BY model, precision, batch_per_device, format, nodes * gpus_per_node, nodes"));
    for (std::size_t i = 0; i < out.size(); ++i) {
        c.bindValue(0, ids[i]);
        if (!c.exec()) {
            if (error) *error = m_path.string() + ": " + describe(c.lastError());
            return std::nullopt;
        }
        while (c.next()) {
            CaseRecord k;
            k.key.model = c.value(0).toString().toStdString();
            k.key.precision = c.value(1).toString().toStdString();
            k.key.batchPerDevice = c.value(2).toInt();
            k.key.topology.nodes = c.value(3).toInt();
            k.key.topology.gpusPerNode = c.value(4).toInt();
            k.key.format = c.value(5).toString().toStdString();
            k.runs = c.value(6).toInt();
            k.median = c.value(7).toDouble();
            k.min = c.value(8).toDouble();
            k.max = c.value(9).toDouble();
            if (!c.value(10).isNull()) k.mean = c.value(10).toDouble();
            if (!c.value(11).isNull()) k.stdev = c.value(11).toDouble();
            k.values = repeatsFrom(c.value(12).toString());
            out[i].record.cases.push_back(std::move(k));
        }
        c.finish();
    }
    return out;
}

} // namespace sv::history
