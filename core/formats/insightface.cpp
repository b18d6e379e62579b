#include "core/formats/insightface.h"

#include "core/measure/insightfaceanalyzer.h"
#include "core/model/numerics.h"
#include "core/model/textscan.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

namespace sv {
namespace {

// float() of "\d+\.\d+" in [first, last), the point at `point`.
double decimalValue(const char* first, const char* point, const char* last) {
    double value = 0.0;
    auto [p, ec] = readDouble(first, last, value); // std::from_chars's result, faster
    if (ec == std::errc::result_out_of_range)      // float() gives inf past the double's range
        value = std::string_view(first, static_cast<std::size_t>(point - first))
                            .find_first_not_of('0') != std::string_view::npos
                    ? HUGE_VAL
                    : 0.0;
    return value;
}

// re.findall(prefix + r"(\d+\.\d+)" + suffix, line)[0] then float(): the first place where
// digits, a point and digits follow prefix and precede suffix (suffix starts with no digit, so
// the greedy reading is the only one).
bool readDecimal(std::string_view text, std::string_view prefix, std::string_view suffix,
                 double& value) {
    for (auto at = text.find(prefix); at != std::string_view::npos;
         at = text.find(prefix, at + 1)) {
        std::size_t i = at + prefix.size();
        const std::size_t first = i;
        while (i < text.size() && isDigit(text[i]))
            ++i;
        if (i == first || i >= text.size() || text[i] != '.') continue;
        const std::size_t point = i++;
        while (i < text.size() && isDigit(text[i]))
            ++i;
        if (i == point + 1 || text.substr(i, suffix.size()) != suffix) continue;
        value = decimalValue(text.data() + first, text.data() + point, text.data() + i);
        return true;
    }
    return false;
}

// LineCursor's fast path of readDecimal where the prefix is known to be the line's first: the
// number at the cursor and the suffix right after it.
template <std::size_t N>
bool readDecimalHere(LineCursor& c, const char (&suffix)[N], double& value) {
    const char *first = nullptr, *point = nullptr;
    bool fast = false;
    if (!c.pointDecimal(first, point, value, fast)) return false;
    const char* last = c.p;
    if (!c.literal(suffix)) return false;
    if (!fast) value = decimalValue(first, point, last);
    return true;
}

// The unsigned integer at text[i...] up to `end`; false when there is none or it is too long.
bool readCount(std::string_view text, std::size_t i, char end, std::int64_t& out) {
    const std::size_t first = i;
    while (i < text.size() && isDigit(text[i]))
        ++i;
    if (i == first || i - first > 15 || i >= text.size() || text[i] != end) return false;
    std::from_chars(text.data() + first, text.data() + i, out);
    return true;
}

void setDlperfValue(SpeedSample& s, bool found, double value) {
    s.hasDlperfValue = true;
    s.dlperfValue = found ? value : std::nan("");
}

bool isArcfaceLine(std::string_view line) {
    auto at = line.find("INFO:root:Epoch[0] Batch [");
    if (at == std::string_view::npos) at = line.find("INFO:root:Iter[0] Batch [");
    return at != std::string_view::npos && line.find("Speed: ", at) != std::string_view::npos &&
           line.find(" samples/sec", at) != std::string_view::npos;
}

bool isPartialfcLine(std::string_view line) {
    const auto at = line.find("Iter:");
    if (at == std::string_view::npos) return false;
    const auto rank = line.find(" Rank:", at);
    const auto total = line.find(" it/sec Total:", rank);
    return rank != std::string_view::npos && total != std::string_view::npos &&
           line.find(" it/sec", total + 14) != std::string_view::npos;
}

// extract_mxnet_logs.py (ArcFace): the Speed of each line it reads, rounded to 1 and multiplied
// by the node count, then the mean of list[W // 20 : I // 20] rounded to 2; its assert refuses
// a warmup that is no multiple of 20.
class SpeedometerScript : public DlperfReplica {
  public:
    SpeedometerScript(MeasureOptions o, int nodes) : m_opt(o), m_nodes(nodes) {
        if (o.warmup % 20 != 0 || o.iterations <= o.warmup)
            refuse("(its assert: the warmup a multiple of 20, the iterations above it)");
    }
    void add(const SpeedSample& s) override {
        if (failed() || !s.hasDlperfValue) return;
        if (std::isnan(s.dlperfValue)) return fail(s.line, "its regex finds no Speed");
        // Lines past its slice are read (a line without a Speed still stops it), not kept.
        if (m_lines++ < m_opt.iterations / 20)
            m_speeds.push_back(roundPython(s.dlperfValue, 1) * m_nodes);
    }
    std::string quirk() const override {
        return "it averages the Speed lines " + std::to_string(m_opt.warmup / 20 + 1) + " to " +
               std::to_string(m_opt.iterations / 20) +
               " by their place in the log (taking every line as 20 batches), each rounded to 1 "
               "decimal";
    }

