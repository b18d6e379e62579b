#include "pytorchrn50.h"

#include "numerics.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace sv {
namespace {

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string fixed2(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

// Python's int() of a string: blanks around, a sign, digits with single '_' between them.
bool pythonInt(std::string_view t, std::int64_t& out) {
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
// line's last ']'.
bool dlperfBatchField(std::string_view s, std::string_view& field) {
    const auto first = s.find('[');
    const auto last = s.rfind(']');
    if (first == std::string_view::npos || last == std::string_view::npos) return false;
    for (auto at = s.rfind("][", last); at != std::string_view::npos && at >= first + 1;
         at = at == 0 ? std::string_view::npos : s.rfind("][", at - 1)) {
        if (at + 2 <= last) {
            field = s.substr(at + 2, last - at - 2);
            return true;
        }
    }
    return false;
}

// DLPerf's r"(\d{1}.\d{1,3}\s)": a digit, any character, 1 to 3 digits (greedy), a blank; the
// first match, then float(): "Time 12.054 " matches at "2.054 ".
std::optional<std::string_view> dlperfTimeField(std::string_view s) {
    for (std::size_t i = 0; i + 3 < s.size(); ++i) {
        if (!isDigit(s[i])) continue;
        for (std::size_t n = 3; n >= 1; --n) {
            const std::size_t end = i + 2 + n;
            if (end >= s.size()) continue;
            bool digits = true;
            for (std::size_t k = i + 2; k < end; ++k)
                digits = digits && isDigit(s[k]);
            if (digits && isSpace(s[end])) return s.substr(i, end - i); // float() strips
        }
    }
    return std::nullopt;
}

// "<name> +<v> \( *<avg>\)": an AverageMeter's text; v is read.
bool meter(std::string_view field, std::string_view name, double& v) {
    if (field.substr(0, name.size()) != name) return false;
    std::size_t i = name.size();
    if (i >= field.size() || field[i] != ' ') return false;
    while (i < field.size() && field[i] == ' ')
        ++i;
    auto [p, ec] = std::from_chars(field.data() + i, field.data() + field.size(), v);
    if (ec != std::errc()) return false;
    const std::string_view rest = field.substr(static_cast<std::size_t>(p - field.data()));
    return rest.size() >= 4 && rest.substr(0, 2) == " (" && rest.back() == ')';
}

// The whole ProgressMeter line, "Epoch: [e][ k/n]" then Time, Data, Loss, Acc@1 and Acc@5
// separated by tabs: a line cut by another rank's block rarely keeps that shape.
bool wholeLine(std::string_view s, std::int64_t& batch, double& seconds) {
    std::string_view fields[6];
    std::size_t n = 0;
    while (n < 6) {
        const auto tab = s.find('\t');
        fields[n++] = s.substr(0, tab);
        if (tab == std::string_view::npos) break;
        s.remove_prefix(tab + 1);
    }
    if (n != 6 || fields[5].find('\t') != std::string_view::npos) return false;
    const std::string_view head = fields[0];
    if (head.substr(0, 8) != "Epoch: [" || head.back() != ']') return false;
    const auto mid = head.find("][");
    const auto slash = head.find('/');
    if (mid == std::string_view::npos || slash == std::string_view::npos || slash < mid)
        return false;
    double unused = 0.0;
    std::int64_t b = 0, total = 0;
    if (!pythonInt(head.substr(mid + 2, slash - mid - 2), b) ||
        !pythonInt(head.substr(slash + 1, head.size() - slash - 2), total) || b < 0 || b > total)
        return false;
    if (!meter(fields[1], "Time", seconds) || !meter(fields[2], "Data", unused) ||
        fields[3].substr(0, 5) != "Loss " || !meter(fields[4], "Acc@1", unused) ||
        fields[5].substr(0, 6) != "Acc@5 ")
        return false;
    batch = b;
    return true;
}

// ScaleView's figure: the global batch over the mean of the Time values of the lines W+1 .. I,
// counting every rank's lines past its iteration 5 (DLPerf's README: each card's first 5
// iterations dropped), with Time read whole and lines cut by another rank's block left out.
// DLPerf's: the same count over every line its regexes accept, Time read by its regex.
class PooledRankAnalyzer : public FormatAnalyzer {
  public:
    PooledRankAnalyzer(Topology topology, int batch, MeasureOptions o)
        : m_global(static_cast<double>(static_cast<std::int64_t>(batch) * topology.ranks())),
          m_opt(o) {}

    void add(const SpeedSample& s) override {
        addDlperf(s);
        ++m_lines;
        if (!s.hasSpeed) {
            ++m_cutLines;
            return;
        }
        if (s.batchFirst <= 5 || m_count >= m_opt.iterations) return;
        ++m_count;
        if (m_count <= m_opt.warmup) return;
        m_seconds += s.speed;
        if (s.speed != s.dlperfValue && m_misreadLine == 0) m_misreadLine = s.line;
    }

    void finish(RunResult& out, const ParseCounters& counters, bool tail) const override {
        out.counters = counters;
        out.expectedLines = m_opt.iterations;
        out.unterminatedTail = tail;
        const std::string script = "extract_pytorch_logs_time.py";
        if (!m_dlperfFailure.empty())
            out.dlperfNote = "DLPerf's " + script + " stops with an error " + m_dlperfFailure;
        else
            out.dlperfThroughput = m_dlperfDone ? m_dlperfFigure : 0.0;
        if (m_lines == 0) {
            out.status = RunStatus::Empty;
            out.reason = "no \"Epoch: \" lines among " + std::to_string(counters.lines) + " lines";
            return;
        }
        if (m_count < m_opt.iterations) {
            out.status = RunStatus::Incomplete;
            out.reason = "found " + std::to_string(m_count) + " of " +
                         std::to_string(m_opt.iterations) +
                         " whole \"Epoch: \" lines past each rank's iteration 5";
            if (m_cutLines)
                out.reason += " (" + std::to_string(m_cutLines) +
                              " lines cut by other ranks' "
                              "output left out)";
            if (tail) out.reason += ", and an unterminated last line (still being written?)";
            return;
        }
        if (!(m_seconds > 0.0)) {
            out.status = RunStatus::Unusable;
            out.reason = "the Time values of the window add up to " + fixed2(m_seconds) + " s";
            return;
        }
        out.status = RunStatus::Complete;
        const double steps = static_cast<double>(m_opt.iterations - m_opt.warmup);
        out.timeThroughput = out.speedThroughput = roundPython2(m_global / (m_seconds / steps));
        out.methodDifferencePct = 0.0;
        if (!out.dlperfNote.empty()) {
            out.notes.push_back(out.dlperfNote);
        } else if (*out.dlperfThroughput == 0.0) {
            out.notes.push_back("DLPerf's " + script + " records 0 for this run: it finds " +
                                std::to_string(m_dlperfCount) + " of " +
                                std::to_string(m_opt.iterations) + " lines");
        } else {
            const double ours = *out.timeThroughput, theirs = *out.dlperfThroughput;
            const double diff = std::fabs(theirs - ours) / ours * 100.0;
            if (diff > 0.5) {
                std::string why;
                if (m_misreadLine)
                    why = "its regex r\"(\\d{1}.\\d{1,3}\\s)\" keeps one digit before the point "
                          "(\"Time 12.054\" reads as 2.054; first at line " +
                          std::to_string(m_misreadLine) + ")";
                if (m_cutLines)
                    why += std::string(why.empty() ? "" : "; ") + "it counts lines cut by " +
                           "other ranks' output";
                out.notes.push_back("DLPerf's " + script + " gives " + fixed2(theirs) + ", " +
                                    fixed2(diff) + " % apart from " + fixed2(ours) + ": " + why);
            }
        }
        if (m_cutLines)
            out.notes.push_back(std::to_string(m_cutLines) +
                                " \"Epoch: \" lines cut by other ranks' output (every rank "
                                "writes 8 KiB blocks into the one file) left out");
    }

  private:
    void addDlperf(const SpeedSample& s) {
        if (m_dlperfDone || !m_dlperfFailure.empty()) return;
        auto fail = [&](const char* why) {
            m_dlperfFailure = "at line " + std::to_string(s.line) + " (" + why + ")";
        };
        if (!s.hasIteration) return fail("its batch regex or int() fails");
        if (s.batchFirst <= 5) return;
        ++m_dlperfCount;
        if (m_dlperfCount > m_opt.warmup) {
            if (!s.hasDlperfValue) return fail("its Time regex or float() fails");
            m_dlperfSeconds += s.dlperfValue;
        }
        if (m_dlperfCount == m_opt.iterations) {
            if (m_dlperfSeconds == 0.0) return fail("division by zero");
            m_dlperfDone = true;
            m_dlperfFigure =
                roundPython2(m_global / (m_dlperfSeconds /
                                         static_cast<double>(m_opt.iterations - m_opt.warmup)));
        }
    }

    double m_global;
    MeasureOptions m_opt;
    std::int64_t m_lines = 0, m_cutLines = 0, m_count = 0, m_misreadLine = 0;
    double m_seconds = 0.0;
    std::int64_t m_dlperfCount = 0;
    double m_dlperfSeconds = 0.0, m_dlperfFigure = 0.0;
    bool m_dlperfDone = false;
    std::string m_dlperfFailure;
};

std::unique_ptr<FormatAnalyzer> makeAnalyzer(const LogFormat&, Topology topology, int batch,
                                             MeasureOptions options) {
    return std::make_unique<PooledRankAnalyzer>(topology, batch, options);
}

} // namespace

void parsePytorchRn50(std::string_view text, std::size_t, SpeedSample& s) {
    std::string_view field;
    std::int64_t batch = 0;
    if (dlperfBatchField(text, field) && pythonInt(field.substr(0, field.find('/')), batch)) {
        s.hasIteration = true;
        s.batchFirst = s.batchLast = batch;
    }
    if (auto t = dlperfTimeField(text)) {
        double v = 0.0;
        const std::string_view num = *t;
        auto [p, ec] = std::from_chars(num.data(), num.data() + num.size(), v);
        if (ec == std::errc() && p == num.data() + num.size()) {
            s.hasDlperfValue = true;
            s.dlperfValue = v;
        }
    }
    // ScaleView reads the line only when it is whole, from its "Epoch: ".
    const auto at = text.find("Epoch: ");
    double seconds = 0.0;
    if (at != std::string_view::npos && text.find("Epoch: ", at + 1) == std::string_view::npos &&
        wholeLine(text.substr(at), batch, seconds) && std::isfinite(seconds) &&
        batch == s.batchFirst) {
        s.hasSpeed = true;
        s.speed = seconds;
    }
}

bool isPytorchRn50Line(std::string_view line) {
    std::int64_t batch = 0;
    double seconds = 0.0;
    const auto at = line.find("Epoch: [");
    return at != std::string_view::npos && wholeLine(line.substr(at), batch, seconds);
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
