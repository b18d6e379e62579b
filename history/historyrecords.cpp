// HistoryDatabase: recording campaigns, reading them back, and expectations (the opening, the
// schema and its migration are in historydatabase.cpp; importing another history is
// HistoryImport's).
#include "history/historydatabase.h"
#include "history/sqltext.h"

#include <QDateTime>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <cstdlib>
#include <map>
#include <pwd.h>
#include <unistd.h>

namespace sv::history {
using namespace sqltext;

namespace {

// The campaign's row; *id is left empty when the same identity is there already.
bool insertCampaign(QSqlQuery& q, const CampaignRecord& c, const std::string& recordedAt,
                    std::optional<qlonglong>* id) {
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
    if (!q.exec()) return false;
    if (q.next()) *id = q.value(0).toLongLong();
    q.finish();
    return true;
}

bool insertCase(QSqlQuery& q, qlonglong campaignId, const CaseRecord& k) {
    q.prepare(
        QStringLiteral("INSERT INTO cases (campaign_id, model, precision, batch_per_device, nodes,"
                       " gpus_per_node, format, runs, median, min, max, mean, stdev, repeats)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    for (const QVariant& v :
         {QVariant(campaignId), QVariant(qs(k.key.model)), QVariant(qs(k.key.precision)),
          QVariant(k.key.batchPerDevice), QVariant(k.key.topology.nodes),
          QVariant(k.key.topology.gpusPerNode), QVariant(qs(k.key.format)), QVariant(k.runs),
          QVariant(k.median), QVariant(k.min), QVariant(k.max),
          k.mean ? QVariant(*k.mean) : QVariant(QMetaType(QMetaType::Double)),
          k.stdev ? QVariant(*k.stdev) : QVariant(QMetaType(QMetaType::Double)),
          QVariant(repeatsText(k.values))})
        q.addBindValue(v);
    return q.exec();
}

// A case's parameter facts (CaseRecord::parameters), one row each, and its disturbed runs' count
// as one more under a reserved name (no schema change).
bool writeCaseParameters(QSqlQuery& q, qlonglong campaignId, const CaseRecord& k) {
    auto write = [&](const QString& what, const QString& value) {
        q.prepare(QStringLiteral(
            "INSERT INTO case_parameters (campaign_id, model, precision, batch_per_device,"
            " nodes, gpus_per_node, format, what, value) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"));
        for (const QVariant& v :
             {QVariant(campaignId), QVariant(qs(k.key.model)), QVariant(qs(k.key.precision)),
              QVariant(k.key.batchPerDevice), QVariant(k.key.topology.nodes),
              QVariant(k.key.topology.gpusPerNode), QVariant(qs(k.key.format)), QVariant(what),
              QVariant(value)})
            q.addBindValue(v);
        return q.exec();
    };
    for (const auto& f : k.parameters)
        if (!write(qs(f.what), qs(f.value))) return false;
    return k.disturbed <= 0 ||
           write(QString::fromLatin1(kDisturbedRunsFact), QString::number(k.disturbed));
}

// Where an imported campaign came from (CampaignRecord::origin), when it did.
bool writeOrigin(QSqlQuery& q, qlonglong campaignId, const std::optional<CampaignOrigin>& o) {
    if (!o) return true;
    q.prepare(QStringLiteral("INSERT INTO campaign_origins (campaign_id, bundled_by, bundled_at,"
                             " scaleview_version, bundle_file, signature_key)"
                             " VALUES (?, ?, ?, ?, ?, ?)"));
    for (const QVariant& v : {QVariant(campaignId), QVariant(qs(o->bundledBy)),
                              QVariant(qs(o->bundledAt)), QVariant(qs(o->scaleviewVersion)),
                              QVariant(qs(o->bundleFile)), QVariant(qs(o->signatureKey))})
        q.addBindValue(v);
    return q.exec();
}

bool readOrigins(QSqlQuery& q, const std::map<qlonglong, std::size_t>& index,
                 std::vector<StoredCampaign>& out) {
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT campaign_id, bundled_by, bundled_at, scaleview_version,"
                               " bundle_file, signature_key FROM campaign_origins")))
        return false;
    while (q.next()) {
        const auto it = index.find(q.value(0).toLongLong());
        if (it == index.end()) continue;
        out[it->second].record.origin =
            CampaignOrigin{q.value(1).toString().toStdString(), q.value(2).toString().toStdString(),
                           q.value(3).toString().toStdString(), q.value(4).toString().toStdString(),
                           q.value(5).toString().toStdString()};
    }
    q.finish();
    return true;
}

