#include "core/formats/formatdraft.h"

#include "core/parse/lineformat.h"
#include "core/model/jsontext.h"
#include "core/model/atomicfile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <unistd.h>

namespace sv {
namespace {

bool isAlpha(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool isDigitChar(char c) {
    return c >= '0' && c <= '9';
}
bool isWordChar(char c) {
    return isAlpha(c) || isDigitChar(c) || c == '_';
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// The length of a launcher's tag at the start of line (Open MPI's, srun's...), 0 if none.
std::size_t tagLength(std::string_view line) {
    if (!mayHaveTag(line)) return 0;
    for (const TagFormat& tag : tagFormats()) {
        int rank = -1;
        std::size_t length = 0;
        if (tag.match(line, rank, length)) return length;
    }
    return 0;
}

void appendLiteral(std::string& out, char c) {
    static constexpr std::string_view kMeta = "\\.^$|?*+()[]{}";
    if (c == '\t') {
        out += "\\t";
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(c));
        out += hex;
    } else {
        if (kMeta.find(c) != std::string_view::npos) out += '\\';
        out += c;
    }
}

constexpr std::string_view kAnyNumber = "[-+]?(?:[0-9.]+(?:[eE][-+]?[0-9]+)?|nan|inf)";
constexpr std::string_view kValue = "(?P<value>[0-9.]+(?:[eE][-+]?[0-9]+)?)";
constexpr std::string_view kStep = "(?P<step>[0-9]+)";

} // namespace

std::vector<LineNumber> numbersInLine(std::string_view line) {
    std::vector<LineNumber> out;
    std::size_t i = 0;
    while (i < line.size()) {
        if (!isDigitChar(line[i])) {
            ++i;
            continue;
        }
        // Digits glued to a word before them ("r50", "fp16", "8g" of "1n8g") are not numbers.
        if (i > 0 && (isAlpha(line[i - 1]) || line[i - 1] == '_')) {
            while (i < line.size() && isWordChar(line[i]))
                ++i;
            continue;
        }
        std::size_t start = i;
        while (i < line.size() && isDigitChar(line[i]))
            ++i;
        bool whole = true;
        if (i + 1 < line.size() && line[i] == '.' && isDigitChar(line[i + 1])) {
            whole = false;
            ++i;
            while (i < line.size() && isDigitChar(line[i]))
                ++i;
        }
        if (i + 1 < line.size() && (line[i] == 'e' || line[i] == 'E')) {
            std::size_t j = i + 1;
            if (j < line.size() && (line[j] == '-' || line[j] == '+')) ++j;
            if (j < line.size() && isDigitChar(line[j])) {
                whole = false;
                i = j;
                while (i < line.size() && isDigitChar(line[i]))
                    ++i;
            }
        }
        // "0x1f": not a number.
        if (i < line.size() && line[i] == 'x' && i - start == 1 && line[start] == '0') {
            while (i < line.size() && isWordChar(line[i]))
                ++i;
            continue;
        }
        // A sign right before, where it is no separator ("2020-09" is a date).
        if (start > 0 && line[start - 1] == '-' && (start == 1 || !isWordChar(line[start - 2])))
            --start;
        LineNumber n;
        n.position = start;
        n.length = i - start;
        n.text = std::string(line.substr(start, n.length));
        n.whole = whole;
        const char* b = n.text.data();
        std::from_chars(b, b + n.text.size(), n.value);
        if (i < line.size() &&
            (line[i] == 'K' || line[i] == 'k' || line[i] == 'M' || line[i] == 'G') &&
            (i + 1 == line.size() || !isAlpha(line[i + 1]) ||
             lower(line.substr(i + 1, 3)) == "tks" || lower(line.substr(i + 1, 3)) == "sam" ||
             lower(line.substr(i + 1, 3)) == "img"))
            n.suffix = line[i];
        out.push_back(std::move(n));
    }
    return out;
}

std::string draftLinePattern(std::string_view line, const std::vector<LineNumber>& numbers,
                             int value, int step) {
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n' || line.back() == ' ' ||
                             line.back() == '\t'))
        line.remove_suffix(1);
    const std::size_t skip = tagLength(line);
    std::string out;
    std::size_t at = skip;
    auto literal = [&](std::size_t from, std::size_t to, bool beforeNumber) {
        std::size_t i = from;
        while (i < to) {
            if (line[i] == ' ') {
                std::size_t j = i;
                while (j < to && line[j] == ' ')
                    ++j;
                // Padding before a number grows and shrinks with its width.
                if (j == to && beforeNumber)
                    out += " *";
                else if (j - i >= 2)
                    out += " +";
                else
                    out += ' ';
                i = j;
                continue;
            }
            appendLiteral(out, line[i]);
            ++i;
        }
    };
    for (int k = 0; k < static_cast<int>(numbers.size()); ++k) {
        const LineNumber& n = numbers[static_cast<std::size_t>(k)];
        if (n.position < skip || n.position + n.length > line.size()) continue;
        literal(at, n.position, true);
        at = n.position + n.length;
        if (k == value) {
            out += kValue;
            if (n.suffix) {
                out += "(?P<scale>[KkMG]?)";
                ++at;
            }
        } else if (k == step) {
            out += kStep;
        } else if (n.whole && n.text[0] != '-') {
            out += "[0-9]+"; // a count, a date's or a clock's field: digits stay digits
        } else {
            out += kAnyNumber;
        }
    }
    literal(at, line.size(), false);
    return out;
}

