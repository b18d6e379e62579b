#pragma once
// The table of line formats: tag prefixes that launchers put before each line, and the
// framework message formats that carry a throughput. One engine (LogParser) uses both tables;
// adding a framework is adding a row here.

#include "core/model/sample.h"

#include <optional>
#include <span>
#include <string_view>

namespace sv {

// A prefix a launcher puts before every line, e.g. Open MPI's "[1,3]<stderr>:".
struct TagFormat {
    std::string_view name;
    // On a match: the rank and the length of the prefix.
    bool (*match)(std::string_view line, int& rank, std::size_t& length);
};

// A framework's per-iteration throughput line.
struct MessageFormat {
    std::string_view name;
    // Lines that contain this are the ones the DLPerf scripts count; nothing else is parsed.
    // Empty: every line is parsed (a user format whose pattern proves no text every match holds).
    std::string_view marker;
    // Fills epoch, batch, timestamp and speed from the line with its tag prefix removed;
    // markerPos is where the marker starts in text (npos: unknown, search for it).
    void (*parse)(std::string_view text, std::size_t markerPos, SpeedSample& sample);
    // Optional: reads text (with its tag removed) only where it has the format's usual shape,
    // every byte from the first to the marker checked (so it holds no '\r', no escape and no
    // earlier marker), and gives then what parse gives; false, sample untouched, otherwise. The
    // parser tries it first on Open MPI-tagged lines and skips its searches of the line.
    bool (*parseUsual)(std::string_view text, SpeedSample& sample) = nullptr;
    // A format read at run time (a user's format file, core/formats/userformat.h): the parser
    // calls parseWith(context, ...) instead of parse where it is set.
    const void* context = nullptr;
    void (*parseWith)(const void* context, std::string_view text, std::size_t markerPos,
                      SpeedSample& sample) = nullptr;
};

std::span<const TagFormat> tagFormats();
// Open MPI's --tag-output prefix, "[jobid,rank]<stderr>:" (the first of tagFormats()).
bool matchOpenMpiTag(std::string_view line, int& rank, std::size_t& length);
// False where no tag format can match line, from its first bytes: each starts with '[' (Open
// MPI, "[rank"), a blank or a digit (srun's label), or asctime's "Www Mmm dd hh:" (Gloo). The
// parser skips the matchers on the other lines, most lines of most logs.
inline bool mayHaveTag(std::string_view line) {
    if (line.empty()) return false;
    const char c = line[0];
    return c == '[' || c == ' ' || (c >= '0' && c <= '9') ||
           (line.size() >= 28 && line[3] == ' ' && line[7] == ' ' && line[13] == ':');
}
std::span<const MessageFormat> messageFormats();
// The NGC MXNet speedometer line: "... Epoch[0] Batch [19-19]\tSpeed: 3007.1 samples/sec ...".
const MessageFormat& mxnetSpeedometer();
std::optional<MessageFormat> findMessageFormat(std::string_view name);

// "YYYY-MM-DD HH:MM:SS,fff" (fraction of 1 to 6 digits, as strptime's %f) at the start of
// text; microseconds since 1970-01-01 UTC, the date taken as is (no time zone applied).
// fractionSeparator: ',' for Python logging's asctime, '.' for dllogger's "DLL" lines.
// The time in us, and true; false where text does not start with a timestamp.
bool readLogTimestamp(std::string_view text, std::int64_t& us, std::size_t* length = nullptr,
                      char fractionSeparator = ',');
// The same as an optional. Inline, so that the optional lives in the caller's registers: returned
// from a call, its flag was stored as a byte and reloaded as a word, a stall on every line.
inline std::optional<std::int64_t> parseLogTimestamp(std::string_view text,
                                                     std::size_t* length = nullptr,
                                                     char fractionSeparator = ',') {
    std::int64_t us = 0;
    if (!readLogTimestamp(text, us, length, fractionSeparator)) return std::nullopt;
    return us;
}

} // namespace sv
