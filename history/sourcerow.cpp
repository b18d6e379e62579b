#include "history/sourcerow.h"

#include <QDateTime>
#include <QVariant>

#include <charconv>
#include <cmath>
#include <cstdio>

namespace sv::history {
namespace {

// A SQL integer or real, never text that looks like one: SQLite keeps any type in any column.
std::optional<double> sqlNumber(const QVariant& v) {
    if (v.isNull()) return std::nullopt;
    switch (v.metaType().id()) {
    case QMetaType::Double:
    case QMetaType::Float:
    case QMetaType::Int:
    case QMetaType::UInt:
    case QMetaType::LongLong:
    case QMetaType::ULongLong:
        return v.toDouble();
    default:
        return std::nullopt;
    }
}

std::string valueText(const QVariant& v) {
    if (v.isNull()) return "(none)";
    if (const auto n = sqlNumber(v)) return numberText(*n);
    return shownValue(v.toString().toStdString());
}

bool acceptable(double v, bool zeroAllowed) {
    return std::isfinite(v) && (v > 0.0 || (zeroAllowed && v == 0.0));
}

std::string rateWords(bool zeroAllowed) {
    return zeroAllowed ? "a finite number of zero or more" : "a positive finite number";
}

} // namespace

std::string numberText(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::string shownValue(const std::string& s) {
    constexpr std::size_t kShown = 60;
    std::string out = "'";
    for (std::size_t i = 0; i < s.size() && i < kShown; ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 || c == 0x7f || c == '\\' || c == '\'') {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out + (s.size() > kShown ? "'..." : "'");
}

std::string SourceRow::text(int column, const std::string& what, int maxBytes, bool required) {
    return textOf(column, what, maxBytes, required, "is");
}

std::string SourceRow::textOf(int column, const std::string& what, int maxBytes, bool required,
                              const char* verb) {
    if (!ok()) return {};
    const QVariant v = m_q.value(column);
    if (v.isNull()) {
        refuse(what + " is missing");
        return {};
    }
    std::string s = v.toString().toStdString();
    if (static_cast<long long>(s.size()) > maxBytes)
        refuse(what + " " + verb + " longer than " + std::to_string(maxBytes) + " bytes");
    else if (required && s.empty())
        refuse(what + " is empty");
    if (!ok()) return {};
    m_bytes += static_cast<long long>(s.size());
    return s;
}

long long SourceRow::integer(int column, const std::string& what, long long lo, long long hi) {
    if (!ok()) return 0;
    const QVariant v = m_q.value(column);
    const auto n = sqlNumber(v);
    if (!n || *n != std::floor(*n) || *n < static_cast<double>(lo) ||
        *n > static_cast<double>(hi)) {
        refuse(what + " " + valueText(v) + " is not a whole number from " + std::to_string(lo) +
               " to " + std::to_string(hi));
        return 0;
    }
    return static_cast<long long>(*n);
}

double SourceRow::rate(int column, const std::string& what, bool zeroAllowed) {
    if (!ok()) return 0.0;
    const QVariant v = m_q.value(column);
    const auto n = sqlNumber(v);
    if (!n)
        refuse(what + " " + valueText(v) + " is not a number");
    else if (!acceptable(*n, zeroAllowed))
        refuse(what + " " + numberText(*n) + " is not " + rateWords(zeroAllowed));
    return ok() ? *n : 0.0;
}

std::optional<double> SourceRow::optionalRate(int column, const std::string& what,
                                              bool zeroAllowed) {
    if (!ok() || m_q.value(column).isNull()) return std::nullopt;
    const double v = rate(column, what, zeroAllowed);
    return ok() ? std::optional<double>(v) : std::nullopt;
}

std::vector<double> SourceRow::numbers(int column, const std::string& what, const std::string& item,
                                       int maxBytes, int maxCount, bool zeroAllowed) {
    const std::string s = textOf(column, what, maxBytes, false, "are");
    std::vector<double> out;
    for (std::size_t at = 0; ok() && at < s.size();) {
        const std::size_t end = std::min(s.find(' ', at), s.size());
        const std::string one = s.substr(at, end - at);
        at = end + 1;
        if (one.empty()) continue;
        // from_chars: the C locale's numbers whatever the user's locale (the history's own).
        double v = 0.0;
        const auto [ptr, ec] = std::from_chars(one.data(), one.data() + one.size(), v);
        const std::string name = item + " " + std::to_string(out.size() + 1);
        if (ec != std::errc() || ptr != one.data() + one.size())
            refuse(name + " " + shownValue(one) + " is not a number");
        else if (!acceptable(v, zeroAllowed))
            refuse(name + " " + one + " is not " + rateWords(zeroAllowed));
        else if (static_cast<int>(out.size()) == maxCount)
            refuse("more than " + std::to_string(maxCount) + " " + what);
        else
            out.push_back(v);
    }
    return ok() ? out : std::vector<double>{};
}

std::string SourceRow::time(int column, const std::string& what) {
    const std::string s = text(column, what, 64, true);
    if (ok() && !QDateTime::fromString(QString::fromStdString(s), Qt::ISODate).isValid())
        refuse(what + " " + shownValue(s) + " is not an ISO 8601 time");
    return s;
}

std::string SourceRow::identity(int column, const std::string& what) {
    const std::string s = text(column, what, 65, true);
    bool digest = s.size() == 64;
    for (char c : s)
        digest = digest && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
    if (ok() && !digest) refuse(what + " " + shownValue(s) + " is not 64 hexadecimal digits");
    return s;
}

} // namespace sv::history