  private:
    // m_speeds holds min(lines, I // 20) figures.
    double figureRead() const override {
        return dlperfSliceMean(m_speeds, m_opt.warmup / 20, m_opt.iterations / 20);
    }

    MeasureOptions m_opt;
    int m_nodes;
    std::int64_t m_lines = 0;
    std::vector<double> m_speeds; // the first I // 20 lines' figures
};

// extract_mxnet_logs.py (Partial-FC): every line's Total rounded to 1, and the mean of
// list[W - 1:] rounded to 2: no upper bound, the iterations are not read.
class OpenEndedScript : public DlperfReplica {
  public:
    explicit OpenEndedScript(MeasureOptions o) : m_opt(o) {}
    void add(const SpeedSample& s) override {
        if (failed() || !s.hasDlperfValue) return;
        if (std::isnan(s.dlperfValue)) return fail(s.line, "its regex finds no Total");
        m_totals.push_back(roundPython(s.dlperfValue, 1));
        if (s.hasIteration) m_lastIteration = s.batchLast;
    }
    std::string quirk() const override {
        return "it averages every Total line from line " + std::to_string(start() + 1) +
               " to the end of the log (" + std::to_string(m_totals.size() - start()) +
               " lines, to iteration " + std::to_string(m_lastIteration) + "), with no bound at " +
               std::to_string(m_opt.iterations);
    }