int suggestThroughputLine(const std::vector<std::string>& lines) {
    static const char* const kWords[] = {"/s",  "/sec",       "speed",   "throughput",
                                         "ips", "per second", "per_sec", "samples_per"};
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string l = lower(lines[i]);
        for (const char* w : kWords)
            if (l.find(w) != std::string::npos && !numbersInLine(lines[i]).empty())
                return static_cast<int>(i);
    }
    return -1;
}

std::optional<FormatDraft> FormatDraft::open(const std::filesystem::path& log, std::string* error,
                                             int maxLines) {
    std::ifstream in(log, std::ios::binary);
    if (!in) {
        if (error) *error = "cannot open " + log.string();
        return std::nullopt;
    }
    constexpr std::size_t kHead = std::size_t{1} << 20, kShown = 4096;
    std::string head(kHead, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    const std::size_t probe = std::min<std::size_t>(head.size(), 8192);
    if (std::find(head.begin(), head.begin() + static_cast<std::ptrdiff_t>(probe), '\0') !=
        head.begin() + static_cast<std::ptrdiff_t>(probe)) {
        if (error) *error = log.string() + " is binary (a NUL byte in its first 8 KiB), not a log";
        return std::nullopt;
    }
    FormatDraft d;
    d.m_log = log;
    std::string_view rest = head;
    while (!rest.empty() && static_cast<int>(d.m_lines.size()) < maxLines) {
        const auto nl = rest.find('\n');
        std::string_view l = rest.substr(0, nl);
        if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
        d.m_lines.emplace_back(l.substr(0, kShown));
        if (nl == std::string_view::npos) break;
        rest.remove_prefix(nl + 1);
    }
    if (d.m_lines.empty()) {
        if (error) *error = log.string() + " is empty";
        return std::nullopt;
    }
    d.id = formatIdFromName(log.filename().string());
    d.name = d.id;
    return d;
}

void FormatDraft::chooseLine(int index) {
    if (index < 0 || index >= static_cast<int>(m_lines.size())) return;
    m_line = index;
    const std::string& l = m_lines[static_cast<std::size_t>(index)];
    m_numbers = numbersInLine(l);
    m_value = m_numbers.empty() ? -1 : static_cast<int>(m_numbers.size()) - 1;
    m_step = -1;
    // The value: the number right after a speed-like word or right before a "/s" unit.
    const std::string low = lower(l);
    int best = -1, bestScore = 0;
    for (int k = 0; k < static_cast<int>(m_numbers.size()); ++k) {
        const LineNumber& n = m_numbers[static_cast<std::size_t>(k)];
        const std::size_t from = n.position >= 24 ? n.position - 24 : 0;
        const std::string before = low.substr(from, n.position - from);
        const std::string after = low.substr(n.position + n.length, 16);
        int score = 0;
        for (const char* w : {"speed", "throughput", "ips", "samples/s", "images/s", "per_sec"})
            if (before.find(w) != std::string::npos) score += 3;
        if (after.find("/s") != std::string::npos) score += 4;
        if (!n.whole) score += 1;
        if (score > bestScore) {
            bestScore = score;
            best = k;
        }
    }
    if (best >= 0) m_value = best;
    // "245.3 img/sec per GPU": one GPU's rate, not the run's.
    perGpu = low.find("per gpu") != std::string::npos ||
             low.find("per device") != std::string::npos || low.find("/gpu") != std::string::npos;
    // The step: a whole number right after "iter", "step" or "batch".
    for (int k = 0; k < static_cast<int>(m_numbers.size()); ++k) {
        const LineNumber& n = m_numbers[static_cast<std::size_t>(k)];
        if (!n.whole || k == m_value) continue;
        const std::size_t from = n.position >= 14 ? n.position - 14 : 0;
        const std::string before = low.substr(from, n.position - from);
        const bool itWord = before.size() >= 3 &&
                            before.compare(before.size() - 3, 3, "it ") == 0 &&
                            (before.size() == 3 || !isAlpha(before[before.size() - 4]));
        if (itWord || before.find("iter") != std::string::npos ||
            before.find("step") != std::string::npos || before.find("batch") != std::string::npos) {
            m_step = k;
            break;
        }
    }
    pattern = draft();
    if (low.find("tks/s") != std::string::npos || low.find("tokens") != std::string::npos)
        unit = "tokens/s";
    else if (low.find("img") != std::string::npos || low.find("image") != std::string::npos)
        unit = "images/s";
}

void FormatDraft::chooseValue(int number) {
    if (number < 0 || number >= static_cast<int>(m_numbers.size())) return;
    m_value = number;
    if (m_step == number) m_step = -1;
    pattern = draft();
}

void FormatDraft::chooseStep(int number) {
    if (number >= static_cast<int>(m_numbers.size()) || number == m_value) number = -1;
    m_step = number < 0 ? -1 : number;
    pattern = draft();
}

std::string FormatDraft::draft() const {
    if (m_line < 0 || m_value < 0) return {};
    return draftLinePattern(m_lines[static_cast<std::size_t>(m_line)], m_numbers, m_value, m_step);
}

std::string FormatDraft::json() const {
    nlohmann::ordered_json j;
    j["scaleview_format"] = 1;
    j["id"] = id;
    j["name"] = name.empty() ? id : name;
    j["unit"] = unit;
    j["line"] = pattern;
    if (stepTime) {
        j["value"] = "step_time";
        if (batch > 0) j["batch"] = batch;
    }
    if (perGpu && !stepTime) j["per_gpu"] = true;
    if (!gpusPattern.empty()) j["metadata"] = {{"gpus", gpusPattern}};
    j["window"] = {{"drop_first", 0.1}};
    return jsonText(j, 2) + "\n";
}

std::shared_ptr<const UserFormat> FormatDraft::format(UserFormatError* error) const {
    return UserFormat::parse(json(), id.empty() ? std::string("draft") : id + ".json", error);
}

std::vector<int> FormatDraft::matchingLines() const {
    std::vector<int> out;
    const auto f = format(nullptr);
    if (!f) return out;
    for (std::size_t i = 0; i < m_lines.size(); ++i)
        if (f->matches(m_lines[i])) out.push_back(static_cast<int>(i));
    return out;
}

UserFormatPreview FormatDraft::preview(UserFormatError* error) const {
    const auto f = format(error);
    if (!f) {
        UserFormatPreview p;
        p.problem = error ? error->text() : "the format is not valid";
        return p;
    }
    return previewUserFormat(*f, m_log);
}

std::optional<std::filesystem::path> FormatDraft::save(const std::filesystem::path& dir,
                                                       std::string* error) const {
    UserFormatError e;
    if (!format(&e)) {
        if (error) *error = e.text();
        return std::nullopt;
    }
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
        if (error) *error = "cannot create " + dir.string() + ": " + ec.message();
        return std::nullopt;
    }
    const auto target = dir / (id + ".json");
    if (const auto failed = writeFileAtomically(target, json())) {
        if (error) *error = *failed;
        return std::nullopt;
    }
    return target;
}

std::string formatIdFromName(std::string_view fileName) {
    const auto dot = fileName.rfind('.');
    if (dot != std::string_view::npos && dot > 0) fileName = fileName.substr(0, dot);
    std::string out;
    for (char c : fileName) {
        const char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if ((l >= 'a' && l <= 'z') || (l >= '0' && l <= '9') || l == '.')
            out += l;
        else if (!out.empty() && out.back() != '-')
            out += '-';
        if (out.size() >= 48) break;
    }
    while (!out.empty() && (out.back() == '-' || out.back() == '.'))
        out.pop_back();
    while (!out.empty() && (out.front() == '.' || out.front() == '-'))
        out.erase(out.begin());
    return out.empty() ? "user-format" : out;
}

} // namespace sv
