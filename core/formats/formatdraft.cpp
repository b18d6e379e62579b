#include "core/formats/formatdraft.h"

#include "core/parse/lineformat.h"
#include "core/model/jsontext.h"
#include "core/model/textscan.h"
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

// A progress bar's body, whose glyphs change from line to line: tqdm's "12%|###   |" (or its
// Unicode blocks) and Keras's "[=====>....]". [begin, end) of the body; empty if none.
std::pair<std::size_t, std::size_t> progressBar(std::string_view line) {
    if (const auto pct = line.find("%|"); pct != std::string_view::npos) {
        const auto close = line.find('|', pct + 2);
        if (close != std::string_view::npos) return {pct + 2, close};
    }
    for (auto open = line.find('['); open != std::string_view::npos;
         open = line.find('[', open + 1)) {
        std::size_t i = open + 1;
        while (i < line.size() && (line[i] == '=' || line[i] == '>' || line[i] == '.'))
            ++i;
        if (i < line.size() && line[i] == ']' && i - open > 3) return {open + 1, i};
    }
    return {0, 0};
}

// Clock fields ("00:15", "1:02:03") grow an hours field as a run goes on: one class for them.
void generaliseClocks(std::string& pattern) {
    static constexpr std::string_view kTwo = "[0-9]+:[0-9]+";
    for (auto at = pattern.find(kTwo); at != std::string::npos; at = pattern.find(kTwo, at)) {
        std::size_t end = at + kTwo.size();
        while (pattern.compare(end, 7, ":[0-9]+") == 0)
            end += 7;
        pattern.replace(at, end - at, "[0-9:]+");
        at += 7;
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
    const auto [barBegin, barEnd] = progressBar(line);
    std::string out;
    std::size_t at = skip;
    auto literal = [&](std::size_t from, std::size_t to, bool beforeNumber) {
        std::size_t i = from;
        while (i < to) {
            if (i == barBegin && barEnd > barBegin) {
                out += line[barEnd] == '|' ? "[^|]*" : "[=>.]*";
                i = std::min(barEnd, to);
                continue;
            }
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
        if (n.position >= barBegin && n.position < barEnd) continue; // part of the bar
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
    generaliseClocks(out);
    return out;
}

int suggestThroughputLine(const std::vector<std::string>& lines) {
    // A number right before a rate unit ("1234.5 samples/sec", "7.77it/s"), or after a speed
    // word ("throughput: 512"): tqdm's first "0/200 [00:00<?, ?it/s]" holds none.
    static const char* const kWords[] = {"speed",      "throughput", "ips",
                                         "per second", "per_sec",    "samples_per"};
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string l = lower(lines[i]);
        for (const LineNumber& n : numbersInLine(lines[i])) {
            std::size_t j = n.position + n.length + (n.suffix ? 1 : 0);
            while (j < l.size() && l[j] == ' ')
                ++j;
            while (j < l.size() && isAlpha(l[j]))
                ++j;
            if (l.compare(j, 2, "/s") == 0) return static_cast<int>(i);
            const std::size_t from = n.position >= 24 ? n.position - 24 : 0;
            const std::string before = l.substr(from, n.position - from);
            for (const char* w : kWords)
                if (before.find(w) != std::string::npos) return static_cast<int>(i);
        }
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
        // What the format will read of it: a line of tqdm bars joined by '\r' at its last bar.
        const std::string_view l = terminalLine(rest.substr(0, nl));
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
    d.m_idFromLine = isGenericLogName(d.id);
    d.m_autoId = d.id;
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
    // Else a count of a total, "118/1000" (tqdm's progress): the step is its first number.
    for (int k = 0; m_step < 0 && k + 1 < static_cast<int>(m_numbers.size()); ++k) {
        const LineNumber& n = m_numbers[static_cast<std::size_t>(k)];
        const LineNumber& total = m_numbers[static_cast<std::size_t>(k) + 1];
        if (n.whole && total.whole && k != m_value && k + 1 != m_value &&
            total.position == n.position + n.length + 1 && l[n.position + n.length] == '/' &&
            n.value <= total.value)
            m_step = k;
    }
    pattern = draft();
    if (low.find("tks/s") != std::string::npos || low.find("tokens") != std::string::npos)
        unit = "tokens/s";
    else if (low.find("img") != std::string::npos || low.find("image") != std::string::npos)
        unit = "images/s";
    // tqdm's "7.77it/s" is iterations (steps) per second, not samples: said as what it is.
    if (m_value >= 0) {
        const LineNumber& v = m_numbers[static_cast<std::size_t>(m_value)];
        const std::string after = low.substr(v.position + v.length, 8);
        for (const char* steps : {"it/s", "its/s", "step/s", "steps/s", "iter/s", "iters/s"})
            if (after.rfind(steps, 0) == 0) unit = "steps/s";
    }
    // A name that says nothing ("train.log"): the id is the line's words, until the user types one.
    if (m_idFromLine && id == m_autoId) {
        const bool sameName = name == id;
        id = m_autoId = idFromLine(l);
        if (sameName) name = id;
    }
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
    // A step rate's figure is steps/s times a batch: samples, never steps, per second.
    const bool rate = stepRate && !stepTime;
    j["unit"] = rate && unit == "steps/s" ? std::string("samples/s") : unit;
    j["line"] = pattern;
    if (stepTime || rate) {
        j["value"] = stepTime ? "step_time" : "step_rate";
        if (batch > 0) j["batch"] = batch;
    }
    if (perGpu && !stepTime && !rate) j["per_gpu"] = true;
    // A bare number is every log's GPU count; anything else a pattern.
    const bool count = !gpusPattern.empty() && gpusPattern.size() < 7 &&
                       gpusPattern.find_first_not_of("0123456789") == std::string::npos &&
                       gpusPattern != std::string(gpusPattern.size(), '0');
    if (count)
        j["metadata"] = {{"gpus", std::stoi(gpusPattern)}};
    else if (!gpusPattern.empty())
        j["metadata"] = {{"gpus", gpusPattern}};
    j["window"] = {{"drop_first", 0.1}};
    return jsonText(j, 2) + "\n";
}

std::shared_ptr<const UserFormat> FormatDraft::format(UserFormatError* error) const {
    return UserFormat::parse(json(), id.empty() ? std::string("draft") : id + ".json", error);
}

std::string FormatDraft::coverage() const {
    if (m_line < 0 || m_value < 0) return {};
    // The lines like the chosen one: those that hold the words right after its value
    // ("it/s", "samples/sec"), or else the word before it.
    const std::string& chosen = m_lines[static_cast<std::size_t>(m_line)];
    const LineNumber& v = m_numbers[static_cast<std::size_t>(m_value)];
    std::size_t end = v.position + v.length + (v.suffix ? 1 : 0);
    while (end < chosen.size() && chosen[end] == ' ')
        ++end;
    std::size_t stop = end;
    while (stop < chosen.size() && chosen[stop] != ' ' && chosen[stop] != ',' &&
           chosen[stop] != ']' && chosen[stop] != '|')
        ++stop;
    std::string cue = chosen.substr(end, stop - end);
    if (cue.size() < 2) {
        std::size_t b = v.position;
        while (b > 0 && (chosen[b - 1] == ' ' || chosen[b - 1] == ':' || chosen[b - 1] == '='))
            --b;
        std::size_t a = b;
        while (a > 0 && isWordChar(chosen[a - 1]))
            --a;
        cue = chosen.substr(a, b - a);
    }
    if (cue.size() < 2) return {};
    int like = 0;
    for (const std::string& l : m_lines)
        like += l.find(cue) != std::string::npos;
    const int matched = static_cast<int>(matchingLines().size());
    if (like < 3 || matched * 2 > like) return {};
    return "the pattern matches " + std::to_string(matched) + " of the " + std::to_string(like) +
           " lines shown that hold \"" + cue +
           "\": make it more general (numbers, a progress bar's glyphs) or pick another line";
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

bool isGenericLogName(std::string_view id) {
    // Every part a word that names no format, or digits (a job number, a date).
    static const char* const kGeneric[] = {
        "train", "training", "log",    "logs",    "output", "out",    "stdout", "stderr", "run",
        "nohup", "console",  "result", "results", "user",   "format", "job",    "slurm"};
    std::size_t i = 0;
    while (i < id.size()) {
        const std::size_t j = std::min(id.find_first_of("-.", i), id.size());
        const std::string_view part = id.substr(i, j - i);
        bool generic = part.find_first_not_of("0123456789") == std::string_view::npos;
        for (const char* g : kGeneric)
            generic = generic || part == g;
        if (!generic) return false;
        i = j + 1;
    }
    return true;
}

std::string idFromLine(std::string_view line) {
    if (line.find("%|") != std::string_view::npos && line.find("it/s") != std::string_view::npos)
        return "tqdm-progress";
    static const char* const kNoise[] = {"info", "debug", "warning", "root", "the", "and", "of",
                                         "in",   "at",    "is",      "s",    "sec", "it",  "per"};
    std::string out;
    int words = 0;
    for (std::size_t i = tagLength(line); i < line.size() && words < 3;) {
        if (!isAlpha(line[i])) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < line.size() && isAlpha(line[j]))
            ++j;
        const std::string word = lower(line.substr(i, j - i));
        const bool glued = (i > 0 && isDigitChar(line[i - 1])) ||
                           (j < line.size() && isDigitChar(line[j])); // "r50", "1n8g"
        bool noise = glued || word.size() > 16;
        for (const char* n : kNoise)
            noise = noise || word == n;
        if (!noise) {
            out += (out.empty() ? "" : "-") + word;
            ++words;
        }
        i = j;
    }
    return out.empty() ? "user-format" : out;
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
