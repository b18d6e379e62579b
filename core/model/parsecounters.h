#pragma once
// What the parser counted in a log's bytes: its lines, the format's, the overlong ones and how
// its unterminated last line was taken. A run's result carries them, so they sit below both.

#include <cstdint>

namespace sv {

struct ParseCounters {
    std::int64_t bytes = 0;
    std::int64_t lines = 0;         // newline-terminated lines seen
    std::int64_t markerLines = 0;   // lines holding the format's marker (DLPerf's count)
    std::int64_t overlongLines = 0; // skipped for exceeding maxLineBytes
    std::int64_t firstOverlongLine = 0;
    // After finishTail(): the line number of an unterminated last line holding the marker, and
    // whether it was read (a whole line that only lacks its '\n') or left out (cut mid-line).
    std::int64_t tailLine = 0;
    bool tailRead = false;
    // Where a format's own line reader (a user format's pattern) spent the time one file may
    // take: the line it stopped at (the lines after it were not read) and that bound, in
    // seconds. 0: the file was read to its end.
    std::int64_t budgetLine = 0;
    double budgetSeconds = 0;
};

} // namespace sv
