#pragma once
// The history of campaigns, through Qt SQL: a local SQLite file, or a team's shared PostgreSQL
// database (a postgresql:// URI, Qt's QPSQL driver), with one row per campaign and one per case
// per campaign, and the same schema on both (versioned and migrated by ScaleView). Recording is
// idempotent (a unique key on the logs' content identity, INSERT ... ON CONFLICT DO NOTHING, so
// concurrent writers of the same campaign add it once) and one transaction. A SQLite file that
// is corrupt, not a database, or locked beyond the busy timeout is renamed aside with a
// timestamp (never deleted) and a fresh history started, saying so; a PostgreSQL connection
// that drops mid-record is rolled back by the server, and the record is tried once more.

#include "history/campaignrecord.h"
#include "history/historylocation.h"

#include <QString>

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
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

    static constexpr std::chrono::milliseconds kBusyTimeout{5000};

    // Opens location: a SQLite file path (created, with its folder, when missing) or a
    // postgresql:// URI (parseHistoryLocation); anything else is refused with error(). Use one
    // object on one thread.
    explicit HistoryDatabase(const std::filesystem::path& location,
                             std::chrono::milliseconds busyTimeout = kBusyTimeout);
    ~HistoryDatabase();
    HistoryDatabase(const HistoryDatabase&) = delete;
    HistoryDatabase& operator=(const HistoryDatabase&) = delete;

    bool isOpen() const { return m_open; }
    const std::string& error() const { return m_error; }
    // Set when the file found was set aside: what was wrong and where it was moved.
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

    // Every campaign of source into this history (each in its own transaction, as recorded
    // there, its time kept); the same campaign already here is left as it is.
    struct ImportResult {
        int added = 0, alreadyThere = 0, failed = 0;
        std::vector<std::string> messages; // the failures
    };
    ImportResult importFrom(const HistoryDatabase& source);

    // Each node's probe figures of every campaign, with its campaign (history/nodehistory.h),
    // oldest first; nullopt with *error.
    std::optional<std::vector<NodeObservation>> nodeObservations(std::string* error) const;

    static constexpr int kSchemaVersion = 4;

  private:
    enum class Health { Ok, Corrupt, Locked, Newer };
    Health openAndPrepare(std::string* why);
    Health openPostgres(std::string* why);
    RecordResult recordOnce(const CampaignRecord& campaign, const CaseWritten& caseWritten,
                            const std::string& recordedAt, bool* connectionLost);
    bool connectionAlive() const;
    bool setAside(const std::string& why);
    void close();

    std::filesystem::path m_path;
    HistoryLocation m_location;
    std::chrono::milliseconds m_busyTimeout;
    QString m_connection;
    bool m_open = false;
    std::string m_error, m_notice;
};

// Who marks a verdict expected: $USER, else $LOGNAME, else the account's name.
std::string whoAmI();

} // namespace sv::history