// The campaigns' rows, oldest first (index: campaign id -> out's index).
bool readCampaignRows(QSqlQuery& q, std::vector<StoredCampaign>& out,
                      std::map<qlonglong, std::size_t>& index) {
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral(
            "SELECT id, identity, path, label, ran_at, recorded_at, hosts, driver, cuda,"
            " gpu_model, container_image, method, warmup, iterations FROM campaigns"
            " ORDER BY ran_at, id")))
        return false;
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
    return true;
}

// Each campaign's cases onto it.
bool readCaseRows(QSqlQuery& c, const std::map<qlonglong, std::size_t>& index,
                  std::vector<StoredCampaign>& out) {
    c.setForwardOnly(true);
    if (!c.exec(QStringLiteral(
            "SELECT campaign_id, model, precision, batch_per_device, nodes, gpus_per_node,"
            " format, runs, median, min, max, mean, stdev, repeats FROM cases"
            " ORDER BY campaign_id, model, precision, batch_per_device, format,"
            " nodes * gpus_per_node, nodes")))
        return false;
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
    return true;
}

// Each case's parameter facts, onto the cases read (index: campaign id -> out's index).
bool readCaseParameters(QSqlQuery& q, const std::map<qlonglong, std::size_t>& index,
                        std::vector<StoredCampaign>& out) {
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral(
            "SELECT campaign_id, model, precision, batch_per_device, nodes, gpus_per_node,"
            " format, what, value FROM case_parameters")))
        return false;
    while (q.next()) {
        const auto it = index.find(q.value(0).toLongLong());
        if (it == index.end()) continue;
        CaseKey key;
        key.model = q.value(1).toString().toStdString();
        key.precision = q.value(2).toString().toStdString();
        key.batchPerDevice = q.value(3).toInt();
        key.topology.nodes = q.value(4).toInt();
        key.topology.gpusPerNode = q.value(5).toInt();
        key.format = q.value(6).toString().toStdString();
        for (CaseRecord& k : out[it->second].record.cases)
            if (k.key == key)
                addStoredCaseFact(
                    k, {q.value(7).toString().toStdString(), q.value(8).toString().toStdString()});
    }
    q.finish();
    return true;
}

} // namespace

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

