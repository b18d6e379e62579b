#include "core/formats/userformat.h"

#include "core/formats/formatregistry.h"
#include "core/measure/userformatanalyzer.h"
#include "core/model/runkey.h"
#include "core/parse/fastpattern.h"

#include <nlohmann/json.hpp>
#include <re2/re2.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

// Reading and checking a user's format file: every refusal names the JSON key and the reason.
// (Reading a log's lines with the format read: userformat.cpp.)

namespace sv {
namespace {

constexpr std::size_t kMaxFormatFileBytes = 64 * 1024;
constexpr std::size_t kMaxPatternBytes = 4096;
// RE2 matches in time linear in the line, but also in its compiled program: a repeat of a repeat
// ("(.{1,30}){1,30}", 33 characters) compiles to some 8,000 instructions and costs ms a line.
// The patterns formats are made of compile to tens or a few hundred.
constexpr int kMaxProgramSize = 2000;

struct Refusal {
    std::string key, reason;
};

bool validId(std::string_view id) {
    if (id.empty() || id.size() > 64) return false;
    auto ok = [](char c, bool first) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
               (!first && (c == '.' || c == '_' || c == '-'));
    };
    for (std::size_t i = 0; i < id.size(); ++i)
        if (!ok(id[i], i == 0)) return false;
    return true;
}

// Python's "(?<name>" for RE2's "(?P<name>" (a lookbehind "(?<=", "(?<!" is left for RE2 to
// refuse).
std::string pythonGroupsToRe2(std::string_view p) {
    std::string out;
    out.reserve(p.size() + 8);
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (p[i] == '\\' && i + 1 < p.size()) {
            out += p[i];
            out += p[++i];
            continue;
        }
        if (p.substr(i, 3) == "(?<" && i + 3 < p.size() && p[i + 3] != '=' && p[i + 3] != '!') {
            out += "(?P<";
            i += 2;
            continue;
        }
        out += p[i];
    }
    return out;
}

std::unique_ptr<re2::RE2> compile(const std::string& pattern, const std::string& key) {
    if (pattern.empty()) throw Refusal{key, "the pattern is empty"};
    if (pattern.size() > kMaxPatternBytes)
        throw Refusal{key,
                      "the pattern is longer than " + std::to_string(kMaxPatternBytes) + " bytes"};
    re2::RE2::Options options;
    options.set_log_errors(false);
    options.set_max_mem(8 << 20); // per pattern; RE2 falls back to its NFA beyond, still linear
    auto re = std::make_unique<re2::RE2>(pythonGroupsToRe2(pattern), options);
    if (!re->ok()) {
        std::string why = re->error();
        if (re->error_code() == re2::RE2::ErrorBadEscape &&
            pattern.find_first_of("123456789", pattern.find('\\')) != std::string::npos)
            why += " (back references are not supported: RE2 matches in linear time)";
        if (re->error_code() == re2::RE2::ErrorMissingParen ||
            re->error_code() == re2::RE2::ErrorUnexpectedParen)
            why += " (unbalanced parentheses)";
        throw Refusal{key, "bad pattern: " + why};
    }
    if (re->ProgramSize() > kMaxProgramSize)
        throw Refusal{key, "the pattern compiles to " + std::to_string(re->ProgramSize()) +
                               " instructions, more than " + std::to_string(kMaxProgramSize) +
                               ": it would be slow on every line (a repeat inside a repeat, "
                               "such as (.{1,30}){1,30}?)"};
    return re;
}

const nlohmann::json* member(const nlohmann::json& j, const char* key) {
    auto it = j.find(key);
    return it == j.end() ? nullptr : &*it;
}

std::string stringAt(const nlohmann::json& j, const char* key, const std::string& fallback,
                     bool required = false) {
    const nlohmann::json* v = member(j, key);
    if (!v) {
        if (required) throw Refusal{key, "missing (required)"};
        return fallback;
    }
    if (!v->is_string()) throw Refusal{key, "must be a string"};
    return v->get<std::string>();
}

std::optional<double> numberAt(const nlohmann::json& j, const char* key, const std::string& path) {
    const nlohmann::json* v = member(j, key);
    if (!v) return std::nullopt;
    if (!v->is_number()) throw Refusal{path, "must be a number"};
    return v->get<double>();
}

std::optional<int> wholeAt(const nlohmann::json& j, const char* key, const std::string& path,
                           int min, int max) {
    const nlohmann::json* v = member(j, key);
    if (!v) return std::nullopt;
    if (!v->is_number_integer() || v->get<std::int64_t>() < min || v->get<std::int64_t>() > max)
        throw Refusal{path, "must be a whole number from " + std::to_string(min) + " to " +
                                std::to_string(max)};
    return static_cast<int>(v->get<std::int64_t>());
}

