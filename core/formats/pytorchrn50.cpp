#include "core/formats/pytorchrn50.h"

#include "core/measure/pooledrankanalyzer.h"
#include "core/model/textscan.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace sv {
namespace {

// Python's int() of a string: blanks around, a sign, digits with single '_' between them.
bool pythonInt(std::string_view t, std::int64_t& out) {
    // The usual field: blanks then up to 18 digits.
    std::size_t i = 0;
    while (i < t.size() && t[i] == ' ')
        ++i;
    if (i < t.size() && t.size() - i <= 18) {
        std::int64_t v = 0;
        std::size_t k = i;
        while (k < t.size() && isDigit(t[k]))
            v = v * 10 + (t[k++] - '0');
        if (k == t.size() && k > i) {
            out = v;
            return true;
        }
    }
    while (!t.empty() && isSpace(t.front()))
        t.remove_prefix(1);
    while (!t.empty() && isSpace(t.back()))
        t.remove_suffix(1);
    bool negative = false;
    if (!t.empty() && (t.front() == '+' || t.front() == '-')) {
        negative = t.front() == '-';
        t.remove_prefix(1);
    }
    if (t.empty() || !isDigit(t.front()) || !isDigit(t.back()) || t.size() > 18) return false;
    std::int64_t v = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (t[i] == '_' && isDigit(t[i + 1]) && isDigit(t[i - 1])) continue;
        if (!isDigit(t[i])) return false;
        v = v * 10 + (t[i] - '0');
    }
    out = negative ? -v : v;
    return true;
}

// DLPerf's r"\[.*\]\[(.*)\]" (greedy both): from the last "][" that has a ']' after it to the
// line's last ']'. memrchr: the last ']' sits near the line's start, 100 bytes from its end.
bool dlperfBatchField(std::string_view s, std::string_view& field) {
    const char* base = s.data();
    const void* open = std::memchr(base, '[', s.size());
    const void* close = memrchr(base, ']', s.size());
    if (!open || !close) return false;
    const auto first = static_cast<std::size_t>(static_cast<const char*>(open) - base);
    const auto last = static_cast<std::size_t>(static_cast<const char*>(close) - base);
    // The '[' of "][" is at first + 2 .. last - 1.
    for (std::size_t end = last; end > first + 2;) {
        const void* hit = memrchr(base + first + 2, '[', end - (first + 2));
        if (!hit) return false;
        const auto at = static_cast<std::size_t>(static_cast<const char*>(hit) - base);
        if (s[at - 1] == ']') {
            field = s.substr(at + 1, last - at - 1);
            return true;
        }
        end = at;
    }
    return false;
}

// DLPerf's r"(\d{1}.\d{1,3}\s)": a digit, any character, 1 to 3 digits (greedy), a blank; the
// first match, then float(): "Time 12.054 " matches at "2.054 ". Backtracking to fewer digits
// never helps (the next character would be a digit, not a blank), so at each start only the
// longest run of up to 3 digits is tried.
std::optional<std::string_view> dlperfTimeField(std::string_view s) {
    const std::size_t size = s.size();
    for (std::size_t i = 0; i + 3 < size; ++i) {
        if (!isDigit(s[i]) || !isDigit(s[i + 2])) continue;
        std::size_t end = i + 3;
        while (end < size && end < i + 5 && isDigit(s[end]))
            ++end;
        if (end < size && isSpace(s[end])) return s.substr(i, end - i); // float() strips
    }
    return std::nullopt;
}

// [p, end) starts with the literal (compared inline: these run on every line).
template <std::size_t N> bool startsWith(const char* p, const char* end, const char (&literal)[N]) {
    return static_cast<std::size_t>(end - p) >= N - 1 && equalsLiteral(p, literal);
}

// "<name> +<v> \( *<avg>\)" in [p, end): an AverageMeter's text; v is read, and *number is
// where its text starts (it ends at the blank before the '(').
template <std::size_t N>
bool meter(const char* p, const char* end, const char (&name)[N], double& v,
           const char** number = nullptr) {
    if (!startsWith(p, end, name)) return false;
    p += N - 1;
    if (p >= end || *p != ' ') return false;
    while (p < end && *p == ' ')
        ++p;
    if (number) *number = p;
    // The usual "\d+\.\d+" before the blank, as readDouble's fast path reads it; anything else
    // by readDouble.
    LineCursor c(std::string_view(p, static_cast<std::size_t>(end - p)));
    const char *first = nullptr, *point = nullptr;
    bool fast = false;
    if (c.pointDecimal(first, point, v, fast) && fast && c.next(' '))
        return end - c.p >= 3 && *c.p == '(' && end[-1] == ')';
    const auto [r, ec] = readDouble(p, end, v);
    return ec == std::errc() && end - r >= 4 && r[0] == ' ' && r[1] == '(' && end[-1] == ')';
}