// The transaction rolled back and why, in words: a SQLite lock held past the timeout, a lost
// connection (*connectionLost: record() tries once more), a role that may only read.
HistoryDatabase::RecordResult HistoryDatabase::recordFailed(QSqlQuery& q, const CampaignRecord& c,
                                                            const std::string& doing,
                                                            bool* connectionLost) {
    const bool pg = m_location.isPostgres();
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    RecordResult out;
    const QSqlError e = q.lastError();
    out.message = "recording " + c.path + " in " + m_path.string() + ": " + doing +
                  (e.isValid() ? ": " + describe(e) : std::string());
    q.finish();
    QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
    if (!pg && isBusy(e)) {
        out.message = "nothing was recorded of " + c.path + ": " + lockedWords(describe(e));
    } else if (pg && !connectionAlive()) {
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
}

HistoryDatabase::RecordResult HistoryDatabase::recordOnce(const CampaignRecord& c,
                                                          const CaseWritten& caseWritten,
                                                          const std::string& recordedAt,
                                                          bool* connectionLost) {
    *connectionLost = false;
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    QSqlQuery q(db);
    // One transaction: a crash, an error or a lost connection before COMMIT leaves the history
    // as it was.
    if (!q.exec(m_location.isPostgres() ? QStringLiteral("BEGIN")
                                        : QStringLiteral("BEGIN IMMEDIATE")))
        return recordFailed(q, c, "cannot start a transaction", connectionLost);
    std::optional<qlonglong> id;
    if (!insertCampaign(q, c, recordedAt, &id))
        return recordFailed(q, c, "cannot write the campaign", connectionLost);
    if (!id) return alreadyRecorded(c);
    int written = 0;
    for (const auto& k : c.cases) {
        if (!insertCase(q, *id, k))
            return recordFailed(q, c, "cannot write case " + k.key.topology.name(), connectionLost);
        if (!writeCaseParameters(q, *id, k))
            return recordFailed(q, c,
                                "cannot write the parameters of case " + k.key.topology.name(),
                                connectionLost);
        ++written;
        if (caseWritten && !caseWritten(written))
            return recordFailed(q, c, "abandoned", connectionLost);
    }
    if (!detail::writeNodeProbes(q, *id, c.nodeProbes))
        return recordFailed(q, c, "cannot write the node probes", connectionLost);
    if (!writeOrigin(q, *id, c.origin))
        return recordFailed(q, c, "cannot write where it came from", connectionLost);
    if (!q.exec(QStringLiteral("COMMIT")))
        return recordFailed(q, c, "cannot commit", connectionLost);
    RecordResult out;
    out.outcome = Outcome::Added;
    out.message = "recorded " + c.path + " (" + std::to_string(written) + " case" +
                  (written == 1 ? "" : "s") + ") in " + m_path.string();
    return out;
}

// The identity was there: nothing written, and where the campaign was first recorded from.
HistoryDatabase::RecordResult HistoryDatabase::alreadyRecorded(const CampaignRecord& c) {
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
    QSqlQuery found(db);
    found.prepare(QStringLiteral("SELECT path FROM campaigns WHERE identity = ?"));
    found.addBindValue(qs(c.identity));
    const std::string where = found.exec() && found.next() ? found.value(0).toString().toStdString()
                                                           : std::string("another writer");
    RecordResult out;
    out.outcome = Outcome::AlreadyRecorded;
    out.message =
        c.path + " is already in the history (the same logs, recorded from " + where + ")";
    return out;
}

std::string HistoryDatabase::readFailed(const QSqlError& e) const {
    return !m_location.isPostgres() && isBusy(e) ? "nothing was read: " + lockedWords(describe(e))
                                                 : m_path.string() + ": " + describe(e);
}

std::optional<std::vector<StoredCampaign>> HistoryDatabase::campaigns(std::string* error) const {
    if (!m_open) {
        if (error) *error = m_error.empty() ? "the history is not open" : m_error;
        return std::nullopt;
    }
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    // One snapshot for every read: a writer committing in between must not show a campaign
    // without its cases. (SQLite's reads see one snapshot inside a transaction too.)
    QSqlQuery(db).exec(m_location.isPostgres()
                           ? QStringLiteral("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                           : QStringLiteral("BEGIN"));
    QSqlQuery q(db), c(db), p(db), n(db);
    std::vector<StoredCampaign> out;
    std::map<qlonglong, std::size_t> index;
    // What each case's logs stated about how they ran, and each campaign's node probes, go
    // with it (an import copies them); an older history may not have their tables.
    QSqlQuery* failed = nullptr;
    if (!readCampaignRows(q, out, index))
        failed = &q;
    else if (!readCaseRows(c, index, out))
        failed = &c;
    else if (hasTable("case_parameters") && !readCaseParameters(p, index, out))
        failed = &p;
    else if (hasTable("campaign_origins") && !readOrigins(p, index, out))
        failed = &p;
    if (!failed && hasTable("node_probes")) {
        std::map<std::string, std::size_t> byIdentity;
        for (std::size_t i = 0; i < out.size(); ++i)
            byIdentity[out[i].record.identity] = i;
        if (const auto nodes = detail::readNodeObservations(n, nullptr))
            for (const NodeObservation& o : *nodes)
                if (const auto it = byIdentity.find(o.campaignIdentity); it != byIdentity.end())
                    out[it->second].record.nodeProbes.push_back(o.probe);
    }
    if (failed && error) *error = readFailed(failed->lastError());
    for (QSqlQuery* query : {&q, &c, &p, &n})
        query->finish();
    QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
    if (failed) return std::nullopt;
    return out;
}

std::string whoAmI() {
    for (const char* name : {"USER", "LOGNAME"})
        if (const char* v = std::getenv(name); v && *v) return v;
    if (const passwd* pw = ::getpwuid(::getuid())) return pw->pw_name;
    return "uid " + std::to_string(::getuid());
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
        if (!m_location.isPostgres() && isBusy(err))
            return "nothing was marked: " + lockedWords(describe(err));
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
    std::vector<Expectation> out;
    if (!hasTable("expectations")) return out; // a history older than the marks
    QSqlDatabase db = QSqlDatabase::database(m_connection, false);
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT case_key, campaign_identity, who, why, marked_at"
                               " FROM expectations ORDER BY marked_at"))) {
        if (error) *error = readFailed(q.lastError());
        return std::nullopt;
    }
    while (q.next())
        out.push_back({q.value(0).toString().toStdString(), q.value(1).toString().toStdString(),
                       q.value(2).toString().toStdString(), q.value(3).toString().toStdString(),
                       q.value(4).toString().toStdString()});
    return out;
}

} // namespace sv::history