bool detectWithUser(const void* context, std::string_view line) {
    return static_cast<const UserFormat*>(context)->matches(line);
}
void parseWithUser(const void* context, std::string_view text, std::size_t, SpeedSample& s) {
    static_cast<const UserFormat*>(context)->read(text, s);
}
// MessageFormat::parse of a user format: never called, the parser calls parseWith.
void parseNothing(std::string_view, std::size_t, SpeedSample&) {}

// The analyzer of a run read with a user format: the figure by the format's own rule.
std::unique_ptr<FormatAnalyzer> makeUserFormatAnalyzer(const LogFormat& format, Topology topology,
                                                       int batchPerDevice, MeasureOptions options) {
    const UserFormat* user = userFormatOf(format);
    if (!user) return nullptr;
    return makeUserWindowAnalyzer(user->rule(), topology, batchPerDevice, options);
}

} // namespace

// Fills a UserFormat from a parsed file (a friend: the members are private), one part of the
// file after the other, each refusing what it cannot take.
struct UserFormatBuilder {
    static std::shared_ptr<const UserFormat> build(const nlohmann::json& j, const std::string& file,
                                                   std::string json);

  private:
    static void checkKeys(const nlohmann::json& j);
    static void readNames(UserFormat& f, const nlohmann::json& j);
    static void readLine(UserFormat& f, const nlohmann::json& j);
    static void readValue(UserFormat& f, const nlohmann::json& j);
    static void readMetadata(UserFormat& f, const nlohmann::json& j);
    static void readWindow(UserFormat& f, const nlohmann::json& j);
    static void fillLogFormat(UserFormat& f);
};

std::string UserFormatError::text() const {
    std::string s = file.empty() ? std::string("format file") : file;
    if (!key.empty()) s += ": \"" + key + "\"";
    return s + ": " + reason;
}

std::shared_ptr<const UserFormat>
UserFormatBuilder::build(const nlohmann::json& j, const std::string& file, std::string json) {
    checkKeys(j);
    std::shared_ptr<UserFormat> f(new UserFormat());
    f->m_rule.file = file;
    f->m_json = std::move(json);
    readNames(*f, j);
    readLine(*f, j);
    readValue(*f, j);
    readMetadata(*f, j);
    readWindow(*f, j);
    fillLogFormat(*f);
    return f;
}

void UserFormatBuilder::checkKeys(const nlohmann::json& j) {
    if (!j.is_object()) throw Refusal{"", "the file is not a JSON object"};
    static const char* const kKeys[] = {
        "scaleview_format", "id",     "name",      "unit",        "line",
        "marker",           "value",  "scale",     "scales",      "batch",
        "metadata",         "window", "statistic", "description", "per_gpu"};
    for (auto it = j.begin(); it != j.end(); ++it)
        if (std::find_if(std::begin(kKeys), std::end(kKeys),
                         [&](const char* k) { return it.key() == k; }) == std::end(kKeys))
            throw Refusal{it.key(), "unknown key (known: id, name, unit, line, marker, value, "
                                    "scale, scales, batch, per_gpu, metadata, window, statistic)"};
    if (auto v = wholeAt(j, "scaleview_format", "scaleview_format", 1, 1000); v && *v != 1)
        throw Refusal{"scaleview_format",
                      "version " + std::to_string(*v) + " is newer than this ScaleView reads (1)"};
}

void UserFormatBuilder::readNames(UserFormat& f, const nlohmann::json& j) {
    std::string& id = f.m_rule.id;
    id = stringAt(j, "id", "", true);
    if (!validId(id))
        throw Refusal{"id", "'" + id +
                                "' is not an id: lower-case letters, digits, '.', '_' and '-', "
                                "starting with a letter or digit, at most 64"};
    if (findLogFormat(id) && !userFormatOf(*findLogFormat(id)))
        throw Refusal{"id", "'" + id + "' is a built-in format's id"};
    f.m_name = stringAt(j, "name", id);
    f.m_rule.unit = stringAt(j, "unit", "samples/s");
    if (f.m_name.empty() || f.m_name.size() > 80)
        throw Refusal{"name", "must be 1 to 80 characters"};
    if (f.m_rule.unit.empty() || f.m_rule.unit.size() > 40)
        throw Refusal{"unit", "must be 1 to 40 characters"};
}