// meter where v is not needed: a plain "[-]d+[.d+]" of at most 19 digits then " (" is what
// readDouble accepts there (its end is the blank); anything else asks readDouble.
template <std::size_t N> bool meterShape(const char* p, const char* end, const char (&name)[N]) {
    const char* const field = p;
    if (!startsWith(p, end, name)) return false;
    p += N - 1;
    if (p >= end || *p != ' ') return false;
    while (p < end && *p == ' ')
        ++p;
    const char* q = p;
    if (q < end && *q == '-') ++q;
    const char* digits = q;
    while (q < end && isDigit(*q))
        ++q;
    bool plain = q > digits;
    if (plain && q < end && *q == '.') {
        const char* fraction = ++q;
        while (q < end && isDigit(*q))
            ++q;
        plain = q > fraction;
    }
    if (plain && q - digits <= 20 && q < end && *q == ' ')
        return end - q >= 4 && q[1] == '(' && end[-1] == ')';
    double unused = 0.0;
    return meter(field, end, name, unused);
}

// DLPerf's Time regex on a whole line with a plain head, where Time's number is "\d+\.\d{1,3}"
// (then the blank meter checked): its first match is the number's last integer digit, the point
// and the fraction ("Time 12.054 " gives "2.054 "), since no digit comes between the head and the
// number and every earlier start inside the number runs into the point or a fourth digit before
// a blank. Its value as readDouble reads that text; false for any other number (the caller then
// runs the regex).
bool plainTimeRegexValue(const char* number, double& value) {
    const char* p = number;
    while (isDigit(*p))
        ++p;
    if (p == number || *p != '.') return false;
    const char* point = p++;
    std::uint64_t m = static_cast<std::uint64_t>(point[-1] - '0');
    while (isDigit(*p))
        m = m * 10 + static_cast<std::uint64_t>(*p++ - '0');
    const auto fraction = p - point - 1;
    if (fraction < 1 || fraction > 3 || *p != ' ') return false;
    value = static_cast<double>(m) / kPow10Exact[fraction]; // readDouble's exact fast path
    return true;
}

// The usual head, "Epoch: [e][ k/n]" with e digits and k and n blanks then at most 18 digits,
// read in one pass: the numbers Python's int() gives for such fields.
bool plainHeadNumbers(std::string_view head, std::int64_t& k, std::int64_t& n) {
    const char* p = head.data() + 8;                        // after "Epoch: ["
    const char* const last = head.data() + head.size() - 1; // the closing ']'
    const auto number = [&](std::int64_t& out, bool blanks) {
        if (blanks)
            while (p < last && *p == ' ')
                ++p;
        const char* first = p;
        std::int64_t v = 0;
        while (p < last && isDigit(*p) && p - first < 18)
            v = v * 10 + (*p++ - '0');
        out = v;
        return p > first && !(p < last && isDigit(*p));
    };
    std::int64_t epoch = 0;
    if (!number(epoch, false) || last - p < 2 || p[0] != ']' || p[1] != '[') return false;
    p += 2;
    if (!number(k, true) || p >= last || *p != '/') return false;
    ++p;
    return number(n, true) && p == last;
}

// The whole ProgressMeter line, "Epoch: [e][ k/n]" then Time, Data, Loss, Acc@1 and Acc@5
// separated by tabs: a line cut by another rank's block rarely keeps that shape.
// headLength: the size of "Epoch: [e][ k/n]"; plainHead: plainHeadNumbers read it.
bool wholeLine(std::string_view s, std::int64_t& batch, double& seconds, std::size_t& headLength,
               bool& plainHead, const char** timeNumber = nullptr) {
    // start[k]: where field k starts; field k ends one before start[k + 1] (its tab).
    const char* start[7];
    const char* p = s.data();
    const char* const end = p + s.size();
    start[0] = p;
    for (int k = 1; k <= 5; ++k) {
        const void* tab = std::memchr(p, '\t', static_cast<std::size_t>(end - p));
        if (!tab) return false;
        start[k] = p = static_cast<const char*>(tab) + 1;
    }
    if (std::memchr(p, '\t', static_cast<std::size_t>(end - p))) return false; // a 7th field
    start[6] = end + 1;
    const auto fieldEnd = [&](int k) { return start[k + 1] - 1; };
    const std::string_view head(start[0], static_cast<std::size_t>(fieldEnd(0) - start[0]));
    if (!startsWith(head.data(), fieldEnd(0), "Epoch: [") || head.back() != ']') return false;
    std::int64_t b = 0, total = 0;
    plainHead = plainHeadNumbers(head, b, total);
    if (!plainHead) { // any other head, by Python's int()
        const auto mid = head.find("][");
        const auto slash = head.find('/');
        if (mid == std::string_view::npos || slash == std::string_view::npos || slash < mid ||
            !pythonInt(head.substr(mid + 2, slash - mid - 2), b) ||
            !pythonInt(head.substr(slash + 1, head.size() - slash - 2), total))
            return false;
    }
    if (b < 0 || b > total) return false;
    if (!meter(start[1], fieldEnd(1), "Time", seconds, timeNumber) ||
        !meterShape(start[2], fieldEnd(2), "Data") || !startsWith(start[3], fieldEnd(3), "Loss ") ||
        !meterShape(start[4], fieldEnd(4), "Acc@1") || !startsWith(start[5], fieldEnd(5), "Acc@5 "))
        return false;
    batch = b;
    headLength = head.size();
    return true;
}

