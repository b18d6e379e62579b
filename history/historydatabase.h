#pragma once
// The local history of campaigns: a SQLite file (Qt SQL) with one row per campaign and one per
// case per campaign. Recording is idempotent (keyed on the logs' content identity) and one
// transaction; a file that is corrupt, not a database, or locked beyond the busy timeout is
// renamed aside with a timestamp (never deleted) and a fresh history started, saying so.

#include "history/campaignrecord.h"

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

    // Opens path, creating it (and its folder) when missing. Use one object on one thread.
    explicit HistoryDatabase(const std::filesystem::path& path,
                             std::chrono::milliseconds busyTimeout = kBusyTimeout);
    ~HistoryDatabase();
    HistoryDatabase(const HistoryDatabase&) = delete;
    HistoryDatabase& operator=(const HistoryDatabase&) = delete;

    bool isOpen() const { return m_open; }
    const std::string& error() const { return m_error; }
    // Set when the file found was set aside: what was wrong and where it was moved.
    const std::string& setAsideNotice() const { return m_notice; }
    const std::filesystem::path& path() const { return m_path; }

    RecordResult record(const CampaignRecord& campaign, const CaseWritten& caseWritten = {});
    // Every campaign with its cases, oldest first (by the time it ran); nullopt with *error.
    std::optional<std::vector<StoredCampaign>> campaigns(std::string* error) const;

    // SCALEVIEW_HISTORY_DB when set, else $XDG_DATA_HOME/scaleview/history.sqlite
    // (~/.local/share/scaleview/...), beside the user's reference tables. Empty when
    // SCALEVIEW_HISTORY_DB=off: nothing is recorded (a database on an empty path is not open).
    static bool off() { return defaultPath().empty(); }
    static std::filesystem::path defaultPath();

  private:
    enum class Health { Ok, Corrupt, Locked, Newer };
    Health openAndPrepare(std::string* why);
    bool setAside(const std::string& why);
    void close();

    std::filesystem::path m_path;
    std::chrono::milliseconds m_busyTimeout;
    QString m_connection;
    bool m_open = false;
    std::string m_error, m_notice;
};

} // namespace sv::history
