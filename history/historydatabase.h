#pragma once
// The history of campaigns, through Qt SQL: a local SQLite file, or a team's shared PostgreSQL
// database (a postgresql:// URI or a libpq keyword string, Qt's QPSQL driver), with one row per
// campaign and one per case per campaign, and the same schema on both (versioned and migrated by
// ScaleView). Recording is idempotent (a unique key on the logs' content identity, INSERT ... ON
// CONFLICT DO NOTHING, so concurrent writers of the same campaign add it once) and one
// transaction. A lock held by another program is waited for (the busy timeout) and then an error
// that names it, never a reason to touch the file; only a SQLite file proven corrupt (not SQLite,
// or damaged) is renamed aside, with a timestamp, and only by a command that records, saying so.
// A PostgreSQL connection that drops mid-record is rolled back by the server, and the record is
// tried once more.

#include "history/campaignrecord.h"
#include "history/historylocation.h"

#include <QString>

class QSqlError;
class QSqlQuery;

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace sv::history {

// A campaign as stored: its record, and when it was recorded.
struct StoredCampaign {
    CampaignRecord record;
    std::string recordedAt; // ISO 8601 UTC
};

class HistoryDatabase {
  public:
    enum class Outcome { Added, AlreadyRecorded, Failed };
    struct RecordResult {
        Outcome outcome = Outcome::Failed;
        std::string message; // in words, for the user
    };
    // Called after each case row is written, inside the transaction; returning false abandons
    // the record (rolled back). For progress, cancel and the tests' injected failures.
    using CaseWritten = std::function<bool(int casesWritten)>;

    // What a command does with the history, and so what opening it may do to it.
    enum class Access {
        // Recording or marking: a missing file is created (with its folder), an older schema
        // migrated, and a file proven corrupt set aside (setAsideNotice says where).
        Record,
        // Reading the live history: nothing is created, migrated or set aside; a history that is
        // missing, damaged or locked past the timeout is an error(), the file left as it is.
        Read,
        // Another history read to be imported: SQLite's read-only mode, not a byte written.
        Source,
    };

    static constexpr std::chrono::milliseconds kBusyTimeout{5000};

    // Opens location: a SQLite file path or a PostgreSQL URI or keyword string
    // (parseHistoryLocation); anything else is refused with error(). Use one object on one
    // thread.
    explicit HistoryDatabase(const std::filesystem::path& location, Access access = Access::Record,
                             std::chrono::milliseconds busyTimeout = kBusyTimeout);
    ~HistoryDatabase();
    HistoryDatabase(const HistoryDatabase&) = delete;
    HistoryDatabase& operator=(const HistoryDatabase&) = delete;

    bool isOpen() const { return m_open; }
    const std::string& error() const { return m_error; }
    // Set when a corrupt file was set aside (Access::Record only): what was wrong and where it
    // was moved. A command says it even when told to be quiet.
    const std::string& setAsideNotice() const { return m_notice; }
    // The file, or the URI as given.
    const std::filesystem::path& path() const { return m_path; }
    bool isShared() const { return m_location.isPostgres(); }

    // One transaction; on PostgreSQL a connection lost midway is reopened and the record tried
    // once more (the message says so). recordedAt: keep this time (an import), else now.
    RecordResult record(const CampaignRecord& campaign, const CaseWritten& caseWritten = {},
                        const std::string& recordedAt = {});
    // Every campaign with its cases, oldest first (by the time it ran); nullopt with *error.
    std::optional<std::vector<StoredCampaign>> campaigns(std::string* error) const;

    // SCALEVIEW_HISTORY_DB when set, else $XDG_DATA_HOME/scaleview/history.sqlite
    // (~/.local/share/scaleview/...), beside the user's reference tables. Empty when
    // SCALEVIEW_HISTORY_DB=off: nothing is recorded (a database on an empty path is not open).
    static bool off() { return defaultPath().empty(); }
    static std::filesystem::path defaultPath();

    // A verdict marked expected: the case (caseKeyText) in the campaign (its identity) no
    // longer fails --fail-on-regression. Recorded with who and why.
    struct Expectation {
        std::string caseKey, campaignIdentity, who, why, at;
    };
    // Adds or replaces the mark; "" or the error in words.
    std::string expect(const Expectation& e);
    std::optional<std::vector<Expectation>> expectations(std::string* error) const;

    // Each node's probe figures of every campaign, with its campaign (history/nodehistory.h),
    // oldest first; nullopt with *error.
    std::optional<std::vector<NodeObservation>> nodeObservations(std::string* error) const;

    static constexpr int kSchemaVersion = 5;

  private:
    // HistoryImport reads a source history's tables itself, a campaign at a time.
    friend class HistoryImport;

    enum class Health { Ok, Corrupt, Locked, Failed };
    // Opening (historydatabase.cpp).
    void openSqlite();
    Health openAndCheck(int* version, std::string* why);
    Health migrateSqlite(std::string* why);
    Health openPostgres(std::string* why);
    Health migratePostgres(std::string* why);
    Health findTables(std::string* why);
    Health failure(const QSqlError& e, const std::string& doing, std::string* why) const;
    bool setAside(const std::string& why);
    bool connectionAlive() const;
    void close();
    bool hasTable(const std::string& name) const { return m_tables.count(name) > 0; }
    // "X is locked by another program, which held it for more than 5 s (SQLite: ...); the
    // history is left as it is: ...": a lock held past the busy timeout, in words.
    std::string lockedWords(const std::string& sqlite) const;

    // Recording and reading (historyrecords.cpp).
    RecordResult recordOnce(const CampaignRecord& campaign, const CaseWritten& caseWritten,
                            const std::string& recordedAt, bool* connectionLost);
    RecordResult recordFailed(QSqlQuery& q, const CampaignRecord& campaign,
                              const std::string& doing, bool* connectionLost);
    RecordResult alreadyRecorded(const CampaignRecord& campaign);
    std::string readFailed(const QSqlError& e) const;

    std::filesystem::path m_path;
    HistoryLocation m_location;
    Access m_access;
    std::chrono::milliseconds m_busyTimeout;
    QString m_connection;
    bool m_open = false;
    std::set<std::string> m_tables; // those present (Read and Source open older schemas as is)
    std::string m_error, m_notice;
};

// Who marks a verdict expected: $USER, else $LOGNAME, else the account's name.
std::string whoAmI();

} // namespace sv::history
