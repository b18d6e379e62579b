#pragma once
// The model of "Teach ScaleView this log": a log's first lines, the line the user picks as a
// throughput line, the numbers in it (the user picks the value and the step), a pattern drafted
// from it (literal text escaped, numbers turned into captures) that the user may edit, a preview
// of what the format gives on this log, and the format file saved. No Qt: the dialog
// (ui/window/teachdialog.h) is a thin view of it.

#include "core/formats/userformat.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sv {

// A number in a line: where it is and its text ("3007.1", "21", "1.2e-3"), with a K/M/G
// right after it (3.2K) as its suffix.
struct LineNumber {
    std::size_t position = 0;
    std::size_t length = 0; // the digits, without the suffix
    std::string text;
    double value = 0;
    char suffix = 0; // 'K', 'k', 'M', 'G' or 0
    bool whole = false;
};

// The numbers of line, left to right; digits glued to letters ("r50", "fp16", "1n8g", "0x1f")
// are not numbers.
std::vector<LineNumber> numbersInLine(std::string_view line);

// The pattern for line: the literal text escaped for RE2, the number at value as
// (?P<value>...) (with (?P<scale>[KkMG]?) after it where it had a suffix), the one at step (if
// any) as (?P<step>[0-9]+), every other whole number as [0-9]+ and every other number as a
// number of any form (sign, fraction, exponent, nan, inf). A launcher's rank tag at
// the start (Open MPI's "[1,0]<stdout>:") is left out, since the parser removes it first.
std::string draftLinePattern(std::string_view line, const std::vector<LineNumber>& numbers,
                             int value, int step = -1);

// A guess at the first throughput line of lines: one with a number right before a rate unit
// ("/s", "/sec") or after a speed word ("speed", "throughput", "ips"); -1 if none.
int suggestThroughputLine(const std::vector<std::string>& lines);

class FormatDraft {
  public:
    // The log's first lines (at most maxLines, and 1 MiB; a line is cut at 4 KiB for display).
    // nullopt with *error when it cannot be read or is binary.
    static std::optional<FormatDraft> open(const std::filesystem::path& log, std::string* error,
                                           int maxLines = 400);

    const std::filesystem::path& log() const { return m_log; }
    const std::vector<std::string>& lines() const { return m_lines; }

    // The line the user clicked (an index of lines()); its numbers; the value is the first
    // number with a fraction after the last "speed"/"throughput"-like word, or the last one.
    void chooseLine(int index);
    int line() const { return m_line; }
    const std::vector<LineNumber>& numbers() const { return m_numbers; }
    void chooseValue(int number);
    void chooseStep(int number); // -1: none
    int value() const { return m_value; }
    int step() const { return m_step; }
    // The draft for the chosen line and numbers (what pattern() holds after a choice).
    std::string draft() const;

    // What the user may edit.
    std::string pattern;
    std::string id;
    std::string name;
    std::string unit = "samples/s";
    bool stepTime = false; // the value is seconds per step, not a rate
    // The value is steps/s (tqdm's it/s) and the figure is it times the step's global batch
    // (batch per GPU x GPUs): "value": "step_rate", in unit (steps/s becomes samples/s).
    bool stepRate = false;
    int batch = 0; // samples per step and device, for a step time or rate (0: unknown)
    // The value is one GPU's rate ("img/sec per GPU"): the run's is it times the GPUs. Set by
    // chooseLine where the line says "per GPU".
    bool perGpu = false;
    // A pattern with one capture for the GPU count ("Number of GPUs: (\\d+)"), or a number
    // (every log's count); empty: the log's own words, its path or a scaleview.json.
    std::string gpusPattern;

    // The format file's text for the fields above.
    std::string json() const;
    // The format, compiled; nullptr with the reason (the JSON key and RE2's words).
    std::shared_ptr<const UserFormat> format(UserFormatError* error) const;
    // Which lines of lines() the pattern matches (a quick look, no figure).
    std::vector<int> matchingLines() const;
    // A warning where the pattern matches under half of the lines like the chosen one (those
    // that hold the words after its value, "it/s"): "the pattern matches 1 of the 118 lines
    // shown that hold "it/s": ..."; empty when it matches most of them.
    std::string coverage() const;
    // The format run over the whole log (streams it: off the GUI thread).
    UserFormatPreview preview(UserFormatError* error) const;
    // Writes the format file into dir as <id>.json (replacing one of that id), atomically.
    std::optional<std::filesystem::path> save(const std::filesystem::path& dir,
                                              std::string* error) const;

  private:
    std::filesystem::path m_log;
    std::vector<std::string> m_lines;
    int m_line = -1;
    std::vector<LineNumber> m_numbers;
    int m_value = -1, m_step = -1;
    bool m_idFromLine = false; // the log's name says nothing ("train.log"): the id is the line's
    std::string m_autoId;      // the id the draft gave; another one is the user's, and kept
};

// An id from a log's name: "train_log-1.txt" -> "train-log-1"; "user-format" if nothing is left.
std::string formatIdFromName(std::string_view fileName);
// Whether an id from a name says nothing of the format: "train", "log", "output-3", "slurm-1234",
// a date.
bool isGenericLogName(std::string_view id);
// An id from a throughput line's words: "Iter #3: 245.3 img/sec per GPU" -> "iter-img-gpu";
// a tqdm progress line -> "tqdm-progress".
std::string idFromLine(std::string_view line);

} // namespace sv
