#include "history/historyimport.h"
#include "history/historytrend.h"
#include "history/sourcerow.h"
#include "history/sqltext.h"

#include "core/model/runresult.h"

#include <QDateTime>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <cmath>
#include <set>

namespace sv::history {
using namespace sqltext;

namespace {

constexpr int kTimeBytes = 64;
constexpr int kIdentityBytes = 64;

// A case's figures agree with each other: its repeats are its runs, its median inside its
// min-max.
void checkCase(const CaseRecord& k, SourceRow& row) {
    if (!row.ok()) return;
    if (static_cast<int>(k.values.size()) != k.runs)
        row.refuse("runs " + std::to_string(k.runs) + " but " + std::to_string(k.values.size()) +
                   " repeats");
    else if (k.min > k.median || k.median > k.max)
        row.refuse("median " + numberText(k.median) + " is outside its min-max " +
                   numberText(k.min) + "-" + numberText(k.max));
}

} // namespace

HistoryImport::HistoryImport(const HistoryDatabase& source, const ImportLimits& limits)
    : m_source(source), m_limits(limits), m_name(source.path().string()) {}

QString HistoryImport::text(const char* column, int max) const {
    return QStringLiteral("substr(%1, 1, %2)").arg(QLatin1String(column)).arg(max + 1);
}

QString HistoryImport::number(const char* column) const {
    if (m_source.isShared()) return QLatin1String(column);
    return QStringLiteral("CASE WHEN typeof(%1) IN ('integer', 'real') THEN %1"
                          " ELSE substr(%1, 1, 40) END")
        .arg(QLatin1String(column));
}

void HistoryImport::fail(ImportResult& out, const std::string& message) const {
    ++out.failed;
    if (static_cast<int>(out.messages.size()) < m_limits.messages) out.messages.push_back(message);
}

ImportResult HistoryImport::into(HistoryDatabase& history) {
    ImportResult out;
    if (!m_source.isOpen()) {
        fail(out, m_source.error());
        return out;
    }
    QSqlDatabase db = QSqlDatabase::database(m_source.m_connection, false);
    // One snapshot of the source for the whole import: a writer there cannot show a campaign
    // without its cases.
    QSqlQuery(db).exec(m_source.isShared()
                           ? QStringLiteral("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                           : QStringLiteral("BEGIN"));
    std::string why;
    std::vector<std::string> refused;
    if (const auto ids = campaignIds(&refused, &why)) {
        for (const std::string& r : refused)
            fail(out, r);
        for (const long long id : *ids) {
            const CampaignRead read = readCampaign(id);
            if (!read.campaign) {
                fail(out, read.why + "; the campaign was not imported");
                continue;
            }
            const auto r = history.record(read.campaign->record, {}, read.campaign->recordedAt);
            if (r.outcome == HistoryDatabase::Outcome::Added)
                ++out.added;
            else if (r.outcome == HistoryDatabase::Outcome::AlreadyRecorded)
                ++out.alreadyThere;
            else
                fail(out, r.message);
        }
        if (m_source.hasTable("expectations")) importExpectations(history, out);
    } else {
        fail(out, why);
    }
    QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
    if (const int unsaid = out.failed - static_cast<int>(out.messages.size()); unsaid > 0)
        out.messages.push_back("... and " + std::to_string(unsaid) + " more failures");
    return out;
}

std::optional<std::vector<long long>> HistoryImport::campaignIds(std::vector<std::string>* refused,
                                                                 std::string* why) const {
    QSqlQuery q(QSqlDatabase::database(m_source.m_connection, false));
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT count(*) FROM campaigns")) || !q.next()) {
        *why = m_source.readFailed(q.lastError()) + "; nothing was imported";
        return std::nullopt;
    }
    const long long count = q.value(0).toLongLong();
    q.finish();
    if (count > m_limits.campaigns) {
        *why = m_name + " holds " + std::to_string(count) + " campaigns, more than the " +
               std::to_string(m_limits.campaigns) + " an import takes; nothing was imported";
        return std::nullopt;
    }
    // Oldest first, as they ran; only the ids are held, each campaign is read when its turn comes.
    if (!q.exec(QStringLiteral("SELECT %1 FROM campaigns ORDER BY %2, 1")
                    .arg(number("id"), text("ran_at", kTimeBytes)))) {
        *why = m_source.readFailed(q.lastError()) + "; nothing was imported";
        return std::nullopt;
    }
    std::vector<long long> ids;
    std::set<long long> seen;
    for (long long n = 1; q.next() && n <= m_limits.campaigns; ++n) {
        // A row without a whole-number id of its own cannot be told from another: no case
        // would be its own.
        SourceRow row(q);
        const long long id = row.integer(0, "id", -(1LL << 53), 1LL << 53);
        if (!row.ok())
            refused->push_back(m_name + ": campaigns row " + std::to_string(n) + ": " + row.why() +
                               "; the campaign was not imported");
        else if (seen.insert(id).second)
            ids.push_back(id);
    }
    return ids;
}

HistoryImport::CampaignRead HistoryImport::readCampaign(long long id) const {
    CampaignRead out;
    StoredCampaign s;
    std::string why;
    const bool row = readCampaignRow(id, s, &why);
    // Named by its id and, once read, its label.
    const std::string where =
        m_name + ": campaigns row id " + std::to_string(id) +
        (s.record.label.empty() ? std::string() : " (" + shownValue(s.record.label) + ")");
    long long bytes = 0;
    if (!row || !readCases(id, s.record, bytes, &why) ||
        !readParameters(id, s.record, bytes, &why) || !readProbes(id, s.record, bytes, &why) ||
        !readOrigin(id, s.record, bytes, &why)) {
        out.why = where + ": " + why;
        return out;
    }
    out.campaign = std::move(s);
    return out;
}

bool HistoryImport::readCampaignRow(long long id, StoredCampaign& s, std::string* why) const {
    QSqlQuery q(QSqlDatabase::database(m_source.m_connection, false));
    q.setForwardOnly(true);
    const int t = m_limits.textBytes;
    q.prepare(QStringLiteral("SELECT %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13"
                             " FROM campaigns WHERE id = ?")
                  .arg(text("label", t), text("identity", kIdentityBytes + 1), text("path", t),
                       text("ran_at", kTimeBytes), text("recorded_at", kTimeBytes),
                       text("hosts", m_limits.listBytes), text("driver", t), text("cuda", t),
                       text("gpu_model", t))
                  .arg(text("container_image", t), text("method", 16), number("warmup"),
                       number("iterations")));
    q.addBindValue(static_cast<qlonglong>(id));
    if (!q.exec() || !q.next()) {
        *why = "cannot read it: " + describe(q.lastError());
        return false;
    }
    SourceRow row(q);
    CampaignRecord& r = s.record;
    r.label = row.text(0, "label", t);
    r.identity = row.identity(1, "identity");
    r.path = row.text(2, "path", t, true);
    r.time = row.time(3, "ran_at");
    s.recordedAt = row.time(4, "recorded_at");
    r.environment.hosts = splitLines(qs(row.text(5, "hosts", m_limits.listBytes)));
    r.environment.driver = row.text(6, "driver", t);
    r.environment.cuda = row.text(7, "cuda", t);
    r.environment.gpuModel = row.text(8, "gpu_model", t);
    r.environment.containerImage = row.text(9, "container_image", t);
    r.method = row.text(10, "method", 16, true);
    if (row.ok() && !parseMethod(r.method))
        row.refuse("method " + shownValue(r.method) + " is neither time nor speed");
    r.warmup = static_cast<int>(row.integer(11, "warmup", 0, 1 << 30));
    r.iterations = static_cast<int>(row.integer(12, "iterations", 0, 1 << 30));
    if (row.ok() && q.next()) row.refuse("another campaigns row has the same id");
    *why = row.why();
    return row.ok();
}

// Past the budget a campaign is refused: its rows are read one at a time, but what is kept of
// them must stay bounded too.
bool HistoryImport::withinBudget(long long& bytes, long long more, std::string* why) const {
    bytes += more;
    if (bytes <= m_limits.campaignBytes) return true;
    *why = "it holds more than " + std::to_string(m_limits.campaignBytes) + " bytes of values";
    return false;
}

bool HistoryImport::readCases(long long id, CampaignRecord& r, long long& bytes,
                              std::string* why) const {
    QSqlQuery q(QSqlDatabase::database(m_source.m_connection, false));
    q.setForwardOnly(true);
    const int t = m_limits.textBytes;
    q.prepare(QStringLiteral("SELECT %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13"
                             " FROM cases WHERE campaign_id = ? LIMIT %14")
                  .arg(text("model", t), text("precision", t), number("batch_per_device"),
                       number("nodes"), number("gpus_per_node"), text("format", t), number("runs"),
                       number("median"), number("min"))
                  .arg(number("max"), number("mean"), number("stdev"),
                       text("repeats", m_limits.listBytes))
                  .arg(m_limits.casesPerCampaign + 1));
    q.addBindValue(static_cast<qlonglong>(id));
    if (!q.exec()) {
        *why = "cannot read its cases: " + describe(q.lastError());
        return false;
    }
    int n = 0;
    while (q.next()) {
        if (++n > m_limits.casesPerCampaign) {
            *why = "it has more than " + std::to_string(m_limits.casesPerCampaign) + " cases";
            return false;
        }
        SourceRow row(q);
        CaseRecord k;
        k.key.model = row.text(0, "model", t);
        k.key.precision = row.text(1, "precision", t);
        k.key.batchPerDevice = static_cast<int>(row.integer(2, "batch_per_device", 0, 1 << 24));
        k.key.topology.nodes = static_cast<int>(row.integer(3, "nodes", 1, 1 << 20));
        k.key.topology.gpusPerNode = static_cast<int>(row.integer(4, "gpus_per_node", 1, 1 << 16));
        k.key.format = row.text(5, "format", t);
        k.runs = static_cast<int>(row.integer(6, "runs", 1, m_limits.repeatsPerCase));
        k.median = row.rate(7, "median");
        k.min = row.rate(8, "min");
        k.max = row.rate(9, "max");
        k.mean = row.optionalRate(10, "mean", false);
        k.stdev = row.optionalRate(11, "stdev", true);
        k.values = row.numbers(12, "repeats", "repeat", m_limits.listBytes, m_limits.repeatsPerCase,
                               false);
        checkCase(k, row);
        if (!row.ok()) {
            *why = "cases row " + std::to_string(n) +
                   (k.key.topology.nodes > 0 && k.key.topology.gpusPerNode > 0
                        ? " (" + caseName(k.key) + ")"
                        : std::string()) +
                   ": " + row.why();
            return false;
        }
        if (!withinBudget(bytes, row.bytes(), why)) return false;
        r.cases.push_back(std::move(k));
    }
    return true;
}

bool HistoryImport::readParameters(long long id, CampaignRecord& r, long long& bytes,
                                   std::string* why) const {
    if (!m_source.hasTable("case_parameters")) return true;
    QSqlQuery q(QSqlDatabase::database(m_source.m_connection, false));
    q.setForwardOnly(true);
    const int t = m_limits.textBytes;
    q.prepare(QStringLiteral("SELECT %1, %2, %3, %4, %5, %6, %7, %8 FROM case_parameters"
                             " WHERE campaign_id = ? LIMIT %9")
                  .arg(text("model", t), text("precision", t), number("batch_per_device"),
                       number("nodes"), number("gpus_per_node"), text("format", t), text("what", t),
                       text("value", t))
                  .arg(m_limits.rowsPerCampaign + 1));
    q.addBindValue(static_cast<qlonglong>(id));
    if (!q.exec()) {
        *why = "cannot read its cases' parameters: " + describe(q.lastError());
        return false;
    }
    int n = 0;
    while (q.next()) {
        if (++n > m_limits.rowsPerCampaign) {
            *why =
                "it has more than " + std::to_string(m_limits.rowsPerCampaign) + " parameter rows";
            return false;
        }
        SourceRow row(q);
        CaseKey key;
        key.model = row.text(0, "model", t);
        key.precision = row.text(1, "precision", t);
        key.batchPerDevice = static_cast<int>(row.integer(2, "batch_per_device", 0, 1 << 24));
        key.topology.nodes = static_cast<int>(row.integer(3, "nodes", 1, 1 << 20));
        key.topology.gpusPerNode = static_cast<int>(row.integer(4, "gpus_per_node", 1, 1 << 16));
        key.format = row.text(5, "format", t);
        RecordedFact fact{row.text(6, "what", t, true), row.text(7, "value", t)};
        if (!row.ok()) {
            *why = "case_parameters row " + std::to_string(n) + ": " + row.why();
            return false;
        }
        if (!withinBudget(bytes, row.bytes(), why)) return false;
        // A row of no case of the campaign is left out, as a read of the history leaves it.
        for (CaseRecord& k : r.cases)
            if (k.key == key) addStoredCaseFact(k, fact);
    }
    return true;
}

bool HistoryImport::readProbes(long long id, CampaignRecord& r, long long& bytes,
                               std::string* why) const {
    if (!m_source.hasTable("node_probes")) return true;
    QSqlQuery q(QSqlDatabase::database(m_source.m_connection, false));
    q.setForwardOnly(true);
    const int t = m_limits.textBytes;
    q.prepare(QStringLiteral("SELECT %1, %2, %3, %4, %5, %6, %7, %8 FROM node_probes"
                             " WHERE campaign_id = ? LIMIT %9")
                  .arg(text("node", t), number("devices"), number("pace_per_device"),
                       text("samples", m_limits.listBytes), text("topology", t), text("model", t),
                       text("precision", t), number("batch_per_device"))
                  .arg(m_limits.rowsPerCampaign + 1));
    q.addBindValue(static_cast<qlonglong>(id));
    if (!q.exec()) {
        *why = "cannot read its node probes: " + describe(q.lastError());
        return false;
    }
    int n = 0;
    while (q.next()) {
        if (++n > m_limits.rowsPerCampaign) {
            *why = "it has more than " + std::to_string(m_limits.rowsPerCampaign) + " node probes";
            return false;
        }
        SourceRow row(q);
        NodeProbeRecord p;
        p.node = row.text(0, "node", t, true);
        p.devices = static_cast<int>(row.integer(1, "devices", 1, 1 << 16));
        p.pacePerDevice = row.rate(2, "pace_per_device", true);
        p.samples =
            row.numbers(3, "samples", "sample", m_limits.listBytes, m_limits.repeatsPerCase, true);
        p.topology = row.text(4, "topology", t);
        p.model = row.text(5, "model", t);
        p.precision = row.text(6, "precision", t);
        p.batchPerDevice = static_cast<int>(row.integer(7, "batch_per_device", 0, 1 << 24));
        if (!row.ok()) {
            *why = "node_probes row " + std::to_string(n) + ": " + row.why();
            return false;
        }
        if (!withinBudget(bytes, row.bytes(), why)) return false;
        r.nodeProbes.push_back(std::move(p));
    }
    return true;
}

void HistoryImport::importExpectations(HistoryDatabase& history, ImportResult& out) const {
    QSqlQuery q(QSqlDatabase::database(m_source.m_connection, false));
    q.setForwardOnly(true);
    const int t = m_limits.textBytes;
    if (!q.exec(QStringLiteral("SELECT %1, %2, %3, %4, %5 FROM expectations LIMIT %6")
                    .arg(text("case_key", t), text("campaign_identity", kIdentityBytes + 1),
                         text("who", t), text("why", t), text("marked_at", kTimeBytes))
                    .arg(m_limits.expectations + 1))) {
        fail(out, m_name + ": cannot read its expected verdicts: " + describe(q.lastError()));
        return;
    }
    long long n = 0;
    while (q.next()) {
        const std::string where = m_name + ": expectations row " + std::to_string(++n);
        if (n > m_limits.expectations) {
            fail(out, m_name + " holds more than " + std::to_string(m_limits.expectations) +
                          " expected verdicts; those after them were not imported");
            return;
        }
        SourceRow row(q);
        HistoryDatabase::Expectation e;
        e.caseKey = row.text(0, "case_key", t, true);
        e.campaignIdentity = row.identity(1, "campaign_identity");
        e.who = row.text(2, "who", t);
        e.why = row.text(3, "why", t);
        e.at = row.time(4, "marked_at");
        if (!row.ok())
            fail(out, where + ": " + row.why() + "; the mark was not imported");
        else if (const std::string failed = history.expect(e); !failed.empty())
            fail(out, failed);
    }
}

// A campaign imported from a bundle keeps its origin through a move to another history: without
// it, the campaign would read as this site's own.
bool HistoryImport::readOrigin(long long id, CampaignRecord& r, long long& bytes,
                               std::string* why) const {
    if (!m_source.hasTable("campaign_origins")) return true;
    QSqlQuery q(QSqlDatabase::database(m_source.m_connection, false));
    q.setForwardOnly(true);
    const int t = m_limits.textBytes;
    q.prepare(QStringLiteral("SELECT %1, %2, %3, %4, %5 FROM campaign_origins"
                             " WHERE campaign_id = ? LIMIT 2")
                  .arg(text("bundled_by", t), text("bundled_at", kTimeBytes),
                       text("scaleview_version", t), text("bundle_file", t),
                       text("signature_key", t)));
    q.addBindValue(static_cast<qlonglong>(id));
    if (!q.exec()) {
        *why = "cannot read its origin: " + describe(q.lastError());
        return false;
    }
    if (!q.next()) return true; // the source's own campaign
    SourceRow row(q);
    CampaignOrigin o;
    o.bundledBy = row.text(0, "bundled_by", t, true);
    o.bundledAt = row.text(1, "bundled_at", kTimeBytes, true);
    o.scaleviewVersion = row.text(2, "scaleview_version", t);
    o.bundleFile = row.text(3, "bundle_file", t, true);
    o.signatureKey = row.text(4, "signature_key", t);
    if (row.ok() && q.next()) row.refuse("another campaign_origins row has the same campaign_id");
    if (!row.ok()) {
        *why = "campaign_origins row: " + row.why();
        return false;
    }
    if (!withinBudget(bytes, row.bytes(), why)) return false;
    r.origin = std::move(o);
    return true;
}

} // namespace sv::history