// The line pattern, its captures, and the marker every line of the format holds.
void UserFormatBuilder::readLine(UserFormat& f, const nlohmann::json& j) {
    f.m_pattern = stringAt(j, "line", "", true);
    f.m_line = compile(f.m_pattern, "line");
    f.m_groups = f.m_line->NumberOfCapturingGroups();
    f.m_fast = FastPattern::compile(pythonGroupsToRe2(f.m_pattern), f.m_groups);
    for (const auto& [name, index] : f.m_line->NamedCapturingGroups()) {
        if (name == "value")
            f.m_valueGroup = index;
        else if (name == "scale" || name == "unit")
            f.m_scaleGroup = index;
        else if (name == "step")
            f.m_stepGroup = index;
        else if (name == "epoch")
            f.m_epochGroup = index;
        else if (name == "rank")
            f.m_rankGroup = index;
        else if (name == "timestamp")
            f.m_timeGroup = index;
        else
            throw Refusal{"line", "unknown capture '" + name +
                                      "' (known: value, scale or unit, step, epoch, rank, "
                                      "timestamp)"};
    }
    if (f.m_valueGroup < 0)
        throw Refusal{"line", "no (?P<value>...) capture: the pattern must name the number "
                              "that is the throughput (or the step time)"};
    std::string& marker = f.m_rule.marker;
    marker = stringAt(j, "marker", requiredLiteral(f.m_pattern));
    // No marker where the pattern proves none: every line is given to the pattern (slower, and
    // bounded by the parser's time per file), never a guessed marker that skips every line.
    if (marker.find('\n') != std::string::npos)
        throw Refusal{"marker", "must not hold a line break"};
}

// What the captured number is, and the multipliers it is read with.
void UserFormatBuilder::readValue(UserFormat& f, const nlohmann::json& j) {
    const std::string value = stringAt(j, "value", "rate");
    if (value == "rate")
        f.m_rule.value = UserFormat::Value::Rate;
    else if (value == "step_time")
        f.m_rule.value = UserFormat::Value::StepTime;
    else if (value == "step_rate")
        f.m_rule.value = UserFormat::Value::StepRate;
    else
        throw Refusal{"value",
                      "must be \"rate\", \"step_time\" or \"step_rate\", not \"" + value + "\""};
    if (auto s = numberAt(j, "scale", "scale")) {
        if (!(*s > 0) || !std::isfinite(*s)) throw Refusal{"scale", "must be above 0"};
        f.m_scale = *s;
    }
    if (const nlohmann::json* s = member(j, "scales")) {
        if (!s->is_object()) throw Refusal{"scales", "must be an object of text: multiplier"};
        for (auto it = s->begin(); it != s->end(); ++it) {
            if (!it->is_number() || !(it->get<double>() > 0))
                throw Refusal{"scales." + it.key(), "must be a number above 0"};
            f.m_scales.emplace(it.key(), it->get<double>());
        }
    } else {
        f.m_scales = {{"", 1.0}, {"K", 1e3}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}};
    }
    f.m_scales.emplace("", 1.0);
    f.m_rule.batch = wholeAt(j, "batch", "batch", 1, 1 << 24);
    if (const nlohmann::json* p = member(j, "per_gpu")) {
        if (!p->is_boolean())
            throw Refusal{"per_gpu", "must be true (the value is one GPU's rate) or false (the "
                                     "whole run's, the default)"};
        f.m_rule.perGpu = p->get<bool>();
        if (f.m_rule.perGpu && f.m_rule.value == UserFormat::Value::StepTime)
            throw Refusal{"per_gpu", "a step time is the whole step's: the rate is batch x GPUs / "
                                     "time already (per_gpu is for a rate)"};
        if (f.m_rule.perGpu && f.m_rule.value == UserFormat::Value::StepRate)
            throw Refusal{"per_gpu", "a step rate is the whole step's: the rate is steps/s x "
                                     "batch x GPUs already (per_gpu is for a rate)"};
    }
}

void UserFormatBuilder::readMetadata(UserFormat& f, const nlohmann::json& j) {
    const nlohmann::json* m = member(j, "metadata");
    if (!m) return;
    if (!m->is_object()) throw Refusal{"metadata", "must be an object of key: pattern"};
    for (auto it = m->begin(); it != m->end(); ++it) {
        const std::string key = "metadata." + it.key();
        if (it.key() != "batch" && it.key() != "gpus" && it.key() != "precision" &&
            it.key() != "model")
            throw Refusal{key, "unknown (known: batch, gpus, precision, model)"};
        // "gpus": 8 states every log's count; a pattern reads each log's.
        if (it.key() == "gpus" && it->is_number()) {
            f.m_gpus = wholeAt(*m, "gpus", key, 1, kMaxRanks);
            continue;
        }
        if (!it->is_string())
            throw Refusal{key, it.key() == "gpus"
                                   ? "must be a pattern (a string) or a GPU count (a number)"
                                   : "must be a pattern (a string)"};
        auto re = compile(it->get<std::string>(), key);
        if (re->NumberOfCapturingGroups() < 1)
            throw Refusal{key, "needs one capture, (...), around the value"};
        f.m_meta.push_back({it.key(), std::move(re)});
    }
}

