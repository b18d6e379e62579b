#pragma once
// A log file fed to the parser: the whole file, or the bytes a growing log added since the last
// read. The one read loop of every reader (the CLI's loads, the app's, a live view, a user
// format's preview).

#include "core/parse/logparser.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace sv {

// Where a reader of a log stopped: the file it read and the offset after the last byte fed.
struct LogPosition {
    std::uint64_t inode = 0;
    std::uint64_t offset = 0;
    bool operator==(const LogPosition&) const = default;
};

struct LogRead {
    LogPosition position;   // how far the parser has been fed, also after an error
    bool restarted = false; // the file was another or shorter: read again from the start
    std::optional<std::string> error;
};

// The one read loop, for a whole log and for a growing one: feeds the parser the bytes after
// `from` up to the file's size at open (a growing log cannot keep the reader forever). When the
// file is not the one read before (another inode) or is shorter than from.offset, reading starts
// again at 0 with the parser `restart` gives (required when from.offset > 0). An error (cannot
// open, not a regular file, a failed read) says why; what was fed before it stays fed.
using LogRestart = std::function<LogParser&()>;
LogRead readLogFile(const std::filesystem::path& path, LogParser& parser, LogPosition from = {},
                    const LogRestart& restart = {});

} // namespace sv
