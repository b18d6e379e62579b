#pragma once
// `history import`: every campaign of another history (a SQLite file opened read-only, or a
// PostgreSQL database) into this one, each in its own transaction with its recorded time kept.
// The source is data from anywhere: it is read a campaign at a time, every value capped in the
// query itself, and each row checked (finite positive throughputs, min <= median <= max, repeats
// that are numbers, an identity that is a SHA-256, times that are times, sizes within
// ImportLimits) before anything of its campaign is written; a campaign with a bad row is not
// imported, and the failure names the source, the row and the reason.

#include "history/historydatabase.h"

#include <QString>

#include <string>
#include <vector>

namespace sv::history {

// What one import takes at most. A real history is far inside; past a limit the import (too many
// campaigns) or the campaign (too many rows, a value too long) is refused, so that no file can
// make it read without bound: at most one campaign is held at a time.
struct ImportLimits {
    long long campaigns = 100000;
    long long expectations = 100000;
    int casesPerCampaign = 10000;
    int rowsPerCampaign = 100000; // its node probes, and its cases' parameters
    int repeatsPerCase = 10000;
    int textBytes = 65536;   // one path, label, name, parameter value or reason
    int listBytes = 1 << 20; // one case's repeats, one probe's samples, a campaign's hosts
    long long campaignBytes = 64LL << 20; // all the values kept of one campaign
    int messages = 50;                    // failures said one by one; the rest are counted
};

struct ImportResult {
    int added = 0, alreadyThere = 0, failed = 0;
    std::vector<std::string> messages; // the failures, each naming its row and reason
};

class HistoryImport {
  public:
    HistoryImport(const HistoryDatabase& source, const ImportLimits& limits = {});
    ImportResult into(HistoryDatabase& history);

  private:
    struct CampaignRead {
        std::optional<StoredCampaign> campaign;
        std::string why; // no campaign: the row and the reason
    };
    CampaignRead readCampaign(long long id) const;
    bool readCampaignRow(long long id, StoredCampaign& out, std::string* why) const;
    // Each adds what its rows hold to bytes (withinBudget).
    bool readCases(long long id, CampaignRecord& out, long long& bytes, std::string* why) const;
    bool readParameters(long long id, CampaignRecord& out, long long& bytes,
                        std::string* why) const;
    bool readProbes(long long id, CampaignRecord& out, long long& bytes, std::string* why) const;
    // Where another site's campaign came from (campaign_origins), when the source says.
    bool readOrigin(long long id, CampaignRecord& out, long long& bytes, std::string* why) const;
    bool withinBudget(long long& bytes, long long more, std::string* why) const;
    void importExpectations(HistoryDatabase& history, ImportResult& out) const;
    // The campaigns' ids, oldest first; a row whose id is no whole number goes to *refused.
    std::optional<std::vector<long long>> campaignIds(std::vector<std::string>* refused,
                                                      std::string* why) const;
    void fail(ImportResult& out, const std::string& message) const;
    // A column as the query reads it: text capped at max + 1 bytes, so that an over-long value
    // shows without being read whole; a number as it is (SQLite, which keeps any type in any
    // column, has a text one capped too).
    QString text(const char* column, int max) const;
    QString number(const char* column) const;

    const HistoryDatabase& m_source;
    ImportLimits m_limits;
    std::string m_name; // the source, as messages name it
};

} // namespace sv::history