// The window (steps, or the share of values dropped first) and the statistic over it.
void UserFormatBuilder::readWindow(UserFormat& f, const nlohmann::json& j) {
    UserWindowRule& r = f.m_rule;
    if (const nlohmann::json* w = member(j, "window")) {
        if (!w->is_object()) throw Refusal{"window", "must be an object"};
        r.warmup = wholeAt(*w, "warmup", "window.warmup", 0, 1000000);
        r.iterations = wholeAt(*w, "iterations", "window.iterations", 1, 1000000);
        if (r.warmup.has_value() != r.iterations.has_value())
            throw Refusal{"window", "give both warmup and iterations, or neither"};
        if (r.iterations && *r.iterations <= *r.warmup)
            throw Refusal{"window.iterations", "must be greater than warmup"};
        if (auto d = numberAt(*w, "drop_first", "window.drop_first")) {
            if (r.warmup) throw Refusal{"window", "drop_first or warmup/iterations, not both"};
            if (!(*d >= 0 && *d < 1))
                throw Refusal{"window.drop_first", "must be from 0 to below 1"};
            r.dropFirst = *d;
        }
    }
    const std::string statistic = stringAt(j, "statistic", "median");
    if (statistic == "median")
        r.statistic = UserFormat::Statistic::Median;
    else if (statistic == "mean")
        r.statistic = UserFormat::Statistic::Mean;
    else
        throw Refusal{"statistic", "must be \"median\" or \"mean\", not \"" + statistic + "\""};
}

// The engine's row for the format: its views point into f, which outlives every use of it.
void UserFormatBuilder::fillLogFormat(UserFormat& f) {
    LogFormat& lf = f.m_format;
    lf.id = f.m_rule.id;
    lf.framework = f.m_name;
    lf.unit = f.m_rule.unit;
    lf.defaultWarmup = f.m_rule.warmup.value_or(-1);
    lf.defaultIterations = f.m_rule.iterations.value_or(-1);
    lf.family = FormatFamily::Own;
    lf.message = MessageFormat{"user-format", f.m_rule.marker, &parseNothing};
    lf.message.context = &f;
    lf.message.parseWith = &parseWithUser;
    lf.detect = nullptr;
    lf.detectWith = &detectWithUser;
    lf.context = &f;
    lf.makeAnalyzer = &makeUserFormatAnalyzer;
    lf.speedIsThroughput = f.m_rule.value == UserFormat::Value::Rate;
}

UserFormat::~UserFormat() = default;

std::shared_ptr<const UserFormat> UserFormat::parse(std::string_view json, const std::string& file,
                                                    UserFormatError* error) {
    try {
        nlohmann::json j = nlohmann::json::parse(json.begin(), json.end(), nullptr, true,
                                                 /*ignore_comments=*/true);
        return UserFormatBuilder::build(j, file, std::string(json));
    } catch (const Refusal& r) {
        if (error) *error = {file, r.key, r.reason};
    } catch (const nlohmann::json::parse_error& e) {
        std::string what = e.what();
        if (auto at = what.find("] "); at != std::string::npos) what = what.substr(at + 2);
        if (error) *error = {file, "", "not JSON: " + what};
    } catch (const std::exception& e) {
        if (error) *error = {file, "", e.what()};
    }
    return nullptr;
}

std::shared_ptr<const UserFormat> UserFormat::load(const std::filesystem::path& path,
                                                   UserFormatError* error) {
    const std::string file = path.string();
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (error) *error = {file, "", std::strerror(errno)};
        return nullptr;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        if (error) *error = {file, "", "not a regular file"};
        return nullptr;
    }
    std::string text(kMaxFormatFileBytes + 1, '\0');
    std::size_t got = 0;
    while (got < text.size()) {
        const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += static_cast<std::size_t>(n);
    }
    ::close(fd);
    if (got > kMaxFormatFileBytes) {
        if (error)
            *error = {file, "",
                      "larger than " + std::to_string(kMaxFormatFileBytes / 1024) +
                          " KiB: not a format file"};
        return nullptr;
    }
    text.resize(got);
    if (text.find('\0') != std::string::npos) {
        if (error) *error = {file, "", "binary content (a NUL byte): not a format file"};
        return nullptr;
    }
    return parse(text, file, error);
}

const UserFormat* userFormatOf(const LogFormat& format) {
    return format.detectWith == &detectWithUser ? static_cast<const UserFormat*>(format.context)
                                                : nullptr;
}

} // namespace sv
