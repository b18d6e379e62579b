#pragma once
// Users' format files on the command line: --format-file FILE (summarize, compare, report,
// history) and the formats in the user's config directory, registered before a command reads logs.

#include <string>
#include <vector>

namespace sv::cli {

// Removes every --format-file FILE from args and registers those formats, then the user's own
// (userFormatDirectory(); a refused one is a warning on standard error unless args hold
// --quiet). False with *error naming the file, the JSON key and the reason when a given file is
// refused: a usage error (exit 2).
bool prepareUserFormats(std::vector<std::string>& args, std::string* error);

} // namespace sv::cli
