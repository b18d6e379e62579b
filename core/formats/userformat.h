#pragma once
// Formats users teach ScaleView: a small JSON file, no C++. A line pattern in RE2's syntax with
// named captures (the value, and optionally its unit or scale, the step, epoch, rank and
// timestamp), patterns for the run's metadata taken from any line, and the window rule. RE2
// matches in time linear in the line, so no pattern can hang a read; a file that is not right is
// refused with its path, the JSON key and the reason (RE2's own words for a pattern).
//
//   {
//     "scaleview_format": 1,
//     "id": "mytrainer",                 // [a-z0-9][a-z0-9._-]*, not a built-in format's id
//     "name": "My trainer",              // the Framework column (default: the id)
//     "unit": "tokens/s",                // the throughput's unit (default "samples/s")
//     "line": "step (?P<step>\\d+) .*throughput=(?P<value>[0-9.]+)(?P<scale>[KM]?)",
//     "marker": "throughput=",           // optional: a text every line of the format holds
//     "value": "rate",                   // "rate" (default), "step_time" (seconds per step)
//                                        // or "step_rate" (steps/s, x batch x GPUs)
//     "scale": 1,                        // a constant multiplier of the value
//     "scales": {"K": 1000, "M": 1e6},   // the multiplier of each text of the scale capture
//     "batch": 256,                      // step_time, step_rate: samples per step and device,
//                                        // if the log
//                                        // does not say (then: the "batch" metadata, the path)
//     "per_gpu": false,                  // true: the value is one GPU's rate (x the GPUs)
//     "metadata": {"batch": "batch_size=(\\d+)", "gpus": "world_size=(\\d+)",
//                  "precision": "dtype='(\\w+)'", "model": "--model (\\S+)"},
//                                        // "gpus": 8, a number: every log's GPUs where
//                                        // neither the log, its path nor a scaleview.json say
//     "window": {"drop_first": 0.1}      // or {"warmup": 20, "iterations": 120}: steps
//     "statistic": "median"              // or "mean": of the values in the window
//   }
//
// Captures: value (required), scale or unit (its text looked up in "scales"; K, k, M, G by
// default), step, epoch, rank, timestamp ("YYYY-MM-DD HH:MM:SS[.,]f" or seconds since 1970).
// Python's "(?<name>...)" is taken for RE2's "(?P<name>...)".

#include "core/measure/userwindowrule.h"
#include "core/model/sample.h"
#include "core/parse/logformat.h"

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sv {
class FastPattern;
}
namespace re2 {
class RE2;
}

namespace sv {

// Why a format file was refused: the file, the JSON key ("line", "metadata.batch"; empty for
// the file as a whole) and the reason.
struct UserFormatError {
    std::string file;
    std::string key;
    std::string reason;
    std::string text() const;
};

// What the metadata patterns found in a log's first lines.
struct UserFormatFacts {
    std::optional<int> batch;
    std::optional<int> gpus;
    std::optional<std::string> precision;
    std::optional<std::string> model;
};

class UserFormat {
  public:
    using Value = UserWindowRule::Value;
    using Statistic = UserWindowRule::Statistic;

    // Reads and checks a format file (at most 64 KiB); nullptr with *error otherwise.
    static std::shared_ptr<const UserFormat> load(const std::filesystem::path& file,
                                                  UserFormatError* error);
    // The same from the file's text; file is the name errors give.
    static std::shared_ptr<const UserFormat> parse(std::string_view json, const std::string& file,
                                                   UserFormatError* error);

    ~UserFormat();
    UserFormat(const UserFormat&) = delete;
    UserFormat& operator=(const UserFormat&) = delete;

    const std::string& id() const { return m_rule.id; }
    const std::string& name() const { return m_name; }
    const std::string& unit() const { return m_rule.unit; }
    const std::string& file() const { return m_rule.file; }
    const std::string& pattern() const { return m_pattern; }
    const std::string& marker() const { return m_rule.marker; }
    Value value() const { return m_rule.value; }
    Statistic statistic() const { return m_rule.statistic; }
    double dropFirst() const { return m_rule.dropFirst; } // the window rule when no steps are given
    std::optional<int> warmup() const { return m_rule.warmup; }
    std::optional<int> iterations() const { return m_rule.iterations; }
    std::optional<int> batch() const { return m_rule.batch; }
    bool perGpu() const { return m_rule.perGpu; } // the value is one GPU's rate
    // "metadata": {"gpus": N}: the GPUs of every log it reads that states none.
    std::optional<int> gpus() const { return m_gpus; }
    const std::string& json() const { return m_json; } // the file's text, as read
    // What the analyzer of its runs needs of it: its values and window.
    const UserWindowRule& rule() const { return m_rule; }