std::unique_ptr<FormatAnalyzer> makeAnalyzer(const LogFormat&, Topology topology, int batch,
                                             MeasureOptions options) {
    return std::make_unique<PooledRankAnalyzer>(topology, batch, options);
}

} // namespace

void parsePytorchRn50(std::string_view text, std::size_t markerPos, SpeedSample& s) {
    // ScaleView reads the line only when it is whole, from its only "Epoch: ".
    const auto at = markerPos != std::string_view::npos ? markerPos : text.find("Epoch: ");
    std::int64_t batch = 0;
    double seconds = 0.0;
    std::size_t head = 0;
    bool plainHead = false;
    const char* timeNumber = nullptr;
    const bool whole = at != std::string_view::npos &&
                       text.find("Epoch: ", at + 1) == std::string_view::npos &&
                       wholeLine(text.substr(at), batch, seconds, head, plainHead, &timeNumber) &&
                       std::isfinite(seconds);
    // DLPerf's batch field of a whole line that starts with its head, with no ']' after the
    // head, is the head's " k/n": its k is the batch just read.
    if (whole && at == 0 && !std::memchr(text.data() + head, ']', text.size() - head)) {
        s.hasIteration = true;
        s.batchFirst = s.batchLast = batch;
    } else {
        std::string_view field;
        std::int64_t dlperfBatch = 0;
        if (dlperfBatchField(text, field) &&
            pythonInt(field.substr(0, field.find('/')), dlperfBatch)) {
            s.hasIteration = true;
            s.batchFirst = s.batchLast = dlperfBatch;
        }
    }
    // DLPerf's Time regex cannot match inside a plain head at the line's start (every digit run
    // there ends at ']', '/' or '[' and no digit sits two after "][", "/" or "]\t"), so its
    // first match is searched from the Time field on.
    const std::size_t timeFrom = whole && at == 0 && plainHead ? head + 1 : 0;
    double plainTime = 0.0;
    if (timeFrom > 0 && plainTimeRegexValue(timeNumber, plainTime)) {
        s.hasDlperfValue = true;
        s.dlperfValue = plainTime;
    } else if (auto t = dlperfTimeField(text.substr(timeFrom))) {
        double v = 0.0;
        const std::string_view num = *t;
        auto [p, ec] = readDouble(num.data(), num.data() + num.size(), v);
        if (ec == std::errc() && p == num.data() + num.size()) {
            s.hasDlperfValue = true;
            s.dlperfValue = v;
        }
    }
    if (whole && batch == s.batchFirst) {
        s.hasSpeed = true;
        s.speed = seconds;
    }
}

bool isPytorchRn50Line(std::string_view line) {
    std::int64_t batch = 0;
    double seconds = 0.0;
    std::size_t head = 0;
    bool plainHead = false;
    const auto at = line.find("Epoch: [");
    return at != std::string_view::npos &&
           wholeLine(line.substr(at), batch, seconds, head, plainHead);
}

LogFormat pytorchRn50Format() {
    LogFormat f{
        "pytorch-rn50",
        "PyTorch",
        "",
        "PyTorch/resnet50v1.5/extract_pytorch_logs_time.py",
        "images/s",
        20,
        120,
        FormatFamily::Own,
        MessageFormat{"torchvision-progress", "Epoch: ", &parsePytorchRn50},
        5,
        &isPytorchRn50Line,
        0,
        &makeAnalyzer,
    };
    f.speedIsThroughput = false; // the line's number is a step time or steps/s
    return f;
}

} // namespace sv
