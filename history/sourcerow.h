#pragma once
// One row of a history being imported (HistoryImport), its columns read in order and each
// checked as data from anywhere: text within a size, whole numbers within a range, throughputs
// finite and positive, lists of numbers that are numbers, times that are ISO 8601, identities
// that are SHA-256 digests. The first failure is kept, in words that quote the value escaped.
// Internal to history/.

#include <QSqlQuery>

#include <optional>
#include <string>
#include <vector>

namespace sv::history {

class SourceRow {
  public:
    explicit SourceRow(const QSqlQuery& q) : m_q(q) {}

    bool ok() const { return m_why.empty(); }
    // Why the row is refused: the first column that failed, and how.
    const std::string& why() const { return m_why; }
    void refuse(const std::string& why) {
        if (ok()) m_why = why;
    }
    // The bytes of text read so far (the campaign's budget counts them).
    long long bytes() const { return m_bytes; }

    std::string text(int column, const std::string& what, int maxBytes, bool required = false);
    long long integer(int column, const std::string& what, long long lo, long long hi);
    // A throughput or pace: finite and positive, or zero too where zeroAllowed.
    double rate(int column, const std::string& what, bool zeroAllowed = false);
    std::optional<double> optionalRate(int column, const std::string& what, bool zeroAllowed);
    // Numbers apart by spaces (repeats, samples: the history's own way of writing them), at most
    // maxCount; `what` names the list ("repeats"), `item` one of them ("repeat").
    std::vector<double> numbers(int column, const std::string& what, const std::string& item,
                                int maxBytes, int maxCount, bool zeroAllowed);
    std::string time(int column, const std::string& what);
    std::string identity(int column, const std::string& what);

  private:
    // verb: "is" or "are", as what says one thing or a list.
    std::string textOf(int column, const std::string& what, int maxBytes, bool required,
                       const char* verb);

    const QSqlQuery& m_q;
    std::string m_why;
    long long m_bytes = 0;
};

// A value from the source as a message may show it: quoted, control characters escaped (a
// terminal must not act on them), at most 60 bytes.
std::string shownValue(const std::string& s);

// A number as messages write it ("-5", "inf", "62.5").
std::string numberText(double v);

} // namespace sv::history