    // A LogFormat for the engine (family Own); its views point into this object, which must
    // outlive every use of it.
    const LogFormat& logFormat() const { return m_format; }

    // Whether line (a whole line, without its newline) is one of the format's lines with a
    // usable value.
    bool matches(std::string_view line) const;
    // Reads line into sample as the parser's MessageFormat does: false where it does not match.
    bool read(std::string_view line, SpeedSample& sample) const;
    // The metadata patterns over text (a log's first lines): the first match of each.
    UserFormatFacts facts(std::string_view text) const;
    // Each metadata pattern and its key ("batch", "gpus", "precision", "model"), in file order.
    std::vector<std::pair<std::string, const re2::RE2*>> metadata() const;

  private:
    UserFormat() = default;
    friend struct UserFormatBuilder;

    UserWindowRule m_rule; // id, file, unit, marker, value kind, statistic, window, batch
    std::string m_name, m_pattern, m_json;
    double m_scale = 1.0;
    std::map<std::string, double, std::less<>> m_scales;
    std::unique_ptr<re2::RE2> m_line;
    // The line pattern read without RE2 where its form allows (fastpattern.h); null otherwise.
    std::shared_ptr<const FastPattern> m_fast;
    int m_groups = 0;
    int m_valueGroup = -1, m_scaleGroup = -1, m_stepGroup = -1, m_epochGroup = -1, m_rankGroup = -1,
        m_timeGroup = -1;
    struct Meta {
        std::string key;
        std::unique_ptr<re2::RE2> re;
    };
    std::vector<Meta> m_meta;
    std::optional<int> m_gpus;
    LogFormat m_format;
};

// The longest text every match of an RE2 pattern holds, read from the pattern (empty where none
// can be told: an alternative at the top, a case-insensitive flag, no literal).
std::string requiredLiteral(std::string_view pattern);

// The user's format directory: $XDG_CONFIG_HOME/scaleview/formats, else
// $HOME/.config/scaleview/formats (from the arguments, for tests; empty if neither is set).
std::filesystem::path userFormatDirectory(const char* xdgConfigHome, const char* home);
// The same from this process's environment.
std::filesystem::path userFormatDirectory();

// The user formats of dir (*.json, by name): the refused ones in *errors.
std::vector<std::shared_ptr<const UserFormat>>
readUserFormats(const std::filesystem::path& dir, std::vector<UserFormatError>* errors);

// Registers a user format with the engine (findLogFormat, detection after the built-in formats),
// once per id: nullptr with *why when the id is a built-in's or another user format's (the same
// file's format again is the one registered before).
const LogFormat* registerUserFormat(std::shared_ptr<const UserFormat> format, std::string* why);
// The user format registered under id; nullptr if none.
std::shared_ptr<const UserFormat> registeredUserFormat(std::string_view id);
// The registered user formats, in registration order.
std::vector<std::shared_ptr<const UserFormat>> registeredUserFormats();
// The user format whose LogFormat this is; nullptr for a built-in.
const UserFormat* userFormatOf(const LogFormat& format);

// Registers the formats of userFormatDirectory() whose ids are free; refused files and id
// clashes in *problems (in words, naming the file).
void loadUserFormats(std::vector<std::string>* problems);

// What a format gives on one log, for the teach dialog's preview and `formats test`: every
// matching line is read (streaming; a line over 1 MiB is skipped), the figure by the format's
// window rule.
struct UserFormatPreview {
    std::int64_t lines = 0;               // lines read
    std::int64_t matches = 0;             // lines the pattern matched with a usable value
    std::vector<std::int64_t> matchLines; // the first 200 matching lines' numbers
    std::vector<double> values;           // every matching line's value, in the format's unit
    std::optional<double> figure;         // by the window rule
    std::string rule;                     // which lines the figure is of, in words
    std::string problem;                  // why there is no figure
    UserFormatFacts facts;
    int gpus = 0; // per_gpu: the GPUs each value was multiplied by
    // step_rate: the step's global batch (batch per GPU x GPUs) each steps/s value was
    // multiplied by; 0 where one of them is unknown, and then the values and figure are steps/s
    // and stepsOnly says why.
    int stepBatch = 0;
    std::string stepsOnly;
    std::optional<std::string> readError;
};
UserFormatPreview previewUserFormat(const UserFormat& format, const std::filesystem::path& log,
                                    std::int64_t batchPerDevice = 0, int ranks = 0);

} // namespace sv