  private:
    double figureRead() const override {
        return dlperfSliceMean(m_totals, static_cast<std::int64_t>(start()),
                               static_cast<std::int64_t>(m_totals.size()));
    }
    // Python's list[W - 1:]: a negative start counts from the end.
    std::size_t start() const {
        const auto n = static_cast<std::int64_t>(m_totals.size());
        std::int64_t from = m_opt.warmup - 1;
        if (from < 0) from = std::max<std::int64_t>(0, n + from);
        return static_cast<std::size_t>(std::min(from, n));
    }
    MeasureOptions m_opt;
    std::vector<double> m_totals;
    std::int64_t m_lastIteration = 0;
};

std::unique_ptr<FormatAnalyzer> makeArcface(const LogFormat& format, Topology topology, int batch,
                                            MeasureOptions o) {
    return std::make_unique<InsightfaceAnalyzer>(
        format, topology, batch, o, true, nullptr,
        std::make_unique<SpeedometerScript>(o, std::max(1, topology.nodes)));
}

std::unique_ptr<FormatAnalyzer> makePartialfc(const LogFormat& format, Topology topology, int batch,
                                              MeasureOptions o) {
    return std::make_unique<InsightfaceAnalyzer>(format, topology, batch, o, false, nullptr,
                                                 std::make_unique<OpenEndedScript>(o));
}

// The Speedometer's usual line, "INFO:root:Epoch[0] Batch [a-b]\tSpeed: X samples/sec...", in
// one pass: what parseArcfaceLine's general reading gives it (nothing before its "Epoch[0] Batch
// [" or its "Speed: " can be another such). False, with s untouched, for any other line.
bool arcfaceUsualLine(std::string_view text, SpeedSample& s) {
    LineCursor c(text);
    std::int64_t first = 0, last = 0;
    double v = 0.0;
    if (!c.literal("INFO:root:Epoch[0] Batch [") || !c.count(first, 15) || !c.next('-') ||
        !c.count(last, 15) || !c.next(']') || !c.literal("\tSpeed: ") ||
        !readDecimalHere(c, " samples/sec", v))
        return false;
    s.hasIteration = true;
    s.batchFirst = first;
    s.batchLast = last;
    s.hasSpeed = true;
    s.speed = v;
    setDlperfValue(s, true, v);
    return true;
}

// CallBackLogging's usual line, "INFO:root:Iter:N Rank:R it/sec Total:T it/sec ...", likewise
// (no "Iter:" or "Total:" can come before these, and it holds "Rank:" and "Total:").
bool partialfcUsualLine(std::string_view text, SpeedSample& s) {
    LineCursor c(text);
    std::int64_t update = 0;
    double v = 0.0;
    if (!c.literal("INFO:root:Iter:") || !c.count(update, 15) || !c.literal(" Rank:")) return false;
    c.skipDigitsAndPoints();
    if (!c.literal(" it/sec Total:") || !readDecimalHere(c, " it/sec", v)) return false;
    s.hasIteration = true;
    s.batchFirst = s.batchLast = update;
    s.hasSpeed = true;
    s.speed = v;
    setDlperfValue(s, true, v);
    return true;
}

} // namespace

void parseArcfaceLine(std::string_view text, std::size_t, SpeedSample& s) {
    if (arcfaceUsualLine(text, s)) return;
    // The Speedometer with an eval metric names the batches its rate covers ("Batch [20-40]");
    // without one, the last ("Iter[0] Batch [40]").
    std::int64_t first = 0, last = 0;
    if (const auto at = text.find("Epoch[0] Batch ["); at != std::string_view::npos) {
        const std::size_t i = at + 16;
        const auto dash = text.find('-', i);
        if (readCount(text, i, '-', first) && readCount(text, dash + 1, ']', last)) {
            s.hasIteration = true;
            s.batchFirst = first;
            s.batchLast = last;
        }
    } else if (const auto it = text.find("Iter[0] Batch ["); it != std::string_view::npos) {
        if (readCount(text, it + 15, ']', last)) {
            s.hasIteration = true;
            s.batchFirst = s.batchLast = last;
        }
    }
    double v = 0.0;
    const bool found = readDecimal(text, "Speed: ", " samples/sec", v);
    if (found) {
        s.hasSpeed = true;
        s.speed = v;
    }
    if (contains(text, "INFO:root:Epoch[0] Batch") || contains(text, "INFO:root:Iter[0] Batch"))
        setDlperfValue(s, found, v);
}

void parsePartialfcLine(std::string_view text, std::size_t, SpeedSample& s) {
    if (partialfcUsualLine(text, s)) return;
    // DLPerf reads the lines holding both; so does ScaleView (CallBackLogging's).
    if (!contains(text, "Rank:") || !contains(text, "Total:")) return;
    std::int64_t update = 0;
    if (const auto at = text.find("Iter:");
        at != std::string_view::npos && readCount(text, at + 5, ' ', update)) {
        s.hasIteration = true;
        s.batchFirst = s.batchLast = update;
    }
    double v = 0.0;
    const bool found = readDecimal(text, "Total:", " it/sec", v);
    if (found) {
        s.hasSpeed = true;
        s.speed = v;
    }
    setDlperfValue(s, found, v);
}

LogFormat insightfaceArcfaceFormat() {
    return {.id = "insightface-arcface",
            .framework = "MXNet ArcFace",
            .speedScript = "MxNet/InsightFace/ArcFace/extract_mxnet_logs.py",
            .timeScript = "",
            .unit = "samples/s",
            .defaultWarmup = 20,
            .defaultIterations = 120,
            .family = FormatFamily::Own,
            .message = MessageFormat{"arcface-speedometer", "[0] Batch", &parseArcfaceLine},
            .detect = &isArcfaceLine,
            .makeAnalyzer = &makeArcface};
}

LogFormat insightfacePartialfcFormat() {
    return {.id = "insightface-partialfc",
            .framework = "MXNet Partial FC",
            .speedScript = "MxNet/InsightFace/PartailFC/extract_mxnet_logs.py",
            .timeScript = "",
            .unit = "samples/s",
            .defaultWarmup = 20,
            .defaultIterations = 120,
            .family = FormatFamily::Own,
            .message = MessageFormat{"partialfc-total", "Total:", &parsePartialfcLine},
            .detect = &isPartialfcLine,
            .makeAnalyzer = &makePartialfc};
}

} // namespace sv
